import type { RankingRef } from '../../model';
import { rankingKeys } from '../keys';
import { toScore } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';

/** score_at.lua: the score at a rank or at a percentile of a ranking. */
export const contract = { changesBoard: false } satisfies ScriptContract;

/** The score at the rank (1-based) or the percentile (0 < p <= 100); null when there is none there (or no board). */
export async function scoreAt(scripts: ScriptRunner, ref: RankingRef, at: 'rank' | 'percent', value: number): Promise<number | null> {
  const keys = rankingKeys(ref);
  const reply = (await scripts.read('score_at', [keys.config, keys.ranking], [at, String(value)])) as Buffer | null;
  return reply === null ? null : toScore(1, reply.toString());
}
