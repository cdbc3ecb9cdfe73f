import { badInput } from '../errors';
import { decodeMember } from './memberCodec';
import type { Entry, SortOrder } from './types';

/** Turns script replies (Buffers and integers) into Entries. */

export const direction = (sortOrder: SortOrder) => (sortOrder === 'DESCENDING' ? -1 : 1);

/** Stored scores are dir * score, as exact %.17g text; -0 and 0 are one score. */
export function toScore(dir: number, stored: string): number {
  const score = dir * Number(stored);
  return score === 0 ? 0 : score;
}

export function encodeCursor(stored: string, member: Buffer): string {
  return Buffer.concat([Buffer.from(`${stored}\n`), member]).toString('base64url');
}

export function decodeCursor(cursor: string): { stored: string; member: Buffer } {
  const raw = Buffer.from(cursor, 'base64url');
  const newline = raw.indexOf(10);
  const stored = newline > 0 ? raw.toString('latin1', 0, newline) : '';
  const member = raw.subarray(newline + 1);
  if (!/^-?[0-9.e+-]+$/i.test(stored) || Number.isNaN(Number(stored)) || member.length < 9) {
    throw badInput('after is not a cursor of this API', { field: 'after' });
  }
  return { stored, member };
}

/** Share of the board ranked at or below `rank`, in percent: 100 for the first, 100/N for the last. */
export const percentile = (rank: number, total: number) => (100 * (total - rank + 1)) / total;

export function makeEntry(
  dir: number,
  member: Buffer,
  stored: string,
  rank0: number,
  sharedRank: number,
  total: number,
): Entry {
  const { playerId, reachedAtMicros } = decodeMember(member);
  const rank = rank0 + 1;
  return {
    playerId,
    score: toScore(dir, stored),
    rank,
    sharedRank,
    reachedAtMicros,
    percentile: percentile(rank, total),
    total,
    cursor: encodeCursor(stored, member),
  };
}

/**
 * A run of consecutive entries from `start` (0-based, top-down): `pairs` is member, score,
 * member, score... and `firstShared` the shared rank of the first; equal neighbours share it.
 */
export function windowEntries(
  dir: number,
  start: number,
  firstShared: number,
  pairs: Buffer[],
  total: number,
): Entry[] {
  const entries: Entry[] = [];
  let shared = firstShared;
  for (let i = 0; i < pairs.length; i += 2) {
    const stored = pairs[i + 1].toString();
    const rank0 = start + i / 2;
    if (i > 0 && stored !== pairs[i - 1].toString()) shared = rank0 + 1;
    entries.push(makeEntry(dir, pairs[i], stored, rank0, shared, total));
  }
  return entries;
}
