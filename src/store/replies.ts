import { badInput } from '../errors';
import type { BoardConfig, Entry } from '../model';
import { decodeMember } from './memberCodec';

/**
 * What the command modules' decoders share: reply shapes, the entries and cursors replies
 * make, and the fields that several scripts' replies name alike. Each script's own decoder is
 * in its module (./commands).
 */

/** Stored scores are dir * score, as exact %.17g text; -0 and 0 are one score. */
export function toScore(dir: number, stored: string): number {
  const score = dir * Number(stored);
  return score === 0 ? 0 : score;
}

export function encodeCursor(stored: string, member: Buffer): string {
  return Buffer.concat([Buffer.from(`${stored}\n`), member]).toString('base64url');
}

/** `field` names the argument the cursor came in (`after` or `before`) in the error. */
export function decodeCursor(cursor: string, field: string): { stored: string; member: Buffer } {
  const raw = Buffer.from(cursor, 'base64url');
  const newline = raw.indexOf(10);
  const stored = newline > 0 ? raw.toString('latin1', 0, newline) : '';
  const member = raw.subarray(newline + 1);
  if (!/^-?[0-9.e+-]+$/i.test(stored) || Number.isNaN(Number(stored)) || member.length < 9) {
    throw badInput(`${field} is not a cursor of this API`, { field });
  }
  return { stored, member };
}

/** Share of the board ranked at or below `rank`, in percent: 100 for the first, 100/N for the last. */
export const percentile = (rank: number, total: number) => (100 * (total - rank + 1)) / total;

export function playerEntry<Shared extends number | undefined = number>(
  dir: number,
  member: Buffer,
  stored: string,
  rank0: number,
  sharedRank: Shared,
  total: number,
) {
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
  };
}

/** An entry of a page or window, with its cursor. */
export function makeEntry(dir: number, member: Buffer, stored: string, rank0: number, sharedRank: number, total: number): Entry {
  return Object.assign(playerEntry(dir, member, stored, rank0, sharedRank, total), { cursor: encodeCursor(stored, member) });
}

/**
 * A run of consecutive entries from `start` (0-based, top-down): `pairs` is member, score,
 * member, score... and `firstShared` the shared rank of the first; equal neighbours share it.
 */
function windowEntries(dir: number, start: number, firstShared: number, pairs: Buffer[], total: number): Entry[] {
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

/**
 * A reply's fields, named in reply order. `at` gives each name's place, so a decoder reads
 * `reply[at.total]` and never a bare number; replies stay plain arrays on the wire, the cheapest
 * shape for Redis to build and for the client to parse.
 */
export function shape<const N extends readonly string[]>(...names: N) {
  return { names, at: Object.fromEntries(names.map((name, i) => [name, i])) as Record<N[number], number> };
}

/** Strings come as Buffers (members are binary), numbers as numbers, a Lua nil or false as null. */
export type Reply = (Buffer | number | null | Reply)[];

export const directionOf = (sortOrder: Buffer) => (sortOrder.toString() === 'DESCENDING' ? -1 : 1);

/** The settings of a board as the replies of create_board, update_board and add_seasons name them, in their order. */
export const BOARD_FIELDS = ['sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'denseRanks', 'periods'] as const;

/** The board in a create_board, update_board or add_seasons reply. */
export function boardOf(id: string, reply: Reply, at: Record<(typeof BOARD_FIELDS)[number], number>): BoardConfig {
  const title = reply[at.title] as Buffer | null;
  return {
    id,
    title: title === null ? null : title.toString(),
    sortOrder: (reply[at.sortOrder] as Buffer).toString() as BoardConfig['sortOrder'],
    updatePolicy: (reply[at.updatePolicy] as Buffer).toString() as BoardConfig['updatePolicy'],
    createdAt: reply[at.createdAt] as number,
    buckets: reply[at.buckets] as number,
    denseRanks: reply[at.denseRanks] === 1,
    periods: (reply[at.periods] as Buffer).toString(),
  };
}

/** What page and around replies share: `at` names the same fields in both. */
export function windowOf(reply: Reply, at: Record<'sortOrder' | 'total' | 'start' | 'firstShared' | 'entries', number>) {
  if (reply.length === 0) return { entries: [], total: 0 };
  const total = reply[at.total] as number;
  const dir = directionOf(reply[at.sortOrder] as Buffer);
  const pairs = reply[at.entries] as Buffer[];
  return { entries: windowEntries(dir, reply[at.start] as number, reply[at.firstShared] as number, pairs, total), total };
}
