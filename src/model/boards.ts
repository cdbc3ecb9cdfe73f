/** A board and its settings: what the store keeps and the domain checks. */
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
   * The periods the board keeps, as the domain's canonical text (src/domain/periods/settings.ts);
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
