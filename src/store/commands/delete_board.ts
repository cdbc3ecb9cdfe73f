import { boardKeys } from '../keys';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';

/** delete_board.lua: a board's config, ranking and distinct scores; the store unlinks the rest. */
export const contract = { changesBoard: true } satisfies ScriptContract;

/** The deleted board's bucket count; undefined when there was no board. */
export async function deleteBoardHead(scripts: ScriptRunner, boardId: string): Promise<number | undefined> {
  const keys = boardKeys(boardId);
  const buckets = (await scripts.write('delete_board', [keys.config, keys.ranking, keys.distinct], [keys.events])) as number;
  return buckets < 0 ? undefined : buckets;
}
