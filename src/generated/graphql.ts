import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { LeaderboardModel, PeriodModel, CombinedViewModel, CombinedSourceModel, EntryModel, RankWindowModel, TopUpdateModel, LeaderboardConnectionModel } from '../graphql/models';
import type { PlayerProfile } from '../store/playerStore';
import type { Context } from '../graphql/context';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * A moment as an RFC 3339 string in UTC with microseconds, e.g. `2026-11-30T03:11:31.123456Z`.
   * Input accepts up to six fractional digits and either `Z` or an offset such as `+02:00`.
   */
  DateTime: { input: number; output: number; }
};

/** Seasons to add to a board (see docs/time-windows.md). */
export type AddSeasonsInput = {
  /** The board's id. */
  leaderboardId: Scalars['ID']['input'];
  /**
   * How many seasons are kept, the current one included (1 to 400), when the board keeps no SEASON
   * periods yet; default 2. On a board that keeps them: left out, or the board's own.
   */
  retention?: InputMaybe<Scalars['Int']['input']>;
  /**
   * The seasons to add, at least one; a board names at most 1000 in all. None may overlap another
   * or a season of the board, and each must start after now (Redis' clock) and after the board's
   * last score. A season the board has already, with the same moments, is left as it is.
   */
  seasons: Array<SeasonInput>;
};

/** What `addSeasons` did. */
export type AddSeasonsPayload = {
  __typename?: 'AddSeasonsPayload';
  /** False when the board had every season already (a retried request), or nothing was added. */
  changed: Scalars['Boolean']['output'];
  /** The board with its seasons now; null when `userErrors` says why nothing was added. */
  leaderboard: Maybe<Leaderboard>;
  /**
   * Why nothing was added: BAD_USER_INPUT (an overlap, an end before its start, a season starting
   * before now, a bad id; `field` names it, e.g. `["input", "seasons", "1", "end"]`), CONFLICT (a
   * season's id the board has with other moments, or another `retention`) or NOT_FOUND. Empty otherwise.
   */
  userErrors: Array<UserError>;
};

/** How a combined view puts together a player's weighted scores from its sources, as Redis' ZUNIONSTORE AGGREGATE. */
export type Aggregate =
  /** The highest; equal values rank by the earliest moment at which the value was reached. */
  | 'MAX'
  /** The lowest; equal values rank by the earliest moment at which the value was reached. */
  | 'MIN'
  /** The sum; equal sums rank by the moment the total was complete (the player's latest moment among the sources), earlier first. */
  | 'SUM';

/** One ranking a combined view took in. */
export type CombinedSource = {
  __typename?: 'CombinedSource';
  /** The period, current or past, named by its key (its board is `period.leaderboard`). */
  period: Period;
  /** What its scores were multiplied by. */
  weight: Scalars['Float']['output'];
};

/** One ranking a combined view takes in: a board's period, its scores multiplied by `weight`. */
export type CombinedSourceInput = {
  /**
   * A rolling window: with `period: { kind }` alone, the latest `last` periods of that kind kept
   * now, the current one first, each a source with this weight (the last 7 days: `{ kind: DAILY }`,
   * `last: 7`). 1 to the kind's retention; the view's sources name them by key, so the same request
   * names the next periods once the current one ends (a view's id stays on the periods it named).
   */
  last?: InputMaybe<Scalars['Int']['input']>;
  /** The board's id. */
  leaderboardId: Scalars['ID']['input'];
  /** Which period of the board (as `Leaderboard.period(of:)`); left out: the board's default period. */
  period?: InputMaybe<PeriodInput>;
  /** What the source's scores are multiplied by: above 0 and at most 1000000. Default 1. */
  weight?: InputMaybe<Scalars['Float']['input']>;
};

/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedView = Node & Ranking & {
  __typename?: 'CombinedView';
  /** How scores were put together. */
  aggregate: Aggregate;
  /** The player and the `radius` entries on each side in the view, as `Leaderboard.around`. */
  around: Maybe<RankWindow>;
  /** Where `score` would rank in the view, as `Leaderboard.aroundScore`. */
  aroundScore: Maybe<RankWindow>;
  /** How many entries have a score between `min` and `max`, as `Leaderboard.countByScore`. */
  countByScore: Maybe<Scalars['Int']['output']>;
  /** A page of the view, paged as `Leaderboard.entries`. */
  entries: Maybe<EntryConnection>;
  /** A page of the entries whose score lies between `min` and `max`, as `Leaderboard.entriesByScore`. */
  entriesByScore: Maybe<EntryConnection>;
  /** The player's entry in the view, or null when the player has no score in any source. */
  entry: Maybe<Entry>;
  /** Opaque and stable: the same sources (board, kind, key, weight) and aggregate always give the same id, whatever their order. */
  id: Scalars['ID']['output'];
  /** The score at a percentile of the view, as `Leaderboard.scoreAtPercentile`. */
  scoreAtPercentile: Maybe<Scalars['Float']['output']>;
  /** The score of the entry ranked `rank`, as `Leaderboard.scoreAtRank`. */
  scoreAtRank: Maybe<Scalars['Float']['output']>;
  /** The rankings it takes in, in a fixed order (by board, kind and key), each named by its key. */
  sources: Array<CombinedSource>;
  /** The best `percent` of the view, at most `limit` of them; null, with an error, for a bad argument. */
  topPercent: Maybe<Array<Entry>>;
  /** Number of players with an entry in any source. */
  totalCount: Scalars['Int']['output'];
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewAroundArgs = {
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewAroundScoreArgs = {
  radius?: InputMaybe<Scalars['Int']['input']>;
  score: Scalars['Float']['input'];
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewCountByScoreArgs = {
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewEntriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewEntriesByScoreArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewEntryArgs = {
  playerId: Scalars['ID']['input'];
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewScoreAtPercentileArgs = {
  percent: Scalars['Float']['input'];
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewScoreAtRankArgs = {
  rank: Scalars['Int']['input'];
};


/**
 * Several rankings (periods of one board, or of several boards of one sort order) put together:
 * each player ranked by the aggregate of their weighted scores in the sources they have one in. A
 * snapshot built on its first read and read again for a short time (COMBINED_VIEW_TTL_MS), then
 * built again; every read of a board works on it. Its entries' `ranking` is the view, their
 * `leaderboard` the board of its first source (in `sources` order) and their `denseRank` null.
 */
export type CombinedViewTopPercentArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  percent: Scalars['Float']['input'];
};

/** The settings of a new board. */
export type CreateLeaderboardInput = {
  /** Expected number of players (sizes internal structures; default 1,000,000). */
  capacity?: InputMaybe<Scalars['Int']['input']>;
  /**
   * Whether the board keeps its distinct scores so that entries have a `denseRank` (default true).
   * Costs about 110 bytes per distinct score; fixed once the board exists (a different value for an
   * existing board is a CONFLICT).
   */
  denseRanks?: InputMaybe<Scalars['Boolean']['input']>;
  /** 1-128 characters of letters, digits and `-_.:`. */
  id: Scalars['ID']['input'];
  /**
   * The periods the board keeps (see docs/time-windows.md); left out: ALL_TIME only, as
   * every board before periods. Fixed at creation: re-creating with others is CONFLICT.
   */
  periods?: InputMaybe<PeriodsInput>;
  /** Which end of the board is rank 1. */
  sortOrder: SortOrder;
  /** A name to show: at most 200 characters of visible text on one line. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** How a new submission combines with a player's stored score. */
  updatePolicy: UpdatePolicy;
};

/** What `createLeaderboard` did. */
export type CreateLeaderboardPayload = {
  __typename?: 'CreateLeaderboardPayload';
  /** The board (also when it existed with the same settings); null when `userErrors` says why not. */
  leaderboard: Maybe<Leaderboard>;
  /** Why nothing was created: BAD_USER_INPUT or CONFLICT. Empty on success. */
  userErrors: Array<UserError>;
};

/** A board's custom recurring period: `every` units from `anchor` on. */
export type Cycle = {
  __typename?: 'Cycle';
  /** When the first cycle starts; there is none before it. */
  anchor: Scalars['DateTime']['output'];
  /** The cycle's length in `unit`. */
  every: Scalars['Int']['output'];
  /** The unit of `every`. */
  unit: CycleUnit;
};

/** A custom cycle's length: exactly one of the three. */
export type CycleLengthInput = {
  /** 1 to 366. */
  days?: InputMaybe<Scalars['Int']['input']>;
  /** 1 to 8784. */
  hours?: InputMaybe<Scalars['Int']['input']>;
  /** 1 to 527040 (a year and a day). */
  minutes?: InputMaybe<Scalars['Int']['input']>;
};

/** The unit a custom cycle's length is counted in. */
export type CycleUnit =
  /** Days of the board's time zone: a cycle runs from local midnight to local midnight, 23 or 25 hours a day over DST. */
  | 'DAYS'
  /** Hours of absolute time: a DST change moves neither the cycle's bounds nor its length. */
  | 'HOURS'
  /** Minutes of absolute time. */
  | 'MINUTES';

/** What `deleteLeaderboard` did. */
export type DeleteLeaderboardPayload = {
  __typename?: 'DeleteLeaderboardPayload';
  /** True when the board was deleted; false when it did not exist, or when `userErrors` says why not. */
  deleted: Scalars['Boolean']['output'];
  /** Why nothing was deleted: BAD_USER_INPUT. Empty otherwise. */
  userErrors: Array<UserError>;
};

/** What `deletePlayer` did. */
export type DeletePlayerPayload = {
  __typename?: 'DeletePlayerPayload';
  /** True when the profile was deleted; false when the player had none, or when `userErrors` says why not. */
  deleted: Scalars['Boolean']['output'];
  /** Why nothing was deleted: BAD_USER_INPUT. Empty otherwise. */
  userErrors: Array<UserError>;
};

/** A player's standing on one board. Its id stands for the board and the player, whatever the score. */
export type Entry = Node & {
  __typename?: 'Entry';
  /**
   * Dense ranking: equal scores share a rank and the next score takes the next one (1, 2, 2, 3).
   * Read when the field is resolved (with the other `denseRank`s of the same board in the
   * request, in one call). Null on a board created without dense ranks (see `Leaderboard.denseRanks`).
   */
  denseRank: Maybe<Scalars['Int']['output']>;
  /** Opaque and stable: the same board and player always give the same id. */
  id: Scalars['ID']['output'];
  /** The board this entry is on (read as itself, on its default period, whichever period the entry was read on). */
  leaderboard: Leaderboard;
  /** Share of the board ranked at or below this entry, in percent: 100 for rank 1. */
  percentile: Scalars['Float']['output'];
  /** The player's profile; only `id` is set when the player has none. */
  player: Player;
  /** The player's id (as given to `submitScore`). */
  playerId: Scalars['ID']['output'];
  /** 1-based and unique: equal scores are ordered by who reached them first. */
  rank: Scalars['Int']['output'];
  /**
   * The ranking this entry's `rank` is in: the board's `Period` the entry was read on, the
   * `Leaderboard` itself for an ALL_TIME entry, or the `CombinedView` it was read on.
   */
  ranking: Ranking;
  /** When the player reached this score. */
  reachedAt: Scalars['DateTime']['output'];
  /** The stored score. */
  score: Scalars['Float']['output'];
  /** Standard competition ranking: equal scores share a rank (1, 2, 2, 4). */
  sharedRank: Scalars['Int']['output'];
};

/** A page of a board's ranking. */
export type EntryConnection = {
  __typename?: 'EntryConnection';
  /** The page's entries with their cursors, top-down. */
  edges: Array<EntryEdge>;
  /** The page's entries, top-down (the edges' nodes). */
  nodes: Array<Entry>;
  /** Whether more entries precede or follow this page, and the cursors of its ends. */
  pageInfo: PageInfo;
  /** Number of ranked players on the board. */
  totalCount: Scalars['Int']['output'];
};

/** An entry of a page and where it stands in the order. */
export type EntryEdge = {
  __typename?: 'EntryEdge';
  /** Names this entry's place in the order (score, moment, player): pass it as `after` or `before`. */
  cursor: Scalars['String']['output'];
  /** The entry. */
  node: Entry;
};

/** An accepted change of a player's score, as `entrySubmitted` sends it. */
export type EntrySubmitted = {
  __typename?: 'EntrySubmitted';
  /** The player's entry after the change. */
  entry: Entry;
  /** The player's rank before the change; null when the player had none. */
  previousRank: Maybe<Scalars['Int']['output']>;
  /** The player's score before the change; null when the player had none. */
  previousScore: Maybe<Scalars['Float']['output']>;
};

/** Which entries `keepTopEntries` keeps: the first `count`; every entry ranked below them is removed. */
export type KeepTopEntriesInput = {
  /** How many entries stay, from rank 1; 0 or more. */
  count: Scalars['Int']['input'];
  /** The board's id. */
  leaderboardId: Scalars['ID']['input'];
  /** The period kept from; the board's default period when left out (as `Leaderboard.period`). */
  period?: InputMaybe<PeriodInput>;
};

/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type Leaderboard = Ranking & {
  __typename?: 'Leaderboard';
  /**
   * The player and the `radius` entries on each side, filled out from the other side near either
   * end of the board: always `2 * radius + 1` entries while the board holds that many (radius 2
   * around the last player gives the four entries above it). Null when the player has no score
   * (and, with an error, for a bad argument).
   */
  around: Maybe<RankWindow>;
  /**
   * Where `score` would rank if submitted now (after existing equal scores): up to `radius` entries
   * above that place and `radius` from it down, filled out from the other side near either end
   * (`2 * radius` entries while the board holds that many); `center` is null.
   */
  aroundScore: Maybe<RankWindow>;
  /**
   * How many entries have a score between `min` and `max` (bounds as in `entriesByScore`),
   * counted by Redis without reading them. Null, with an error, for a bad argument.
   */
  countByScore: Maybe<Scalars['Int']['output']>;
  /** When the board was created (Redis' clock). */
  createdAt: Scalars['DateTime']['output'];
  /** The board's custom cycle (its CYCLE periods); null on a board that keeps none. */
  cycle: Maybe<Cycle>;
  /**
   * Whether the board keeps its distinct scores, so that its entries have a `denseRank` (set when
   * the board is created, default true; about 110 bytes per distinct score).
   */
  denseRanks: Scalars['Boolean']['output'];
  /**
   * A page of the ranking, top-down (Cursor Connections specification). `first` reads from the
   * top, or right after the `after` cursor's entry even when ranks moved since; `last` reads from
   * the bottom, or right before the `before` cursor's entry. `offset` skips that many entries from
   * the end read from, and is ignored with a cursor. Null, with an error, for a bad argument
   * (an unreadable cursor, a page size out of range), so that the rest of the board still answers.
   */
  entries: Maybe<EntryConnection>;
  /**
   * A page of the entries whose score lies between `min` and `max` (each left out or null for an
   * open end; `min` above `max` is BAD_USER_INPUT), top-down and with their ranks on the whole
   * board, paged as `entries` within the range: `first` reads from the range's top or right after
   * the `after` cursor's entry, `last` from the range's bottom or right before the `before`
   * cursor's entry (cursors of this range or of `entries`), `offset` skips entries of the range
   * from the end read from and is ignored with a cursor. `pageInfo` tells whether more entries of
   * the range precede or follow; `totalCount` is the board's size (`countByScore` counts the
   * range). Null, with an error, for a bad argument.
   */
  entriesByScore: Maybe<EntryConnection>;
  /** The player's entry, or null when the player has no score on this board. */
  entry: Maybe<Entry>;
  /** The id given to `createLeaderboard`. */
  id: Scalars['ID']['output'];
  /**
   * The next season to start: the first of the board's seasons whose start is still to come (its
   * reads are empty until then). Null when none is planned, or on a board that keeps no SEASON.
   */
  nextSeason: Maybe<Period>;
  /**
   * One period of the board, an object of its own with every read of the board on that period.
   * Without `of`: the default period, the one the board's own reads are about (ALL_TIME, or on a
   * board that does not keep ALL_TIME, the current period of its first kind). Null without an error
   * for the current SEASON (`of: { kind: SEASON }`) between two seasons, before the first or after
   * the last: no season is running (`nextSeason` says which comes). Null, with an error, for a kind
   * the board does not keep or a key that names no period (BAD_USER_INPUT), for a moment (`at`) no
   * season holds and for a period no longer kept (NOT_FOUND).
   */
  period: Maybe<Period>;
  /**
   * The periods kept now, each kind in the board's order, newest first; only those of `kind` when
   * given. They start at the board's creation: a period that ended before the board was created is
   * listed only when it holds entries (imported with moments of their own).
   */
  periods: Array<Period>;
  /**
   * The score at a percentile of the board, from the last rank (0) to the first (100),
   * interpolated linearly between the two closest ranks as numpy's default and Excel's
   * PERCENTILE.INC do: with the n scores ordered from the last rank up as v[0..n-1],
   * h = (n - 1) * percent / 100 and the score is v[floor(h)] + (h - floor(h)) * (v[floor(h) + 1] - v[floor(h)]).
   * So `scoreAtPercentile(percent: 90)` is the score that enters the top 10%. Null on an empty
   * board (and, with an error, for a bad argument).
   */
  scoreAtPercentile: Maybe<Scalars['Float']['output']>;
  /**
   * The score of the entry ranked `rank` now: what it takes to reach that rank, since an equal
   * score reached later ranks after it. Null when the board has fewer entries (and, with an error,
   * for a bad argument).
   */
  scoreAtRank: Maybe<Scalars['Float']['output']>;
  /** Which end of the board is rank 1. */
  sortOrder: SortOrder;
  /** The IANA time zone in which the board's days, weeks and months begin. */
  timeZone: Scalars['String']['output'];
  /** A name to show; null when none was given. */
  title: Maybe<Scalars['String']['output']>;
  /** The best `percent` of the board, at most `limit` of them; null, with an error, for a bad argument. */
  topPercent: Maybe<Array<Entry>>;
  /** Number of ranked players (in its default period, `period`). */
  totalCount: Scalars['Int']['output'];
  /** How a new submission combines with a player's stored score. */
  updatePolicy: UpdatePolicy;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardAroundArgs = {
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardAroundScoreArgs = {
  radius?: InputMaybe<Scalars['Int']['input']>;
  score: Scalars['Float']['input'];
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardCountByScoreArgs = {
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardEntriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardEntriesByScoreArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardEntryArgs = {
  playerId: Scalars['ID']['input'];
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardPeriodArgs = {
  of?: InputMaybe<PeriodInput>;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardPeriodsArgs = {
  kind?: InputMaybe<PeriodKind>;
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardScoreAtPercentileArgs = {
  percent: Scalars['Float']['input'];
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardScoreAtRankArgs = {
  rank: Scalars['Int']['input'];
};


/**
 * A ranking of players by score. Its `id` is the one it was created with (not a `Node` id): read
 * it again with `leaderboard(id:)`.
 */
export type LeaderboardTopPercentArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  percent: Scalars['Float']['input'];
};

/** A page of boards in id order. */
export type LeaderboardConnection = {
  __typename?: 'LeaderboardConnection';
  /** The page's boards with their cursors. */
  edges: Array<LeaderboardEdge>;
  /** The page's boards (the edges' nodes). */
  nodes: Array<Leaderboard>;
  /** Whether more boards precede or follow this page, and the cursors of its ends. */
  pageInfo: PageInfo;
  /** Number of boards. */
  totalCount: Scalars['Int']['output'];
};

/** A board of a page of boards and where it stands in the id order. */
export type LeaderboardEdge = {
  __typename?: 'LeaderboardEdge';
  /** Pass it as `after` to continue after this board. */
  cursor: Scalars['String']['output'];
  /** The board. */
  node: Leaderboard;
};

/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Adds seasons to a board, which starts keeping SEASON periods if it did not. Atomic with
   * submissions: one whose moment lies in a new season lands in it. Seasons the new ones push out
   * of retention expire by themselves. Adding what the board has is a no-op, so retrying is safe. Admin.
   */
  addSeasons: Maybe<AddSeasonsPayload>;
  /** Creates a board; repeating it with the same settings returns the board, different settings are a CONFLICT. */
  createLeaderboard: Maybe<CreateLeaderboardPayload>;
  /** Deletes the board and all its entries. */
  deleteLeaderboard: Maybe<DeleteLeaderboardPayload>;
  /** Deletes the player's profile, after which `player(id:)` is null; entries on boards stay. */
  deletePlayer: Maybe<DeletePlayerPayload>;
  /**
   * Keeps the first `count` entries of one period (`input.period`, default the board's default
   * period) and removes every one ranked below them, in one atomic step, and tells live
   * subscribers. More than 1000 to remove is BAD_USER_INPUT and removes nothing. Admin.
   */
  keepTopEntries: Maybe<RemoveEntriesPayload>;
  /**
   * Removes these players' entries from every period the board keeps (current and past), in one
   * atomic step, and tells live subscribers. More than 1000 ids is BAD_USER_INPUT and removes
   * nothing. Admin.
   */
  removeEntries: Maybe<RemoveEntriesPayload>;
  /**
   * Removes every entry of one period (`input.period`, default the board's default period) whose
   * score lies in the range, in one atomic step, and tells live subscribers. More than 1000 entries
   * in the range is BAD_USER_INPUT and removes nothing. Admin.
   */
  removeEntriesByScore: Maybe<RemoveEntriesPayload>;
  /** Removes the player's entries from the board: from every period it keeps, current and past, in one atomic step. */
  removeEntry: Maybe<RemoveEntryPayload>;
  /** Submits one score. */
  submitScore: Maybe<SubmitScorePayload>;
  /**
   * Up to 1000 submissions for any players and boards. Every item is checked first: one invalid
   * item writes nothing and its `userErrors` entry names it. Items for one board apply atomically
   * and in order.
   */
  submitScores: Maybe<SubmitScoresPayload>;
  /** Changes a board's title or update policy; entries stay as they are. Admin. */
  updateLeaderboard: Maybe<UpdateLeaderboardPayload>;
  /** Stores the player's profile, replacing the previous one (fields left out become null). */
  upsertPlayer: Maybe<UpsertPlayerPayload>;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationAddSeasonsArgs = {
  input: AddSeasonsInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationCreateLeaderboardArgs = {
  input: CreateLeaderboardInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationDeleteLeaderboardArgs = {
  id: Scalars['ID']['input'];
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationDeletePlayerArgs = {
  id: Scalars['ID']['input'];
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationKeepTopEntriesArgs = {
  input: KeepTopEntriesInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationRemoveEntriesArgs = {
  input: RemoveEntriesInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationRemoveEntriesByScoreArgs = {
  input: RemoveEntriesByScoreInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationRemoveEntryArgs = {
  leaderboardId: Scalars['ID']['input'];
  playerId: Scalars['ID']['input'];
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationSubmitScoreArgs = {
  input: SubmitScoreInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationSubmitScoresArgs = {
  inputs: Array<SubmitScoreInput>;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationUpdateLeaderboardArgs = {
  input: UpdateLeaderboardInput;
};


/**
 * Writes. Every field is nullable and answers a payload: an expected failure (an unknown board, a
 * CONFLICT, a bad value) is in the payload's `userErrors`, and the other fields of the request keep
 * their results. Failures of the service or of the key are GraphQL errors on that field alone;
 * `extensions.outcome` then says whether anything was written (NOT_APPLIED or UNKNOWN).
 */
export type MutationUpsertPlayerArgs = {
  input: UpsertPlayerInput;
};

/**
 * An object with an opaque, stable id that `Query.node` and `Query.nodes` fetch again: the same
 * object has the same id in every response. Boards and players are not nodes: their ids are the
 * ones callers chose; fetch them again with `leaderboard(id:)` and `player(id:)`.
 */
export type Node = {
  /** Opaque; pass it to `node(id:)` to read the object again. */
  id: Scalars['ID']['output'];
};

/** Paging state of a connection (Cursor Connections specification). Cursors are opaque. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The cursor of the page's last edge; pass it as `after` to read the page below. Null on an empty page. */
  endCursor: Maybe<Scalars['String']['output']>;
  /** With `first`: whether entries follow this page. With `last`: whether entries follow the `before` cursor's entry. */
  hasNextPage: Scalars['Boolean']['output'];
  /** With `last`: whether entries precede this page. With `first`: whether entries precede the page's first entry. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The cursor of the page's first edge; pass it as `before` to read the page above. Null on an empty page. */
  startCursor: Maybe<Scalars['String']['output']>;
};

/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type Period = Node & Ranking & {
  __typename?: 'Period';
  /** The player and the `radius` entries on each side in this period, as `Leaderboard.around`. */
  around: Maybe<RankWindow>;
  /** Where `score` would rank in this period if submitted now, as `Leaderboard.aroundScore`. */
  aroundScore: Maybe<RankWindow>;
  /** How many of the period's entries have a score between `min` and `max`, as `Leaderboard.countByScore`. */
  countByScore: Maybe<Scalars['Int']['output']>;
  /** The moment right after the period; null for ALL_TIME. */
  end: Maybe<Scalars['DateTime']['output']>;
  /** A page of this period's ranking, paged as `Leaderboard.entries`. */
  entries: Maybe<EntryConnection>;
  /** A page of the period's entries whose score lies between `min` and `max`, as `Leaderboard.entriesByScore`. */
  entriesByScore: Maybe<EntryConnection>;
  /** The player's entry in this period, or null when the player has no score in it. */
  entry: Maybe<Entry>;
  /** When the period stops being kept and its entries are gone; null while nothing ends it. */
  expiresAt: Maybe<Scalars['DateTime']['output']>;
  /** Opaque and stable: the same board, kind and key always give the same id. */
  id: Scalars['ID']['output'];
  /** Stable and unique per kind: `2026-12-01T14`, `2026-12-01`, `2026-W49`, `2026-12`, `2026`, a season's id, a cycle's (`2026-12-01T14:00Z`), or `all`. */
  key: Scalars['String']['output'];
  /** The kind of period. */
  kind: PeriodKind;
  /** The board this period is of. */
  leaderboard: Leaderboard;
  /** The score at a percentile of the period, as `Leaderboard.scoreAtPercentile`. */
  scoreAtPercentile: Maybe<Scalars['Float']['output']>;
  /** The score of the period's entry ranked `rank` now, as `Leaderboard.scoreAtRank`. */
  scoreAtRank: Maybe<Scalars['Float']['output']>;
  /** The period's first moment. */
  start: Scalars['DateTime']['output'];
  /** The best `percent` of this period, at most `limit` of them; null, with an error, for a bad argument. */
  topPercent: Maybe<Array<Entry>>;
  /** Number of ranked players in this period. */
  totalCount: Scalars['Int']['output'];
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodAroundArgs = {
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodAroundScoreArgs = {
  radius?: InputMaybe<Scalars['Int']['input']>;
  score: Scalars['Float']['input'];
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodCountByScoreArgs = {
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodEntriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodEntriesByScoreArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodEntryArgs = {
  playerId: Scalars['ID']['input'];
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodScoreAtPercentileArgs = {
  percent: Scalars['Float']['input'];
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodScoreAtRankArgs = {
  rank: Scalars['Int']['input'];
};


/**
 * One period of a board: every moment from `start` to `end` (exclusive), in the board's time zone,
 * with every read of the board on that period. An object of its own (a Node), so that client caches
 * keep two periods of a board apart.
 */
export type PeriodTopPercentArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  percent: Scalars['Float']['input'];
};

/** A period of a board, as a read names it: its kind and a moment in it, or its key; neither: the current one. */
export type PeriodInput = {
  /** A moment the period holds. */
  at?: InputMaybe<Scalars['DateTime']['input']>;
  /** The period's key: `2026-12-01T14`, `2026-12-01`, `2026-W49`, `2026-12`, `2026`, a season's id, a cycle's (`2026-12-01T14:00Z`), or `all`. */
  key?: InputMaybe<Scalars['String']['input']>;
  /** The kind of period. */
  kind: PeriodKind;
};

/** A kind of period a board can keep. */
export type PeriodKind =
  /** Every score since the board was created; never ends. */
  | 'ALL_TIME'
  /**
   * The board's custom cycle: every N minutes, hours or days from an anchor (see `Cycle`). Keys:
   * the cycle's start in UTC to the minute (`2026-12-01T14:00Z`) for minutes and hours, its first
   * local date (`2026-12-01`) for days. Before the anchor there is no cycle: the current one is
   * null, as the current season between seasons.
   */
  | 'CYCLE'
  /** A calendar day in the board's time zone (key `2026-12-01`); days of 23 or 25 hours are one period each. */
  | 'DAILY'
  /**
   * An hour of the board's time zone's clock (key `2026-12-01T14`, the local date and hour). An hour
   * the clocks skip is no period; one they repeat is one period of two hours (90 minutes where
   * clocks move by half an hour), as a DST day is one DAILY period of 23 or 25 hours.
   */
  | 'HOURLY'
  /** A calendar month in the board's time zone (key `2026-12`). */
  | 'MONTHLY'
  /** One of the board's named seasons (key: its id). */
  | 'SEASON'
  /** An ISO week, Monday first, in the board's time zone (key `2026-W49`). */
  | 'WEEKLY'
  /** A calendar year in the board's time zone, from January 1 (key `2026`). */
  | 'YEARLY';

/** A period kind a board keeps, and for how many periods. */
export type PeriodKindInput = {
  /**
   * CYCLE only (and needed there): when the first cycle starts, a whole minute; for a cycle in days,
   * a local midnight of the board's time zone.
   */
  anchor?: InputMaybe<Scalars['DateTime']['input']>;
  /** CYCLE only (and needed there): the cycle's length. */
  every?: InputMaybe<CycleLengthInput>;
  /** The kind kept. */
  kind: PeriodKind;
  /**
   * How many periods of this kind are kept, the current one included, 1 to 400; older ones expire
   * in Redis by themselves. Default: HOURLY 48, DAILY 8, WEEKLY 5, MONTHLY 13, YEARLY 3, SEASON 2, CYCLE 10. Not for ALL_TIME.
   */
  retention?: InputMaybe<Scalars['Int']['input']>;
};

/** The periods of a new board. */
export type PeriodsInput = {
  /** The kinds kept, each once; default ALL_TIME only. */
  kinds?: InputMaybe<Array<PeriodKindInput>>;
  /** Seasons, none overlapping; they need SEASON among `kinds`. */
  seasons?: InputMaybe<Array<SeasonInput>>;
  /** An IANA time zone such as `Asia/Tokyo`, in which days, weeks and months begin; default UTC. */
  timeZone?: InputMaybe<Scalars['String']['input']>;
};

/**
 * A player's public profile. Fields other than `id` are null until the player has a profile. Its
 * `id` is the player's own (not a `Node` id): read it again with `player(id:)`.
 */
export type Player = {
  __typename?: 'Player';
  /** An http(s) URL of the player's picture. */
  avatarUrl: Maybe<Scalars['String']['output']>;
  /** ISO 3166-1 alpha-2 country code, e.g. `SE`. */
  country: Maybe<Scalars['String']['output']>;
  /** The name to show. */
  displayName: Maybe<Scalars['String']['output']>;
  /** The player's id, as used on every board. */
  id: Scalars['ID']['output'];
};

/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type Query = {
  __typename?: 'Query';
  /**
   * A combined view of 1 to 16 rankings (docs/time-windows.md, "Combined views"). Null, with an
   * error naming the field, for no source or more than 16, a source named twice, a weight out of
   * range, boards of different sort orders, a period kind a board does not keep, or a combined
   * score outside |score| <= 2^53 - 1 (BAD_USER_INPUT), and for an unknown board or a period no
   * longer kept (NOT_FOUND).
   */
  combined: Maybe<CombinedView>;
  /** Entries of many players on one board, in the order asked; null for players without a score. */
  entries: Maybe<Array<Maybe<Entry>>>;
  /**
   * The board with this id; null when there is none. Its reads are on its default period; read
   * another period with `period(of:)`.
   */
  leaderboard: Maybe<Leaderboard>;
  /** Boards in id order. */
  leaderboards: Maybe<LeaderboardConnection>;
  /** The object with this id, or null when there is none (also for an id that is not one of ours). */
  node: Maybe<Node>;
  /** The objects with these ids, in the order asked; null for each id `node` would answer null for. */
  nodes: Array<Maybe<Node>>;
  /** The player's profile; null when the player has none. */
  player: Maybe<Player>;
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryCombinedArgs = {
  aggregate?: InputMaybe<Aggregate>;
  sources: Array<CombinedSourceInput>;
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryEntriesArgs = {
  leaderboardId: Scalars['ID']['input'];
  period?: InputMaybe<PeriodInput>;
  playerIds: Array<Scalars['ID']['input']>;
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryLeaderboardArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryLeaderboardsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryNodesArgs = {
  ids: Array<Scalars['ID']['input']>;
};


/** Reads. Arguments out of range null only the field that has them, with an error naming the argument. */
export type QueryPlayerArgs = {
  id: Scalars['ID']['input'];
};

/**
 * An update of one player's standing. `previousRank` and `previousScore` are the values of the
 * subscription's previous update (null in a snapshot), so a client that skipped coalesced updates
 * still sees where the player came from.
 */
export type RankChange = {
  __typename?: 'RankChange';
  /** Why the update was sent. */
  cause: RankChangeCause;
  /** The player's entry now; null when the player has no score (never had one, was removed, or the board was deleted). */
  entry: Maybe<Entry>;
  /** The player's rank in the subscription's previous update; null in a snapshot or when the player had no score. */
  previousRank: Maybe<Scalars['Int']['output']>;
  /** The player's score in the subscription's previous update; null in a snapshot or when the player had no score. */
  previousScore: Maybe<Scalars['Float']['output']>;
};

/** Why a `rankChanged` update was sent. */
export type RankChangeCause =
  /** The board was deleted; the subscription then ends. */
  | 'DELETED'
  /** Other players' changes moved the player. */
  | 'RANK'
  /** The player was removed from the board. */
  | 'REMOVED'
  /** The player's own score changed. */
  | 'SCORE'
  /** The current state: the first update, and again after the server reconnected to Redis. */
  | 'SNAPSHOT';

/**
 * A run of consecutive entries around a player or a score. Its id stands for the board and the
 * arguments (player or score, radius), so `around` and `aroundChanged` with the same arguments give
 * the same id.
 */
export type RankWindow = Node & {
  __typename?: 'RankWindow';
  /** The entry of the player the window is around; null for a window around a score. */
  center: Maybe<Entry>;
  /** The entries of the window, top-down. */
  entries: Array<Entry>;
  /** Opaque and stable for the board and the window's arguments. */
  id: Scalars['ID']['output'];
  /** Number of ranked players when the window was read. */
  totalCount: Scalars['Int']['output'];
};

/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type Ranking = {
  /** The player and the `radius` entries on each side, as `Leaderboard.around`. */
  around: Maybe<RankWindow>;
  /** Where `score` would rank if submitted now, as `Leaderboard.aroundScore`. */
  aroundScore: Maybe<RankWindow>;
  /** How many entries have a score between `min` and `max`, as `Leaderboard.countByScore`. */
  countByScore: Maybe<Scalars['Int']['output']>;
  /** A page of the ranking, top-down (Cursor Connections specification), as `Leaderboard.entries`. */
  entries: Maybe<EntryConnection>;
  /** A page of the entries whose score lies between `min` and `max`, as `Leaderboard.entriesByScore`. */
  entriesByScore: Maybe<EntryConnection>;
  /** The player's entry, or null when the player has no score here. */
  entry: Maybe<Entry>;
  /** The score at a percentile of the ranking, as `Leaderboard.scoreAtPercentile`. */
  scoreAtPercentile: Maybe<Scalars['Float']['output']>;
  /** The score of the entry ranked `rank` now, as `Leaderboard.scoreAtRank`. */
  scoreAtRank: Maybe<Scalars['Float']['output']>;
  /** The best `percent` of the ranking, at most `limit` of them; null, with an error, for a bad argument. */
  topPercent: Maybe<Array<Entry>>;
  /** Number of ranked players. */
  totalCount: Scalars['Int']['output'];
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingAroundArgs = {
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingAroundScoreArgs = {
  radius?: InputMaybe<Scalars['Int']['input']>;
  score: Scalars['Float']['input'];
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingCountByScoreArgs = {
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingEntriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingEntriesByScoreArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  max?: InputMaybe<ScoreBound>;
  min?: InputMaybe<ScoreBound>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingEntryArgs = {
  playerId: Scalars['ID']['input'];
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingScoreAtPercentileArgs = {
  percent: Scalars['Float']['input'];
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingScoreAtRankArgs = {
  rank: Scalars['Int']['input'];
};


/**
 * The reads every ranking offers, whatever it is: a board (on its default period), one period of a
 * board, or a combined view of several. A client can write one fragment on `Ranking` and use it on
 * each.
 */
export type RankingTopPercentArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  percent: Scalars['Float']['input'];
};

/** Which entries `removeEntriesByScore` removes: those whose score lies between `min` and `max`. */
export type RemoveEntriesByScoreInput = {
  /** The board's id. */
  leaderboardId: Scalars['ID']['input'];
  /** The highest score removed; open when left out. */
  max?: InputMaybe<ScoreBound>;
  /** The lowest score removed; open when left out (bounds as in `Leaderboard.entriesByScore`). */
  min?: InputMaybe<ScoreBound>;
  /** The period removed from; the board's default period when left out (as `Leaderboard.period`). */
  period?: InputMaybe<PeriodInput>;
};

/** Which entries `removeEntries` removes: these players'. */
export type RemoveEntriesInput = {
  /** The board's id. */
  leaderboardId: Scalars['ID']['input'];
  /** The players' ids, at most 1000; ids without an entry are skipped. */
  playerIds: Array<Scalars['ID']['input']>;
};

/** What a bulk removal (`removeEntriesByScore`, `keepTopEntries`, `removeEntries`) did. */
export type RemoveEntriesPayload = {
  __typename?: 'RemoveEntriesPayload';
  /**
   * How many entries were removed (by `removeEntries`: how many players, whatever number of periods
   * held each); 0 when `userErrors` says why nothing was.
   */
  removedCount: Scalars['Int']['output'];
  /**
   * Why nothing was removed: BAD_USER_INPUT (a bad argument, a period kind the board does not keep,
   * or more than 1000 entries would go: narrow the call and repeat; `field` then names `min`,
   * `count` or `playerIds`) or NOT_FOUND (no such board, or a period no longer kept). Empty otherwise.
   */
  userErrors: Array<UserError>;
};

/** What `removeEntry` did. */
export type RemoveEntryPayload = {
  __typename?: 'RemoveEntryPayload';
  /** True when an entry of the player was removed (from any period); false when there was none, or when `userErrors` says why not. */
  removed: Scalars['Boolean']['output'];
  /** Why nothing was removed: BAD_USER_INPUT or NOT_FOUND (no such board). Empty otherwise. */
  userErrors: Array<UserError>;
};

/**
 * One end of a score range, in scores as submitted whatever the board's sort order: `min` is the
 * lowest score in the range and `max` the highest.
 */
export type ScoreBound = {
  /** When true, entries with exactly this score are outside the range; by default they are in it. */
  exclusive?: InputMaybe<Scalars['Boolean']['input']>;
  /** The bound's score: finite, with |value| <= 2^53 - 1. */
  value: Scalars['Float']['input'];
};

/** A named season: from `start` (inclusive) to `end` (exclusive). */
export type SeasonInput = {
  /** The moment right after the season: the next season may start here. */
  end: Scalars['DateTime']['input'];
  /** 1-64 letters, digits and `-_.`; the season's period key. */
  id: Scalars['String']['input'];
  /** The season's first moment. */
  start: Scalars['DateTime']['input'];
};

/** Which end of the board is rank 1. */
export type SortOrder =
  /** Lowest score first (race times). */
  | 'ASCENDING'
  /** Highest score first (points, ratings). */
  | 'DESCENDING';

/** One score submission. */
export type SubmitScoreInput = {
  /** A retried submission with the same key (within 24 h) returns its first result instead of applying twice. */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  /** The board's id. */
  leaderboardId: Scalars['ID']['input'];
  /** The player's id: 1-128 characters of letters, digits and `-_.:`. */
  playerId: Scalars['ID']['input'];
  /** For trusted importers: when the score was reached (not in the future). Defaults to now. */
  reachedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Finite, with |score| <= 2^53 - 1. */
  score: Scalars['Float']['input'];
};

/** What `submitScore` did. */
export type SubmitScorePayload = {
  __typename?: 'SubmitScorePayload';
  /** False when the stored score stayed as it was (same score, not better under BEST, or refused). */
  changed: Scalars['Boolean']['output'];
  /** The player's entry after the submission; null when `userErrors` says why nothing was written. */
  entry: Maybe<Entry>;
  /** The player's rank before the submission; null when the player had none. */
  previousRank: Maybe<Scalars['Int']['output']>;
  /** The player's score before the submission; null when the player had none. */
  previousScore: Maybe<Scalars['Float']['output']>;
  /** True when this is the stored result of an earlier submission with the same idempotency key. */
  replayed: Scalars['Boolean']['output'];
  /** Why nothing was written: BAD_USER_INPUT or NOT_FOUND. Empty on success. */
  userErrors: Array<UserError>;
};

/** The result of one applied submission of `submitScores`. */
export type SubmitScoreResult = {
  __typename?: 'SubmitScoreResult';
  /** False when the stored score stayed as it was (same score, or not better under BEST). */
  changed: Scalars['Boolean']['output'];
  /** The player's entry after the submission. */
  entry: Entry;
  /** The player's rank before the submission; null when the player had none. */
  previousRank: Maybe<Scalars['Int']['output']>;
  /** The player's score before the submission; null when the player had none. */
  previousScore: Maybe<Scalars['Float']['output']>;
  /** True when this is the stored result of an earlier submission with the same idempotency key. */
  replayed: Scalars['Boolean']['output'];
};

/** What `submitScores` did: all of it, or nothing. */
export type SubmitScoresPayload = {
  __typename?: 'SubmitScoresPayload';
  /** One result per input, in the order given; null when `userErrors` says why nothing was written. */
  results: Maybe<Array<SubmitScoreResult>>;
  /** Why nothing was written; `field` starts with the item's position, e.g. `["inputs", "3", "score"]`. Empty on success. */
  userErrors: Array<UserError>;
};

/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `totalCount`) sends nothing.
 * When the board is deleted they send an empty state and end.
 *
 * Each takes `period` as reads do (default: the board's default period, ALL_TIME when it keeps it).
 * With `at` or `key` the subscription stays on that period. Without them it follows the current
 * period of the kind and rolls over by itself at the boundary (in the board's time zone): the three
 * state subscriptions then send a snapshot of the new, empty period, with no write needed, and
 * `entrySubmitted` goes on with the new period's changes. A kind the board does not keep is
 * BAD_USER_INPUT, an expired period NOT_FOUND, as errors of the subscription.
 *
 * A connection holds at most 100 subscriptions, and each costs the entries its updates may carry
 * (`aroundChanged` 2 * radius + 1, `topChanged` its `first`, the others 1): what one connection,
 * and one client over all its connections, may hold together is limited by the server's
 * configuration. A subscription past a limit is refused with BAD_REQUEST (`details.limit`:
 * `subscriptions`, `liveCost` or `liveCostPerClient`); the connection and its other subscriptions
 * go on.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /** The player's window (as `Leaderboard.around`) changed; empty while the player has no score. */
  aroundChanged: RankWindow;
  /** Every accepted change of a score on the board, as it happens (no snapshot first). */
  entrySubmitted: EntrySubmitted;
  /** The player's rank or score moved, by their own write or by others overtaking or dropping below them. */
  rankChanged: RankChange;
  /** The first `first` entries changed. */
  topChanged: TopUpdate;
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `totalCount`) sends nothing.
 * When the board is deleted they send an empty state and end.
 *
 * Each takes `period` as reads do (default: the board's default period, ALL_TIME when it keeps it).
 * With `at` or `key` the subscription stays on that period. Without them it follows the current
 * period of the kind and rolls over by itself at the boundary (in the board's time zone): the three
 * state subscriptions then send a snapshot of the new, empty period, with no write needed, and
 * `entrySubmitted` goes on with the new period's changes. A kind the board does not keep is
 * BAD_USER_INPUT, an expired period NOT_FOUND, as errors of the subscription.
 *
 * A connection holds at most 100 subscriptions, and each costs the entries its updates may carry
 * (`aroundChanged` 2 * radius + 1, `topChanged` its `first`, the others 1): what one connection,
 * and one client over all its connections, may hold together is limited by the server's
 * configuration. A subscription past a limit is refused with BAD_REQUEST (`details.limit`:
 * `subscriptions`, `liveCost` or `liveCostPerClient`); the connection and its other subscriptions
 * go on.
 */
export type SubscriptionAroundChangedArgs = {
  every?: InputMaybe<Scalars['Int']['input']>;
  leaderboardId: Scalars['ID']['input'];
  period?: InputMaybe<PeriodInput>;
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `totalCount`) sends nothing.
 * When the board is deleted they send an empty state and end.
 *
 * Each takes `period` as reads do (default: the board's default period, ALL_TIME when it keeps it).
 * With `at` or `key` the subscription stays on that period. Without them it follows the current
 * period of the kind and rolls over by itself at the boundary (in the board's time zone): the three
 * state subscriptions then send a snapshot of the new, empty period, with no write needed, and
 * `entrySubmitted` goes on with the new period's changes. A kind the board does not keep is
 * BAD_USER_INPUT, an expired period NOT_FOUND, as errors of the subscription.
 *
 * A connection holds at most 100 subscriptions, and each costs the entries its updates may carry
 * (`aroundChanged` 2 * radius + 1, `topChanged` its `first`, the others 1): what one connection,
 * and one client over all its connections, may hold together is limited by the server's
 * configuration. A subscription past a limit is refused with BAD_REQUEST (`details.limit`:
 * `subscriptions`, `liveCost` or `liveCostPerClient`); the connection and its other subscriptions
 * go on.
 */
export type SubscriptionEntrySubmittedArgs = {
  leaderboardId: Scalars['ID']['input'];
  period?: InputMaybe<PeriodInput>;
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `totalCount`) sends nothing.
 * When the board is deleted they send an empty state and end.
 *
 * Each takes `period` as reads do (default: the board's default period, ALL_TIME when it keeps it).
 * With `at` or `key` the subscription stays on that period. Without them it follows the current
 * period of the kind and rolls over by itself at the boundary (in the board's time zone): the three
 * state subscriptions then send a snapshot of the new, empty period, with no write needed, and
 * `entrySubmitted` goes on with the new period's changes. A kind the board does not keep is
 * BAD_USER_INPUT, an expired period NOT_FOUND, as errors of the subscription.
 *
 * A connection holds at most 100 subscriptions, and each costs the entries its updates may carry
 * (`aroundChanged` 2 * radius + 1, `topChanged` its `first`, the others 1): what one connection,
 * and one client over all its connections, may hold together is limited by the server's
 * configuration. A subscription past a limit is refused with BAD_REQUEST (`details.limit`:
 * `subscriptions`, `liveCost` or `liveCostPerClient`); the connection and its other subscriptions
 * go on.
 */
export type SubscriptionRankChangedArgs = {
  every?: InputMaybe<Scalars['Int']['input']>;
  leaderboardId: Scalars['ID']['input'];
  period?: InputMaybe<PeriodInput>;
  playerId: Scalars['ID']['input'];
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `totalCount`) sends nothing.
 * When the board is deleted they send an empty state and end.
 *
 * Each takes `period` as reads do (default: the board's default period, ALL_TIME when it keeps it).
 * With `at` or `key` the subscription stays on that period. Without them it follows the current
 * period of the kind and rolls over by itself at the boundary (in the board's time zone): the three
 * state subscriptions then send a snapshot of the new, empty period, with no write needed, and
 * `entrySubmitted` goes on with the new period's changes. A kind the board does not keep is
 * BAD_USER_INPUT, an expired period NOT_FOUND, as errors of the subscription.
 *
 * A connection holds at most 100 subscriptions, and each costs the entries its updates may carry
 * (`aroundChanged` 2 * radius + 1, `topChanged` its `first`, the others 1): what one connection,
 * and one client over all its connections, may hold together is limited by the server's
 * configuration. A subscription past a limit is refused with BAD_REQUEST (`details.limit`:
 * `subscriptions`, `liveCost` or `liveCostPerClient`); the connection and its other subscriptions
 * go on.
 */
export type SubscriptionTopChangedArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  leaderboardId: Scalars['ID']['input'];
  period?: InputMaybe<PeriodInput>;
};

/**
 * The first entries of a board's period. Its id stands for the board, the period and `first`, so
 * every update of one `topChanged(first:)` subscription within one period is the same object to a
 * client cache; after a rollover the updates are another object, of the new period.
 */
export type TopUpdate = Node & {
  __typename?: 'TopUpdate';
  /** The first entries, top-down. */
  entries: Array<Entry>;
  /** Opaque and stable for the board, the period and `first`. */
  id: Scalars['ID']['output'];
  /** The period the entries are of: the current one for a subscription that follows it, the new one after a rollover. */
  period: Period;
  /** The board's change counter when the entries were read; it grows with every change. */
  version: Scalars['String']['output'];
};

/**
 * The settings to change on a board; those left out stay as they are. `sortOrder`, `capacity` and
 * `denseRanks` cannot change: given, they must be the board's, else BAD_USER_INPUT names the field.
 */
export type UpdateLeaderboardInput = {
  /** Cannot change: given, it must size the board's structures as they are. */
  capacity?: InputMaybe<Scalars['Int']['input']>;
  /** Cannot change: given, it must be the board's. */
  denseRanks?: InputMaybe<Scalars['Boolean']['input']>;
  /** The board's id. */
  id: Scalars['ID']['input'];
  /** Cannot change: given, it must be the board's. */
  sortOrder?: InputMaybe<SortOrder>;
  /** A name to show: at most 200 characters of visible text on one line; null removes it. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** How a new submission combines with a player's stored score from now on. */
  updatePolicy?: InputMaybe<UpdatePolicy>;
};

/** What `updateLeaderboard` did. */
export type UpdateLeaderboardPayload = {
  __typename?: 'UpdateLeaderboardPayload';
  /** False when the settings were already these (or nothing was changed). */
  changed: Scalars['Boolean']['output'];
  /** The board with its settings now; null when `userErrors` says why nothing changed. */
  leaderboard: Maybe<Leaderboard>;
  /** Why nothing changed: BAD_USER_INPUT (a bad value, or a setting that cannot change) or NOT_FOUND. Empty otherwise. */
  userErrors: Array<UserError>;
};

/** How a new submission combines with a player's stored score. */
export type UpdatePolicy =
  /** Keep the better of the stored and the submitted score. */
  | 'BEST'
  /** Add the submitted score to the stored one. */
  | 'INCREMENT'
  /** Replace the stored score. */
  | 'LATEST';

/** A player's whole profile. */
export type UpsertPlayerInput = {
  /** An http(s) URL of at most 2048 characters. */
  avatarUrl?: InputMaybe<Scalars['String']['input']>;
  /** ISO 3166-1 alpha-2 country code (two capital letters). */
  country?: InputMaybe<Scalars['String']['input']>;
  /** 1-64 printable characters. */
  displayName?: InputMaybe<Scalars['String']['input']>;
  /** The player's id. */
  id: Scalars['ID']['input'];
};

/** What `upsertPlayer` did. */
export type UpsertPlayerPayload = {
  __typename?: 'UpsertPlayerPayload';
  /** The stored profile; null when `userErrors` says why nothing was stored. */
  player: Maybe<Player>;
  /** Why nothing was stored: BAD_USER_INPUT. Empty on success. */
  userErrors: Array<UserError>;
};

/**
 * Why a mutation wrote nothing: an expected failure a client can act on. Mutations report these in
 * their payload's `userErrors` (and leave the payload's other fields null or false), so that other
 * mutations of the same request keep their results. Failures of the service itself (UNAVAILABLE,
 * with `extensions.outcome`), and refusals of the key (UNAUTHENTICATED, FORBIDDEN, RATE_LIMITED)
 * are GraphQL errors on the mutation's field instead.
 */
export type UserError = {
  __typename?: 'UserError';
  /** What kind of failure this is; stable, unlike `message`. */
  code: UserErrorCode;
  /**
   * The path to the argument or input field at fault, e.g. `["input", "score"]` or, in a batch,
   * `["inputs", "3", "score"]`; null when no single one is.
   */
  field: Maybe<Array<Scalars['String']['output']>>;
  /** A description of the failure for people (developers), in English. */
  message: Scalars['String']['output'];
};

/** The kinds of expected failure a mutation reports in `userErrors`. */
export type UserErrorCode =
  /** An argument or input field has a value the operation does not accept (out of range, malformed id, too many items). */
  | 'BAD_USER_INPUT'
  /** The leaderboard exists with other settings than `createLeaderboard` asked for; `field` names the first that differs. */
  | 'CONFLICT'
  /** The leaderboard the mutation names does not exist. */
  | 'NOT_FOUND';



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;




/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = {
  Node:
    | ( CombinedViewModel )
    | ( EntryModel )
    | ( PeriodModel )
    | ( RankWindowModel )
    | ( TopUpdateModel )
  ;
  Ranking:
    | ( CombinedViewModel )
    | ( LeaderboardModel )
    | ( PeriodModel )
  ;
};

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AddSeasonsInput: AddSeasonsInput;
  AddSeasonsPayload: ResolverTypeWrapper<Omit<AddSeasonsPayload, 'leaderboard'> & { leaderboard?: Maybe<ResolversTypes['Leaderboard']> }>;
  Aggregate: Aggregate;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  CombinedSource: ResolverTypeWrapper<CombinedSourceModel>;
  CombinedSourceInput: CombinedSourceInput;
  CombinedView: ResolverTypeWrapper<CombinedViewModel>;
  CreateLeaderboardInput: CreateLeaderboardInput;
  CreateLeaderboardPayload: ResolverTypeWrapper<Omit<CreateLeaderboardPayload, 'leaderboard'> & { leaderboard?: Maybe<ResolversTypes['Leaderboard']> }>;
  Cycle: ResolverTypeWrapper<Cycle>;
  CycleLengthInput: CycleLengthInput;
  CycleUnit: CycleUnit;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  DeleteLeaderboardPayload: ResolverTypeWrapper<DeleteLeaderboardPayload>;
  DeletePlayerPayload: ResolverTypeWrapper<DeletePlayerPayload>;
  Entry: ResolverTypeWrapper<EntryModel>;
  EntryConnection: ResolverTypeWrapper<Omit<EntryConnection, 'edges' | 'nodes'> & { edges: Array<ResolversTypes['EntryEdge']>, nodes: Array<ResolversTypes['Entry']> }>;
  EntryEdge: ResolverTypeWrapper<Omit<EntryEdge, 'node'> & { node: ResolversTypes['Entry'] }>;
  EntrySubmitted: ResolverTypeWrapper<Omit<EntrySubmitted, 'entry'> & { entry: ResolversTypes['Entry'] }>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  KeepTopEntriesInput: KeepTopEntriesInput;
  Leaderboard: ResolverTypeWrapper<LeaderboardModel>;
  LeaderboardConnection: ResolverTypeWrapper<LeaderboardConnectionModel>;
  LeaderboardEdge: ResolverTypeWrapper<Omit<LeaderboardEdge, 'node'> & { node: ResolversTypes['Leaderboard'] }>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Node: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['Node']>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Period: ResolverTypeWrapper<PeriodModel>;
  PeriodInput: PeriodInput;
  PeriodKind: PeriodKind;
  PeriodKindInput: PeriodKindInput;
  PeriodsInput: PeriodsInput;
  Player: ResolverTypeWrapper<PlayerProfile>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RankChange: ResolverTypeWrapper<Omit<RankChange, 'entry'> & { entry?: Maybe<ResolversTypes['Entry']> }>;
  RankChangeCause: RankChangeCause;
  RankWindow: ResolverTypeWrapper<RankWindowModel>;
  Ranking: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['Ranking']>;
  RemoveEntriesByScoreInput: RemoveEntriesByScoreInput;
  RemoveEntriesInput: RemoveEntriesInput;
  RemoveEntriesPayload: ResolverTypeWrapper<RemoveEntriesPayload>;
  RemoveEntryPayload: ResolverTypeWrapper<RemoveEntryPayload>;
  ScoreBound: ScoreBound;
  SeasonInput: SeasonInput;
  SortOrder: SortOrder;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  SubmitScoreInput: SubmitScoreInput;
  SubmitScorePayload: ResolverTypeWrapper<Omit<SubmitScorePayload, 'entry'> & { entry?: Maybe<ResolversTypes['Entry']> }>;
  SubmitScoreResult: ResolverTypeWrapper<Omit<SubmitScoreResult, 'entry'> & { entry: ResolversTypes['Entry'] }>;
  SubmitScoresPayload: ResolverTypeWrapper<Omit<SubmitScoresPayload, 'results'> & { results?: Maybe<Array<ResolversTypes['SubmitScoreResult']>> }>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  TopUpdate: ResolverTypeWrapper<TopUpdateModel>;
  UpdateLeaderboardInput: UpdateLeaderboardInput;
  UpdateLeaderboardPayload: ResolverTypeWrapper<Omit<UpdateLeaderboardPayload, 'leaderboard'> & { leaderboard?: Maybe<ResolversTypes['Leaderboard']> }>;
  UpdatePolicy: UpdatePolicy;
  UpsertPlayerInput: UpsertPlayerInput;
  UpsertPlayerPayload: ResolverTypeWrapper<Omit<UpsertPlayerPayload, 'player'> & { player?: Maybe<ResolversTypes['Player']> }>;
  UserError: ResolverTypeWrapper<UserError>;
  UserErrorCode: UserErrorCode;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AddSeasonsInput: AddSeasonsInput;
  AddSeasonsPayload: Omit<AddSeasonsPayload, 'leaderboard'> & { leaderboard?: Maybe<ResolversParentTypes['Leaderboard']> };
  Boolean: Scalars['Boolean']['output'];
  CombinedSource: CombinedSourceModel;
  CombinedSourceInput: CombinedSourceInput;
  CombinedView: CombinedViewModel;
  CreateLeaderboardInput: CreateLeaderboardInput;
  CreateLeaderboardPayload: Omit<CreateLeaderboardPayload, 'leaderboard'> & { leaderboard?: Maybe<ResolversParentTypes['Leaderboard']> };
  Cycle: Cycle;
  CycleLengthInput: CycleLengthInput;
  DateTime: Scalars['DateTime']['output'];
  DeleteLeaderboardPayload: DeleteLeaderboardPayload;
  DeletePlayerPayload: DeletePlayerPayload;
  Entry: EntryModel;
  EntryConnection: Omit<EntryConnection, 'edges' | 'nodes'> & { edges: Array<ResolversParentTypes['EntryEdge']>, nodes: Array<ResolversParentTypes['Entry']> };
  EntryEdge: Omit<EntryEdge, 'node'> & { node: ResolversParentTypes['Entry'] };
  EntrySubmitted: Omit<EntrySubmitted, 'entry'> & { entry: ResolversParentTypes['Entry'] };
  Float: Scalars['Float']['output'];
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  KeepTopEntriesInput: KeepTopEntriesInput;
  Leaderboard: LeaderboardModel;
  LeaderboardConnection: LeaderboardConnectionModel;
  LeaderboardEdge: Omit<LeaderboardEdge, 'node'> & { node: ResolversParentTypes['Leaderboard'] };
  Mutation: Record<PropertyKey, never>;
  Node: ResolversInterfaceTypes<ResolversParentTypes>['Node'];
  PageInfo: PageInfo;
  Period: PeriodModel;
  PeriodInput: PeriodInput;
  PeriodKindInput: PeriodKindInput;
  PeriodsInput: PeriodsInput;
  Player: PlayerProfile;
  Query: Record<PropertyKey, never>;
  RankChange: Omit<RankChange, 'entry'> & { entry?: Maybe<ResolversParentTypes['Entry']> };
  RankWindow: RankWindowModel;
  Ranking: ResolversInterfaceTypes<ResolversParentTypes>['Ranking'];
  RemoveEntriesByScoreInput: RemoveEntriesByScoreInput;
  RemoveEntriesInput: RemoveEntriesInput;
  RemoveEntriesPayload: RemoveEntriesPayload;
  RemoveEntryPayload: RemoveEntryPayload;
  ScoreBound: ScoreBound;
  SeasonInput: SeasonInput;
  String: Scalars['String']['output'];
  SubmitScoreInput: SubmitScoreInput;
  SubmitScorePayload: Omit<SubmitScorePayload, 'entry'> & { entry?: Maybe<ResolversParentTypes['Entry']> };
  SubmitScoreResult: Omit<SubmitScoreResult, 'entry'> & { entry: ResolversParentTypes['Entry'] };
  SubmitScoresPayload: Omit<SubmitScoresPayload, 'results'> & { results?: Maybe<Array<ResolversParentTypes['SubmitScoreResult']>> };
  Subscription: Record<PropertyKey, never>;
  TopUpdate: TopUpdateModel;
  UpdateLeaderboardInput: UpdateLeaderboardInput;
  UpdateLeaderboardPayload: Omit<UpdateLeaderboardPayload, 'leaderboard'> & { leaderboard?: Maybe<ResolversParentTypes['Leaderboard']> };
  UpsertPlayerInput: UpsertPlayerInput;
  UpsertPlayerPayload: Omit<UpsertPlayerPayload, 'player'> & { player?: Maybe<ResolversParentTypes['Player']> };
  UserError: UserError;
};

export type AddSeasonsPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['AddSeasonsPayload'] = ResolversParentTypes['AddSeasonsPayload']> = {
  changed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  leaderboard?: Resolver<Maybe<ResolversTypes['Leaderboard']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type CombinedSourceResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CombinedSource'] = ResolversParentTypes['CombinedSource']> = {
  period?: Resolver<ResolversTypes['Period'], ParentType, ContextType>;
  weight?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type CombinedViewResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CombinedView'] = ResolversParentTypes['CombinedView']> = {
  aggregate?: Resolver<ResolversTypes['Aggregate'], ParentType, ContextType>;
  around?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<CombinedViewAroundArgs, 'playerId' | 'radius'>>;
  aroundScore?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<CombinedViewAroundScoreArgs, 'radius' | 'score'>>;
  countByScore?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType, Partial<CombinedViewCountByScoreArgs>>;
  entries?: Resolver<Maybe<ResolversTypes['EntryConnection']>, ParentType, ContextType, Partial<CombinedViewEntriesArgs>>;
  entriesByScore?: Resolver<Maybe<ResolversTypes['EntryConnection']>, ParentType, ContextType, Partial<CombinedViewEntriesByScoreArgs>>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType, RequireFields<CombinedViewEntryArgs, 'playerId'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  scoreAtPercentile?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CombinedViewScoreAtPercentileArgs, 'percent'>>;
  scoreAtRank?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CombinedViewScoreAtRankArgs, 'rank'>>;
  sources?: Resolver<Array<ResolversTypes['CombinedSource']>, ParentType, ContextType>;
  topPercent?: Resolver<Maybe<Array<ResolversTypes['Entry']>>, ParentType, ContextType, RequireFields<CombinedViewTopPercentArgs, 'limit' | 'percent'>>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type CreateLeaderboardPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['CreateLeaderboardPayload'] = ResolversParentTypes['CreateLeaderboardPayload']> = {
  leaderboard?: Resolver<Maybe<ResolversTypes['Leaderboard']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type CycleResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Cycle'] = ResolversParentTypes['Cycle']> = {
  anchor?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  every?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  unit?: Resolver<ResolversTypes['CycleUnit'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DeleteLeaderboardPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeleteLeaderboardPayload'] = ResolversParentTypes['DeleteLeaderboardPayload']> = {
  deleted?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type DeletePlayerPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['DeletePlayerPayload'] = ResolversParentTypes['DeletePlayerPayload']> = {
  deleted?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type EntryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Entry'] = ResolversParentTypes['Entry']> = {
  denseRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  leaderboard?: Resolver<ResolversTypes['Leaderboard'], ParentType, ContextType>;
  percentile?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  player?: Resolver<ResolversTypes['Player'], ParentType, ContextType>;
  playerId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  rank?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  ranking?: Resolver<ResolversTypes['Ranking'], ParentType, ContextType>;
  reachedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  score?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  sharedRank?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type EntryConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['EntryConnection'] = ResolversParentTypes['EntryConnection']> = {
  edges?: Resolver<Array<ResolversTypes['EntryEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Entry']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type EntryEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['EntryEdge'] = ResolversParentTypes['EntryEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Entry'], ParentType, ContextType>;
};

export type EntrySubmittedResolvers<ContextType = Context, ParentType extends ResolversParentTypes['EntrySubmitted'] = ResolversParentTypes['EntrySubmitted']> = {
  entry?: Resolver<ResolversTypes['Entry'], ParentType, ContextType>;
  previousRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  previousScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type LeaderboardResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Leaderboard'] = ResolversParentTypes['Leaderboard']> = {
  around?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<LeaderboardAroundArgs, 'playerId' | 'radius'>>;
  aroundScore?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<LeaderboardAroundScoreArgs, 'radius' | 'score'>>;
  countByScore?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType, Partial<LeaderboardCountByScoreArgs>>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  cycle?: Resolver<Maybe<ResolversTypes['Cycle']>, ParentType, ContextType>;
  denseRanks?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  entries?: Resolver<Maybe<ResolversTypes['EntryConnection']>, ParentType, ContextType, Partial<LeaderboardEntriesArgs>>;
  entriesByScore?: Resolver<Maybe<ResolversTypes['EntryConnection']>, ParentType, ContextType, Partial<LeaderboardEntriesByScoreArgs>>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType, RequireFields<LeaderboardEntryArgs, 'playerId'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  nextSeason?: Resolver<Maybe<ResolversTypes['Period']>, ParentType, ContextType>;
  period?: Resolver<Maybe<ResolversTypes['Period']>, ParentType, ContextType, Partial<LeaderboardPeriodArgs>>;
  periods?: Resolver<Array<ResolversTypes['Period']>, ParentType, ContextType, Partial<LeaderboardPeriodsArgs>>;
  scoreAtPercentile?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<LeaderboardScoreAtPercentileArgs, 'percent'>>;
  scoreAtRank?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<LeaderboardScoreAtRankArgs, 'rank'>>;
  sortOrder?: Resolver<ResolversTypes['SortOrder'], ParentType, ContextType>;
  timeZone?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  topPercent?: Resolver<Maybe<Array<ResolversTypes['Entry']>>, ParentType, ContextType, RequireFields<LeaderboardTopPercentArgs, 'limit' | 'percent'>>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updatePolicy?: Resolver<ResolversTypes['UpdatePolicy'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type LeaderboardConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['LeaderboardConnection'] = ResolversParentTypes['LeaderboardConnection']> = {
  edges?: Resolver<Array<ResolversTypes['LeaderboardEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Leaderboard']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type LeaderboardEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['LeaderboardEdge'] = ResolversParentTypes['LeaderboardEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Leaderboard'], ParentType, ContextType>;
};

export type MutationResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  addSeasons?: Resolver<Maybe<ResolversTypes['AddSeasonsPayload']>, ParentType, ContextType, RequireFields<MutationAddSeasonsArgs, 'input'>>;
  createLeaderboard?: Resolver<Maybe<ResolversTypes['CreateLeaderboardPayload']>, ParentType, ContextType, RequireFields<MutationCreateLeaderboardArgs, 'input'>>;
  deleteLeaderboard?: Resolver<Maybe<ResolversTypes['DeleteLeaderboardPayload']>, ParentType, ContextType, RequireFields<MutationDeleteLeaderboardArgs, 'id'>>;
  deletePlayer?: Resolver<Maybe<ResolversTypes['DeletePlayerPayload']>, ParentType, ContextType, RequireFields<MutationDeletePlayerArgs, 'id'>>;
  keepTopEntries?: Resolver<Maybe<ResolversTypes['RemoveEntriesPayload']>, ParentType, ContextType, RequireFields<MutationKeepTopEntriesArgs, 'input'>>;
  removeEntries?: Resolver<Maybe<ResolversTypes['RemoveEntriesPayload']>, ParentType, ContextType, RequireFields<MutationRemoveEntriesArgs, 'input'>>;
  removeEntriesByScore?: Resolver<Maybe<ResolversTypes['RemoveEntriesPayload']>, ParentType, ContextType, RequireFields<MutationRemoveEntriesByScoreArgs, 'input'>>;
  removeEntry?: Resolver<Maybe<ResolversTypes['RemoveEntryPayload']>, ParentType, ContextType, RequireFields<MutationRemoveEntryArgs, 'leaderboardId' | 'playerId'>>;
  submitScore?: Resolver<Maybe<ResolversTypes['SubmitScorePayload']>, ParentType, ContextType, RequireFields<MutationSubmitScoreArgs, 'input'>>;
  submitScores?: Resolver<Maybe<ResolversTypes['SubmitScoresPayload']>, ParentType, ContextType, RequireFields<MutationSubmitScoresArgs, 'inputs'>>;
  updateLeaderboard?: Resolver<Maybe<ResolversTypes['UpdateLeaderboardPayload']>, ParentType, ContextType, RequireFields<MutationUpdateLeaderboardArgs, 'input'>>;
  upsertPlayer?: Resolver<Maybe<ResolversTypes['UpsertPlayerPayload']>, ParentType, ContextType, RequireFields<MutationUpsertPlayerArgs, 'input'>>;
};

export type NodeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Node'] = ResolversParentTypes['Node']> = {
  __resolveType: TypeResolveFn<'CombinedView' | 'Entry' | 'Period' | 'RankWindow' | 'TopUpdate', ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PeriodResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Period'] = ResolversParentTypes['Period']> = {
  around?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<PeriodAroundArgs, 'playerId' | 'radius'>>;
  aroundScore?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<PeriodAroundScoreArgs, 'radius' | 'score'>>;
  countByScore?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType, Partial<PeriodCountByScoreArgs>>;
  end?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  entries?: Resolver<Maybe<ResolversTypes['EntryConnection']>, ParentType, ContextType, Partial<PeriodEntriesArgs>>;
  entriesByScore?: Resolver<Maybe<ResolversTypes['EntryConnection']>, ParentType, ContextType, Partial<PeriodEntriesByScoreArgs>>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType, RequireFields<PeriodEntryArgs, 'playerId'>>;
  expiresAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['PeriodKind'], ParentType, ContextType>;
  leaderboard?: Resolver<ResolversTypes['Leaderboard'], ParentType, ContextType>;
  scoreAtPercentile?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<PeriodScoreAtPercentileArgs, 'percent'>>;
  scoreAtRank?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<PeriodScoreAtRankArgs, 'rank'>>;
  start?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  topPercent?: Resolver<Maybe<Array<ResolversTypes['Entry']>>, ParentType, ContextType, RequireFields<PeriodTopPercentArgs, 'limit' | 'percent'>>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type PlayerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Player'] = ResolversParentTypes['Player']> = {
  avatarUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  country?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  displayName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  combined?: Resolver<Maybe<ResolversTypes['CombinedView']>, ParentType, ContextType, RequireFields<QueryCombinedArgs, 'aggregate' | 'sources'>>;
  entries?: Resolver<Maybe<Array<Maybe<ResolversTypes['Entry']>>>, ParentType, ContextType, RequireFields<QueryEntriesArgs, 'leaderboardId' | 'playerIds'>>;
  leaderboard?: Resolver<Maybe<ResolversTypes['Leaderboard']>, ParentType, ContextType, RequireFields<QueryLeaderboardArgs, 'id'>>;
  leaderboards?: Resolver<Maybe<ResolversTypes['LeaderboardConnection']>, ParentType, ContextType, RequireFields<QueryLeaderboardsArgs, 'first'>>;
  node?: Resolver<Maybe<ResolversTypes['Node']>, ParentType, ContextType, RequireFields<QueryNodeArgs, 'id'>>;
  nodes?: Resolver<Array<Maybe<ResolversTypes['Node']>>, ParentType, ContextType, RequireFields<QueryNodesArgs, 'ids'>>;
  player?: Resolver<Maybe<ResolversTypes['Player']>, ParentType, ContextType, RequireFields<QueryPlayerArgs, 'id'>>;
};

export type RankChangeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RankChange'] = ResolversParentTypes['RankChange']> = {
  cause?: Resolver<ResolversTypes['RankChangeCause'], ParentType, ContextType>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType>;
  previousRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  previousScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type RankWindowResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RankWindow'] = ResolversParentTypes['RankWindow']> = {
  center?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType>;
  entries?: Resolver<Array<ResolversTypes['Entry']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type RankingResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Ranking'] = ResolversParentTypes['Ranking']> = {
  __resolveType: TypeResolveFn<'CombinedView' | 'Leaderboard' | 'Period', ParentType, ContextType>;
};

export type RemoveEntriesPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RemoveEntriesPayload'] = ResolversParentTypes['RemoveEntriesPayload']> = {
  removedCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type RemoveEntryPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RemoveEntryPayload'] = ResolversParentTypes['RemoveEntryPayload']> = {
  removed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type SubmitScorePayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['SubmitScorePayload'] = ResolversParentTypes['SubmitScorePayload']> = {
  changed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType>;
  previousRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  previousScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  replayed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type SubmitScoreResultResolvers<ContextType = Context, ParentType extends ResolversParentTypes['SubmitScoreResult'] = ResolversParentTypes['SubmitScoreResult']> = {
  changed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  entry?: Resolver<ResolversTypes['Entry'], ParentType, ContextType>;
  previousRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  previousScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  replayed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type SubmitScoresPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['SubmitScoresPayload'] = ResolversParentTypes['SubmitScoresPayload']> = {
  results?: Resolver<Maybe<Array<ResolversTypes['SubmitScoreResult']>>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  aroundChanged?: SubscriptionResolver<ResolversTypes['RankWindow'], "aroundChanged", ParentType, ContextType, RequireFields<SubscriptionAroundChangedArgs, 'leaderboardId' | 'playerId' | 'radius'>>;
  entrySubmitted?: SubscriptionResolver<ResolversTypes['EntrySubmitted'], "entrySubmitted", ParentType, ContextType, RequireFields<SubscriptionEntrySubmittedArgs, 'leaderboardId'>>;
  rankChanged?: SubscriptionResolver<ResolversTypes['RankChange'], "rankChanged", ParentType, ContextType, RequireFields<SubscriptionRankChangedArgs, 'leaderboardId' | 'playerId'>>;
  topChanged?: SubscriptionResolver<ResolversTypes['TopUpdate'], "topChanged", ParentType, ContextType, RequireFields<SubscriptionTopChangedArgs, 'first' | 'leaderboardId'>>;
};

export type TopUpdateResolvers<ContextType = Context, ParentType extends ResolversParentTypes['TopUpdate'] = ResolversParentTypes['TopUpdate']> = {
  entries?: Resolver<Array<ResolversTypes['Entry']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  period?: Resolver<ResolversTypes['Period'], ParentType, ContextType>;
  version?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type UpdateLeaderboardPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['UpdateLeaderboardPayload'] = ResolversParentTypes['UpdateLeaderboardPayload']> = {
  changed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  leaderboard?: Resolver<Maybe<ResolversTypes['Leaderboard']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type UpsertPlayerPayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['UpsertPlayerPayload'] = ResolversParentTypes['UpsertPlayerPayload']> = {
  player?: Resolver<Maybe<ResolversTypes['Player']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type UserErrorResolvers<ContextType = Context, ParentType extends ResolversParentTypes['UserError'] = ResolversParentTypes['UserError']> = {
  code?: Resolver<ResolversTypes['UserErrorCode'], ParentType, ContextType>;
  field?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = Context> = {
  AddSeasonsPayload?: AddSeasonsPayloadResolvers<ContextType>;
  CombinedSource?: CombinedSourceResolvers<ContextType>;
  CombinedView?: CombinedViewResolvers<ContextType>;
  CreateLeaderboardPayload?: CreateLeaderboardPayloadResolvers<ContextType>;
  Cycle?: CycleResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  DeleteLeaderboardPayload?: DeleteLeaderboardPayloadResolvers<ContextType>;
  DeletePlayerPayload?: DeletePlayerPayloadResolvers<ContextType>;
  Entry?: EntryResolvers<ContextType>;
  EntryConnection?: EntryConnectionResolvers<ContextType>;
  EntryEdge?: EntryEdgeResolvers<ContextType>;
  EntrySubmitted?: EntrySubmittedResolvers<ContextType>;
  Leaderboard?: LeaderboardResolvers<ContextType>;
  LeaderboardConnection?: LeaderboardConnectionResolvers<ContextType>;
  LeaderboardEdge?: LeaderboardEdgeResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  Node?: NodeResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Period?: PeriodResolvers<ContextType>;
  Player?: PlayerResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  RankChange?: RankChangeResolvers<ContextType>;
  RankWindow?: RankWindowResolvers<ContextType>;
  Ranking?: RankingResolvers<ContextType>;
  RemoveEntriesPayload?: RemoveEntriesPayloadResolvers<ContextType>;
  RemoveEntryPayload?: RemoveEntryPayloadResolvers<ContextType>;
  SubmitScorePayload?: SubmitScorePayloadResolvers<ContextType>;
  SubmitScoreResult?: SubmitScoreResultResolvers<ContextType>;
  SubmitScoresPayload?: SubmitScoresPayloadResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  TopUpdate?: TopUpdateResolvers<ContextType>;
  UpdateLeaderboardPayload?: UpdateLeaderboardPayloadResolvers<ContextType>;
  UpsertPlayerPayload?: UpsertPlayerPayloadResolvers<ContextType>;
  UserError?: UserErrorResolvers<ContextType>;
};

