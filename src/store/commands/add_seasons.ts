import { boardNotFound } from '../../errors';
import type { BoardConfig } from '../../model';
import { boardKeys } from '../keys';
import { BOARD_FIELDS, boardOf, type Reply, shape } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { periodsFingerprint } from './arguments';
import { decodeErrors } from './scriptErrors';

/** add_seasons.lua: a board's periods with seasons added, if they are still those the caller read. */
export const contract = {
  changesBoard: true,
  replies: { reply: shape(...BOARD_FIELDS) },
} satisfies ScriptContract;

/**
 * What adding seasons did: the board with its new periods; or nothing, because its periods
 * changed since they were read (`periodsChanged`: read them again), or because a season added
 * starts at or before `latestMoment` (µs), the latest of Redis' now and the board's last moment.
 */
export type AddSeasonsResult = { board: BoardConfig } | { periodsChanged: true } | { latestMoment: number };

/**
 * Gives the board the periods `periods` (its own with seasons added) if it still has
 * `expected`; `earliestStart` (µs) is the first moment of the earliest season added. NOT_FOUND
 * for an unknown board.
 */
export async function addSeasons(
  scripts: ScriptRunner, boardId: string, expected: string, periods: string, earliestStart: number,
): Promise<AddSeasonsResult> {
  const keys = boardKeys(boardId);
  const reply = await decodeErrors<unknown, AddSeasonsResult>(scripts.write('add_seasons', [keys.config], [
    periodsFingerprint(expected), periods, String(earliestStart), keys.events, ...scripts.nowArgs(),
  ]), {
    NOT_FOUND: () => {
      throw boardNotFound(boardId);
    },
    PERIODS_CHANGED: () => ({ periodsChanged: true }),
    TOO_EARLY: ({ text }) => ({ latestMoment: Number(text) }),
  });
  if (!Array.isArray(reply)) return reply as AddSeasonsResult;
  return { board: boardOf(boardId, reply as Reply, contract.replies.reply.at) };
}
