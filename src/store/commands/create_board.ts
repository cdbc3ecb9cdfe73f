import { conflict } from '../../errors';
import type { BoardConfig, CreateBoardInput } from '../../model';
import { boardKeys } from '../keys';
import { BOARD_FIELDS, boardOf, type Reply, shape } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { bucketCount, flag } from './arguments';
import { decodeErrors } from './scriptErrors';

/** create_board.lua: creates a board, or answers the existing one. */
export const contract = {
  changesBoard: true,
  replies: { reply: shape('created', ...BOARD_FIELDS) },
} satisfies ScriptContract;

/** The board and whether this call created it; CONFLICT [setting] when it exists with another setting. */
export async function createBoard(scripts: ScriptRunner, input: CreateBoardInput): Promise<{ board: BoardConfig; created: boolean }> {
  const title = input.title ?? null;
  const keys = boardKeys(input.id);
  const reply = (await decodeErrors(scripts.write('create_board', [keys.config], [
    input.sortOrder, input.updatePolicy, title ?? '', title === null ? '' : '1',
    bucketCount(input.capacity ?? 1_000_000), keys.events, flag(input.denseRanks), input.periods ?? '',
    // The board's creation is stamped by the scripts' clock: a test's moment where a test drives it.
    ...scripts.nowArgs(),
  ]), {
    CONFLICT: ({ field, text }) => {
      throw conflict(text, { field });
    },
  })) as Reply;
  const at = contract.replies.reply.at;
  return { created: reply[at.created] === 1, board: boardOf(input.id, reply, at) };
}
