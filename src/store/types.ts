/** Public types of the Redis store: what the domain and GraphQL layers see. */

export type SortOrder = 'DESCENDING' | 'ASCENDING';
export type UpdatePolicy = 'BEST' | 'LATEST' | 'INCREMENT';

export interface BoardConfig {
  id: string;
  title: string | null;
  sortOrder: SortOrder;
  updatePolicy: UpdatePolicy;
  /** Milliseconds since the epoch, from Redis' clock. */
  createdAt: number;
  /** How many id -> token bucket hashes the board spreads its players over (fixed at creation). */
  buckets: number;
  /** Whether the board keeps its distinct scores, for dense ranks (fixed at creation). */
  denseRanks: boolean;
  /**
   * The periods the board keeps, as the domain's canonical text (src/domain/periods/config.ts);
   * '' for ALL_TIME only, as every board was before periods. Fixed at creation, but for seasons,
   * which can be added (add_seasons.lua).
   */
  periods: string;
}

export interface CreateBoardInput {
  id: string;
  title?: string | null;
  sortOrder: SortOrder;
  updatePolicy: UpdatePolicy;
  /** Expected number of players; sizes the bucket count. Default 1,000,000. */
  capacity?: number;
  /**
   * Keep the board's distinct scores for dense ranks (default true): about 110 bytes per distinct
   * score (BENCHMARKS.md, "Memory per member"), so a board whose scores are nearly all different may do without.
   */
  denseRanks?: boolean;
  /** The periods to keep, as BoardConfig.periods; '' or left out for ALL_TIME only. */
  periods?: string;
}

/** A board (its id), or one of its periods: what the reads take. A period that is no longer kept reads as empty. */
export type BoardRef = string | PeriodRef;

export interface PeriodRef {
  boardId: string;
  kind: string;
  key: string;
}

/** What the reads take: a board or one of its periods, or a combined view built by `buildView`. */
export type RankingRef = BoardRef | ViewRef;

export interface ViewRef {
  view: ViewSpec;
}

export const isViewRef = (board: RankingRef): board is ViewRef => typeof board !== 'string' && 'view' in board;

/** How a combined view puts its sources' scores together, as ZUNIONSTORE's AGGREGATE. */
export type Aggregate = 'SUM' | 'MAX' | 'MIN';

/** One ranking a combined view takes in: a board's period (ALL_TIME's key is `all`), its scores times `weight`. */
export interface ViewSource extends PeriodRef {
  weight: number;
}

/** A combined view, as checked by the domain: what `buildView` builds and its reads read. */
export interface ViewSpec {
  /** Names the view's keys: the same sources and aggregate always give the same id. */
  id: string;
  /** The one board every source is on (its keys then share that board's hash tag); undefined for several boards. */
  boardId?: string;
  aggregate: Aggregate;
  /** Every source's, and so the view's. */
  sortOrder: SortOrder;
  sources: ViewSource[];
}

/** One period of a board by name, as scripts' slots take it (ALL_TIME's key is `all`). */
export interface PeriodSlot {
  kind: string;
  key: string;
}

/**
 * The periods of a board a removal of players reaches, from the board's periods setting
 * (BoardConfig.periods) as the store last read it: the domain's calendar knows which are kept.
 * ALL_TIME, when kept, comes first.
 */
export type SlotLister = (periods: string) => PeriodSlot[];

export interface Entry {
  playerId: string;
  score: number;
  /** 1-based and unique: equal scores are ordered by who reached them first. */
  rank: number;
  /** Standard competition ranking (1, 2, 2, 4). */
  sharedRank: number;
  /** The moment the score was reached, in microseconds since the epoch (exact below 2^53). */
  reachedAtMicros: number;
  /** Share of the board ranked at or below this entry, in percent: 100 for rank 1, 100/N for the last. */
  percentile: number;
  /** Board size when this entry was read. */
  total: number;
  /** Opaque position of this entry in the board's order; `page({ cursor })` continues right after (or before) it. */
  cursor: string;
}

/**
 * An entry read by player rather than in a page: no cursor, which only pages hand out (their
 * edges), and which would cost a buffer and a base64 text per entry of a 100-player read.
 */
export type PlayerEntry = Omit<Entry, 'cursor'>;

/** Which of an entry's costlier fields a read by player fetches. */
export interface EntryFields {
  /** The shared rank: a count of the higher scores, in Redis two skiplist descents per player. */
  sharedRank: boolean;
}

export const ALL_ENTRY_FIELDS: EntryFields = { sharedRank: true };

/** An entry read by player, its shared rank undefined when the read's EntryFields left it out. */
export type EntryRead = Omit<PlayerEntry, 'sharedRank'> & { sharedRank: number | undefined };

export interface Submission {
  playerId: string;
  score: number;
  /** Trusted importers only: when the score was reached (µs since the epoch); not in the future. */
  reachedAtMicros?: number;
  /** Makes a retried submission return its first result instead of applying twice (kept 24 h). */
  idempotencyKey?: string;
}

/**
 * Which periods a submission call writes, planned by the domain from the board's periods
 * (BoardConfig.periods) and its calendar. Redis' clock has the last word: the script checks every
 * live moment it stamps against `windows` and asks for a new plan at its moment when one is out.
 */
export interface SubmitPlan {
  /** For each kept kind, the stretch around the planned moment in which its period (or none) holds; µs, to null = never. */
  windows: { from: number; to: number | null }[];
  /** The periods written: kind, key and when their keys expire (ms; null = never). ALL_TIME's keys are the board's own. */
  slots: { kind: string; key: string; expiresAtMs: number | null }[];
  /** For each submission, the indexes of the slots it lands in, the one its result describes first. */
  itemSlots: number[][];
}

/**
 * Plans a call for a board with these periods ('' = ALL_TIME only), its live windows taken at
 * `at` (µs; undefined: the planner's now).
 */
export type SubmitPlanner = (periods: string, at?: number) => SubmitPlan;

export interface SubmitResult {
  entry: Entry;
  previousScore: number | null;
  previousRank: number | null;
  /** False when the submission left the stored score as it was (same score, or not better under BEST). */
  changed: boolean;
  /** True when this is the stored result of an earlier submission with the same idempotency key. */
  replayed: boolean;
  /**
   * The period `entry` is on, when not ALL_TIME: a board that does not keep ALL_TIME answers
   * with the entry in its first kept kind's period.
   */
  period?: PeriodSlot;
}

export interface PageOptions {
  /** 1..1000 */
  limit: number;
  /** Skip this many entries from the end read from (ignored when `cursor` is given). */
  offset?: number;
  /**
   * An entry's place in the order (Entry.cursor): read right after it, or right before it when
   * `backward`, even if entries around it have moved.
   */
  cursor?: string;
  /** Read the entries that end at the bottom (or at `cursor`) instead of starting at the top; still top-down. */
  backward?: boolean;
}

export interface Page {
  entries: Entry[];
  total: number;
  /** True when at least one more entry follows in the direction read (precedes the page when backward). */
  hasMore: boolean;
  /** The board's change counter when read; board events carry the same counter. */
  version: number;
}

export interface RankWindow {
  /** The player the window is centred on; null for a window around a score. */
  center: Entry | null;
  entries: Entry[];
  total: number;
}

/** One end of a score range: scores equal to `value` are in it unless `exclusive`. */
export interface ScoreBound {
  value: number;
  exclusive?: boolean;
}

/** Scores between `min` and `max` (both in score terms, whatever the sort order); a missing bound is open. */
export interface ScoreRange {
  min?: ScoreBound;
  max?: ScoreBound;
}

export interface RangePage extends Page {
  /** Entries in the range, on the whole board. */
  count: number;
  /** 0-based rank of the range's first entry (where its entries would start when it is empty). */
  rangeStart: number;
}

/** Settings that can change without rebuilding a board; a field left out stays as it is. */
export interface BoardUpdate {
  id: string;
  /** null removes the title. */
  title?: string | null;
  updatePolicy?: UpdatePolicy;
  /** Cannot change: given, it must be the board's. */
  sortOrder?: SortOrder;
  /** Cannot change: given, it must make the board's bucket count. */
  capacity?: number;
  /** Cannot change: given, it must be the board's. */
  denseRanks?: boolean;
}

/**
 * What adding seasons did: the board with its new periods; or nothing, because its periods
 * changed since they were read (`periodsChanged`: read them again), or because a season added
 * starts at or before `latestMoment` (µs), the latest of Redis' now and the board's last moment.
 */
export type AddSeasonsResult = { board: BoardConfig } | { periodsChanged: true } | { latestMoment: number };
