import { createHash } from 'node:crypto';
import type { ScoreBound, ScoreRange } from '../../model';

/** How values go into the scripts' arguments, where several scripts take the same ones. */

/**
 * Bucket hashes stay compact (listpack) only below hash-max-listpack-entries, 128 by default.
 * At 96 players per bucket on average, a board at its capacity has almost no bucket past 128
 * (Poisson tail ~0.05%), and each bucket key's own overhead is shared by many players.
 */
const PLAYERS_PER_BUCKET = 96;

export function bucketCount(capacity: number): number {
  return Math.max(1, Math.ceil(capacity / PLAYERS_PER_BUCKET));
}

/** FNV-1a over the id's UTF-8 bytes: cheap, stable across processes and versions. */
export function bucketOf(playerId: string, buckets: number): number {
  // The bytes as char codes: an ASCII id (every valid one, see ID_PATTERN) is its own, with no buffer per id.
  const bytes = ASCII.test(playerId) ? playerId : Buffer.from(playerId, 'utf8').toString('latin1');
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes.charCodeAt(i), 0x01000193) >>> 0;
  return hash % buckets;
}

const ASCII = /^[\x00-\x7f]*$/;

/** Period configurations whose fingerprint is kept: boards share few, and every write sends one. */
const MAX_FINGERPRINTS = 1000;
const fingerprints = new Map<string, string>();

/** What a board's config keeps as 'pv' (create_board.lua: redis.sha1hex), so a script sees a plan made for other periods. */
export function periodsFingerprint(periods: string): string {
  if (periods === '') return '';
  let fingerprint = fingerprints.get(periods);
  if (fingerprint === undefined) {
    if (fingerprints.size >= MAX_FINGERPRINTS) fingerprints.clear();
    fingerprints.set(periods, (fingerprint = createHash('sha1').update(periods).digest('hex')));
  }
  return fingerprint;
}

/** JavaScript's shortest round-trip text: Lua's tonumber (strtod) reads back the same double. */
export function formatScore(score: number): string {
  return String(score);
}

/** An optional setting as create_board.lua and update_board.lua take it: '' when not given. */
export const flag = (value: boolean | undefined) => (value === undefined ? '' : value ? '1' : '0');

/** A score range as page.lua and remove_many.lua take it: each bound's score ('' when open) and '1' when exclusive. */
export function rangeArgs({ min, max }: ScoreRange): string[] {
  const bound = (b?: ScoreBound) => (b ? [formatScore(b.value), b.exclusive ? '1' : ''] : ['', '']);
  return [...bound(min), ...bound(max)];
}
