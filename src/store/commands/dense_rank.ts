import { boardKeys } from '../keys';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { formatScore } from './arguments';

/** dense_rank.lua: dense ranks of scores on one board. */
export const contract = { changesBoard: false } satisfies ScriptContract;

/** Each score's dense rank (1, 2, 2, 3), in order; null for an unknown board or one without dense ranks. */
export async function denseRanks(scripts: ScriptRunner, boardId: string, scores: readonly number[]): Promise<number[] | null> {
  const keys = boardKeys(boardId);
  const ranks = (await scripts.read('dense_rank', [keys.config, keys.distinct], scores.map(formatScore))) as number[];
  return ranks.length === scores.length ? ranks : null;
}
