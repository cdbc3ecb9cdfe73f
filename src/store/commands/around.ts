import type { RankingRef, RankWindow } from '../../model';
import { rankingKeys } from '../keys';
import { type Reply, shape, windowOf } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { bucketOf, formatScore } from './arguments';
import { decodeErrors, type StaleLayout, staleLayout } from './scriptErrors';

/** around.lua: the window of a ranking around a player, or around where a score would rank. */
export const contract = {
  changesBoard: false,
  replies: { reply: shape('sortOrder', 'total', 'start', 'firstShared', 'center', 'entries', 'version') },
} satisfies ScriptContract;

function windowRead(reply: Reply) {
  const at = contract.replies.reply.at;
  const { entries, total } = windowOf(reply, at);
  // center: the player's 0-based rank; null when the player (or the board) was not found, and around a score.
  const center = (reply[at.center] as number | null | undefined) ?? null;
  return { entries, total, center, version: (reply[at.version] as number | undefined) ?? 0 };
}

/**
 * The window around a player (null when the player has no entry), with the board's size and
 * change counter at the read; STALE_LAYOUT when the board's bucket count is no longer `buckets`.
 */
export async function aroundPlayer(
  scripts: ScriptRunner, ref: RankingRef, buckets: number, playerId: string, radius: number,
): Promise<{ window: RankWindow | null; total: number; version: number } | StaleLayout> {
  const keys = rankingKeys(ref);
  const reply = await decodeErrors(
    scripts.read('around', [keys.config, keys.ranking, keys.bucket(bucketOf(playerId, buckets))], [radius, 'player', playerId, buckets]),
    { STALE_BUCKETS: staleLayout },
  );
  if (!Array.isArray(reply)) return reply as StaleLayout;
  const { entries, total, center, version } = windowRead(reply as Reply);
  const window = center === null ? null : { center: entries[center - (entries[0].rank - 1)], entries, total };
  return { window, total, version };
}

/** The window around where a score would rank (after the equal scores). */
export async function aroundScore(scripts: ScriptRunner, ref: RankingRef, score: number, radius: number): Promise<RankWindow> {
  const keys = rankingKeys(ref);
  const { entries, total } = windowRead((await scripts.read('around', [keys.config, keys.ranking], [radius, 'score', formatScore(score)])) as Reply);
  return { center: null, entries, total };
}
