/** Entries and what reads of them take and give: pages, windows, score ranges. */
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
