import { badInput } from '../errors';
import { decodeMember } from './memberCodec';
import type { ScriptName } from './scripts';
import type { BoardConfig, Entry, EntryRead, PeriodSlot, SubmitResult } from '../model';

/**
 * The one place script replies are read: one decoder per script, each reading the fields of its
 * script's reply by the names REPLY_SHAPES gives them; and the entries and cursors they make.
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

function playerEntry<Shared extends number | undefined = number>(
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
function makeEntry(dir: number, member: Buffer, stored: string, rank0: number, sharedRank: number, total: number): Entry {
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
function shape<const N extends readonly string[]>(...names: N) {
  return { names, at: Object.fromEntries(names.map((name, i) => [name, i])) as Record<N[number], number> };
}

/**
 * Every script reply that has fields, by script, declared only here: `reply` is the reply
 * itself, other names the records of one of its fields. Each script's header lists the same
 * names in the same order (test/unit/store/scripts.test.ts checks); scripts not listed reply with
 * one integer.
 */
export const REPLY_SHAPES = {
  create_board: { reply: shape('created', 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'denseRanks', 'periods') },
  update_board: { reply: shape('changed', 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'denseRanks', 'periods') },
  add_seasons: { reply: shape('sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'denseRanks', 'periods') },
  submit: {
    reply: shape('sortOrder', 'results', 'replayed'),
    results: shape('member', 'stored', 'rank0', 'sharedRank', 'total', 'previous', 'previousRank0', 'changed', 'kind', 'key'),
  },
  entries: { reply: shape('sortOrder', 'total', 'players', 'version'), players: shape('member', 'stored', 'rank0', 'sharedRank') },
  page: { reply: shape('sortOrder', 'total', 'start', 'firstShared', 'hasMore', 'count', 'version', 'entries', 'rangeStart') },
  around: { reply: shape('sortOrder', 'total', 'start', 'firstShared', 'center', 'entries', 'version') },
  rate_limit: { reply: shape('count', 'resetInMs') },
} satisfies Partial<Record<ScriptName, Record<string, { names: readonly string[] }>>>;

/** Strings come as Buffers (members are binary), numbers as numbers, a Lua nil or false as null. */
type Reply = (Buffer | number | null | Reply)[];

const directionOf = (sortOrder: Buffer) => (sortOrder.toString() === 'DESCENDING' ? -1 : 1);

/** The board in a create_board, update_board or add_seasons reply, which name its settings alike. */
function boardOf(
  id: string, reply: Reply,
  at: Record<'sortOrder' | 'updatePolicy' | 'title' | 'createdAt' | 'buckets' | 'denseRanks' | 'periods', number>,
): BoardConfig {
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

export function createBoardReply(id: string, raw: unknown): { board: BoardConfig; created: boolean } {
  const at = REPLY_SHAPES.create_board.reply.at;
  return { created: (raw as Reply)[at.created] === 1, board: boardOf(id, raw as Reply, at) };
}

export function updateBoardReply(id: string, raw: unknown): { board: BoardConfig; changed: boolean } {
  const at = REPLY_SHAPES.update_board.reply.at;
  return { changed: (raw as Reply)[at.changed] === 1, board: boardOf(id, raw as Reply, at) };
}

export function addSeasonsReply(id: string, raw: unknown): BoardConfig {
  return boardOf(id, raw as Reply, REPLY_SHAPES.add_seasons.reply.at);
}

/** The deleted board's bucket count; undefined when there was no board. */
export function deleteBoardReply(raw: unknown): number | undefined {
  return (raw as number) < 0 ? undefined : (raw as number);
}

/**
 * The period a submit record's entry is on; undefined for ALL_TIME, and for a record an
 * idempotency key saved before records named their period (all of them were then ALL_TIME's
 * answers on boards keeping it).
 */
function periodOfRecord(kind: Buffer | undefined, key: Buffer | undefined): PeriodSlot | undefined {
  if (kind === undefined || key === undefined) return undefined;
  const name = kind.toString();
  return name === 'ALL_TIME' ? undefined : { kind: name, key: key.toString() };
}

export function submitReply(raw: unknown): SubmitResult[] {
  const reply = raw as Reply;
  const { reply: { at }, results: { at: field } } = REPLY_SHAPES.submit;
  const dir = directionOf(reply[at.sortOrder] as Buffer);
  const replayed = reply[at.replayed] as number[];
  return (reply[at.results] as Reply[]).map((result, i) => {
    const previous = (result[field.previous] as Buffer).toString();
    const previousRank0 = result[field.previousRank0] as number;
    return {
      entry: makeEntry(dir, result[field.member] as Buffer, (result[field.stored] as Buffer).toString(),
        result[field.rank0] as number, result[field.sharedRank] as number, result[field.total] as number),
      previousScore: previous === '' ? null : toScore(dir, previous),
      previousRank: previousRank0 < 0 ? null : previousRank0 + 1,
      changed: result[field.changed] === 1,
      replayed: replayed[i] === 1,
      period: periodOfRecord(result[field.kind] as Buffer | undefined, result[field.key] as Buffer | undefined),
    };
  });
}

/**
 * In the order asked; null for a player not on the board, and for every player of an unknown
 * board. `version`: the board's change counter at the read (0 for an unknown board). A shared
 * rank the read left out is undefined.
 */
export function entriesReply(raw: unknown, count: number): { entries: (EntryRead | null)[]; version: number } {
  const reply = raw as Reply;
  const { reply: { at }, players: { at: field, names } } = REPLY_SHAPES.entries;
  const entries = new Array<EntryRead | null>(count).fill(null);
  if (reply.length === 0) return { entries, version: 0 };
  const dir = directionOf(reply[at.sortOrder] as Buffer);
  const total = reply[at.total] as number;
  const players = reply[at.players] as Reply;
  for (let i = 0, base = 0; i < count; i++, base += names.length) {
    const member = players[base + field.member] as Buffer | null;
    if (member === null) continue;
    const stored = (players[base + field.stored] as Buffer).toString();
    const sharedRank = (players[base + field.sharedRank] as number | null) ?? undefined;
    entries[i] = playerEntry(dir, member, stored, players[base + field.rank0] as number, sharedRank, total);
  }
  return { entries, version: reply[at.version] as number };
}

/** What page and around replies share: `at` names the same fields in both. */
function windowOf(reply: Reply, at: Record<'sortOrder' | 'total' | 'start' | 'firstShared' | 'entries', number>) {
  if (reply.length === 0) return { entries: [], total: 0 };
  const total = reply[at.total] as number;
  const dir = directionOf(reply[at.sortOrder] as Buffer);
  const pairs = reply[at.entries] as Buffer[];
  return { entries: windowEntries(dir, reply[at.start] as number, reply[at.firstShared] as number, pairs, total), total };
}

/** Entries top-down; `count` is the top-percent size (0 unless asked). An unknown board reads as empty. */
export function pageReply(raw: unknown) {
  const reply = raw as Reply;
  const at = REPLY_SHAPES.page.reply.at;
  const { entries, total } = windowOf(reply, at);
  const count = (reply[at.count] as number | undefined) ?? 0;
  return {
    entries, total, hasMore: reply[at.hasMore] === 1, count,
    version: (reply[at.version] as number | undefined) ?? 0,
    rangeStart: (reply[at.rangeStart] as number | undefined) ?? 0,
  };
}

/** `center`: the player's 0-based rank; null when the player (or the board) was not found, and around a score. */
export function aroundReply(raw: unknown) {
  const reply = raw as Reply;
  const at = REPLY_SHAPES.around.reply.at;
  const { entries, total } = windowOf(reply, at);
  return { entries, total, center: (reply[at.center] as number | null | undefined) ?? null, version: (reply[at.version] as number | undefined) ?? 0 };
}

/** A score_at reply: the score, or null when there is none there (or no board). */
export function scoreAtReply(raw: unknown): number | null {
  return raw === null ? null : toScore(1, (raw as Buffer).toString());
}

/** A dense_rank reply: each score's dense rank; null for an unknown board or one without dense ranks. */
export function denseRankReply(raw: unknown, count: number): number[] | null {
  const ranks = raw as number[];
  return ranks.length === count ? ranks : null;
}

export interface WindowCount {
  /** Requests in the current window, this one included. */
  count: number;
  /** Until the window ends and the count starts again. */
  resetInMs: number;
}

export function rateLimitReply(raw: unknown): WindowCount {
  const reply = raw as Reply;
  const at = REPLY_SHAPES.rate_limit.reply.at;
  return { count: reply[at.count] as number, resetInMs: reply[at.resetInMs] as number };
}
