import { boardNotFound } from '../../errors';
import type { BoardConfig, BoardUpdate } from '../../model';
import { boardKeys } from '../keys';
import { BOARD_FIELDS, boardOf, type Reply, shape } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { bucketCount, flag } from './arguments';
import { decodeErrors, refusedInput } from './scriptErrors';

/** update_board.lua: the settings that can change without rebuilding a board. */
export const contract = {
  changesBoard: true,
  replies: { reply: shape('changed', ...BOARD_FIELDS) },
} satisfies ScriptContract;

/** NOT_FOUND for an unknown board; BAD_USER_INPUT [field] for a setting that cannot change. */
export async function updateBoard(scripts: ScriptRunner, update: BoardUpdate): Promise<{ board: BoardConfig; changed: boolean }> {
  const keys = boardKeys(update.id);
  const title = update.title === undefined ? ['keep', ''] : update.title === null ? ['clear', ''] : ['set', update.title];
  const reply = (await decodeErrors(scripts.write('update_board', [keys.config], [
    ...title, update.updatePolicy ?? '', update.sortOrder ?? '',
    update.capacity === undefined ? '' : bucketCount(update.capacity), keys.events, flag(update.denseRanks),
  ]), {
    NOT_FOUND: () => {
      throw boardNotFound(update.id);
    },
    BAD_USER_INPUT: (error) => {
      throw refusedInput(error);
    },
  })) as Reply;
  const at = contract.replies.reply.at;
  return { changed: reply[at.changed] === 1, board: boardOf(update.id, reply, at) };
}
