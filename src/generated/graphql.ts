import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { BoardConfig } from '../store/types';
import type { EntryModel, RankWindowModel, SubmitScorePayloadModel } from '../graphql/models';
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
   * A moment as an ISO-8601 string in UTC with microseconds, e.g. `2026-11-30T03:11:31.123456Z`.
   * Input accepts up to six fractional digits and either `Z` or an offset such as `+02:00`.
   */
  DateTime: { input: number; output: number; }
};

export type CreateLeaderboardInput = {
  /** Expected number of players (sizes internal structures; default 1,000,000). */
  capacity?: InputMaybe<Scalars['Int']['input']>;
  /** 1-128 characters of letters, digits and `-_.:`. */
  id: Scalars['ID']['input'];
  sortOrder: SortOrder;
  title?: InputMaybe<Scalars['String']['input']>;
  updatePolicy: UpdatePolicy;
};

export type Entry = {
  __typename?: 'Entry';
  leaderboard: Leaderboard;
  /** Share of the board ranked at or below this entry, in percent: 100 for rank 1. */
  percentile: Scalars['Float']['output'];
  /** The player's profile; only `id` is set when the player has none. */
  player: Player;
  playerId: Scalars['ID']['output'];
  /** 1-based and unique: equal scores are ordered by who reached them first. */
  rank: Scalars['Int']['output'];
  /** When the player reached this score. */
  reachedAt: Scalars['DateTime']['output'];
  score: Scalars['Float']['output'];
  /** Standard competition ranking: equal scores share a rank (1, 2, 2, 4). */
  sharedRank: Scalars['Int']['output'];
};

export type EntryConnection = {
  __typename?: 'EntryConnection';
  edges: Array<EntryEdge>;
  nodes: Array<Entry>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type EntryEdge = {
  __typename?: 'EntryEdge';
  cursor: Scalars['String']['output'];
  node: Entry;
};

export type Leaderboard = {
  __typename?: 'Leaderboard';
  /**
   * The player and the `radius` entries on each side, filled out from the other side near either
   * end of the board: always `2 * radius + 1` entries while the board holds that many (radius 2
   * around the last player gives the four entries above it). Null when the player has no score.
   */
  around: Maybe<RankWindow>;
  /**
   * Where `score` would rank if submitted now (after existing equal scores): up to `radius` entries
   * above that place and `radius` from it down, filled out from the other side near either end
   * (`2 * radius` entries while the board holds that many); `center` is null.
   */
  aroundScore: RankWindow;
  createdAt: Scalars['DateTime']['output'];
  /**
   * A page of the ranking (1 to 1000 entries). Pass `after` (a cursor from a previous page) to
   * continue right after that entry even when ranks moved; `offset` jumps to a position and is
   * ignored when `after` is given. `fromBottom` reads from the last rank upwards.
   */
  entries: EntryConnection;
  /** The player's entry, or null when the player has no score on this board. */
  entry: Maybe<Entry>;
  id: Scalars['ID']['output'];
  /** Number of ranked players. */
  size: Scalars['Int']['output'];
  sortOrder: SortOrder;
  title: Maybe<Scalars['String']['output']>;
  /** The best `percent` of the board (0 < percent <= 100), at most `limit` (1 to 1000) of them. */
  topPercent: Array<Entry>;
  updatePolicy: UpdatePolicy;
};


export type LeaderboardAroundArgs = {
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


export type LeaderboardAroundScoreArgs = {
  radius?: InputMaybe<Scalars['Int']['input']>;
  score: Scalars['Float']['input'];
};


export type LeaderboardEntriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  fromBottom?: InputMaybe<Scalars['Boolean']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


export type LeaderboardEntryArgs = {
  playerId: Scalars['ID']['input'];
};


export type LeaderboardTopPercentArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  percent: Scalars['Float']['input'];
};

export type LeaderboardConnection = {
  __typename?: 'LeaderboardConnection';
  edges: Array<LeaderboardEdge>;
  nodes: Array<Leaderboard>;
  pageInfo: PageInfo;
};

export type LeaderboardEdge = {
  __typename?: 'LeaderboardEdge';
  cursor: Scalars['String']['output'];
  node: Leaderboard;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Creates a board; repeating it with the same settings returns the board, different settings are a CONFLICT. */
  createLeaderboard: Leaderboard;
  /** False when the board did not exist. */
  deleteLeaderboard: Scalars['Boolean']['output'];
  /** False when the player had no entry. NOT_FOUND when the board does not exist. */
  removeEntry: Scalars['Boolean']['output'];
  submitScore: SubmitScorePayload;
  /**
   * Up to 1000 submissions for any players and boards. Every item is checked first: one invalid
   * item writes nothing and the error's `details.index` names it. Items for one board apply
   * atomically and in order.
   */
  submitScores: Array<SubmitScorePayload>;
  /** Stores the player's profile, replacing the previous one (fields left out become null). */
  upsertPlayer: Player;
};


export type MutationCreateLeaderboardArgs = {
  input: CreateLeaderboardInput;
};


export type MutationDeleteLeaderboardArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRemoveEntryArgs = {
  leaderboardId: Scalars['ID']['input'];
  playerId: Scalars['ID']['input'];
};


export type MutationSubmitScoreArgs = {
  input: SubmitScoreInput;
};


export type MutationSubmitScoresArgs = {
  inputs: Array<SubmitScoreInput>;
};


export type MutationUpsertPlayerArgs = {
  input: UpsertPlayerInput;
};

/** Relay-style paging state. Cursors are opaque: pass `endCursor` back as `after`. */
export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor: Maybe<Scalars['String']['output']>;
};

/** A player's public profile. Fields other than `id` are null until the player has a profile. */
export type Player = {
  __typename?: 'Player';
  avatarUrl: Maybe<Scalars['String']['output']>;
  /** ISO 3166-1 alpha-2 country code, e.g. `SE`. */
  country: Maybe<Scalars['String']['output']>;
  displayName: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** Entries of many players on one board, in the order asked; null for players without a score. */
  entries: Array<Maybe<Entry>>;
  leaderboard: Maybe<Leaderboard>;
  /** Boards in id order; `after` is a cursor from a previous page. */
  leaderboards: LeaderboardConnection;
  /** The player's profile; null when the player has none. */
  player: Maybe<Player>;
};


export type QueryEntriesArgs = {
  leaderboardId: Scalars['ID']['input'];
  playerIds: Array<Scalars['ID']['input']>;
};


export type QueryLeaderboardArgs = {
  id: Scalars['ID']['input'];
};


export type QueryLeaderboardsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


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
  /**
   * Why the update was sent: `snapshot` (the current state: the first update, and again after the
   * server reconnected to Redis), `score` (the player's own score changed), `rank` (other players'
   * changes moved the player), `removed` (the player was removed from the board), `deleted` (the
   * board was deleted; the subscription then ends).
   */
  cause: Maybe<Scalars['String']['output']>;
  /** The player's entry now; null when the player has no score (never had one, was removed, or the board was deleted). */
  entry: Maybe<Entry>;
  previousRank: Maybe<Scalars['Int']['output']>;
  previousScore: Maybe<Scalars['Float']['output']>;
};

export type RankWindow = {
  __typename?: 'RankWindow';
  center: Maybe<Entry>;
  entries: Array<Entry>;
  /** Board size when the window was read. */
  total: Scalars['Int']['output'];
};

/** Which end of the board is rank 1. */
export type SortOrder =
  /** Lowest score first (race times). */
  | 'ASCENDING'
  /** Highest score first (points, ratings). */
  | 'DESCENDING';

export type SubmitScoreInput = {
  /** A retried submission with the same key (within 24 h) returns its first result instead of applying twice. */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  leaderboardId: Scalars['ID']['input'];
  playerId: Scalars['ID']['input'];
  /** For trusted importers: when the score was reached (not in the future). Defaults to now. */
  reachedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Finite, with |score| <= 2^53 - 1. */
  score: Scalars['Float']['input'];
};

export type SubmitScorePayload = {
  __typename?: 'SubmitScorePayload';
  /** False when the stored score stayed as it was (same score, or not better under BEST). */
  changed: Scalars['Boolean']['output'];
  entry: Entry;
  previousRank: Maybe<Scalars['Int']['output']>;
  previousScore: Maybe<Scalars['Float']['output']>;
  /** True when this is the stored result of an earlier submission with the same idempotency key. */
  replayed: Scalars['Boolean']['output'];
};

/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `total`) sends nothing.
 * When the board is deleted they send an empty state and end.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /** The player's window (as `Leaderboard.around`) changed; empty while the player has no score. */
  aroundChanged: RankWindow;
  /** Every accepted change of a score on the board, as it happens (no snapshot first). */
  entrySubmitted: SubmitScorePayload;
  /** The player's rank or score moved, by their own write or by others overtaking or dropping below them. */
  rankChanged: RankChange;
  /** The first `first` (1 to 1000) entries changed. */
  topChanged: TopUpdate;
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `total`) sends nothing.
 * When the board is deleted they send an empty state and end.
 */
export type SubscriptionAroundChangedArgs = {
  every?: InputMaybe<Scalars['Int']['input']>;
  leaderboardId: Scalars['ID']['input'];
  playerId: Scalars['ID']['input'];
  radius?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `total`) sends nothing.
 * When the board is deleted they send an empty state and end.
 */
export type SubscriptionEntrySubmittedArgs = {
  leaderboardId: Scalars['ID']['input'];
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `total`) sends nothing.
 * When the board is deleted they send an empty state and end.
 */
export type SubscriptionRankChangedArgs = {
  every?: InputMaybe<Scalars['Int']['input']>;
  leaderboardId: Scalars['ID']['input'];
  playerId: Scalars['ID']['input'];
};


/**
 * Live updates over WebSocket (graphql-ws protocol, same URL as queries). `rankChanged`,
 * `topChanged` and `aroundChanged` send the current state first, then an update whenever it
 * changes, at most one per subscription every 100 ms (the last one always shows the latest state).
 * Board growth alone (a new player below, which only moves `percentile` and `total`) sends nothing.
 * When the board is deleted they send an empty state and end.
 */
export type SubscriptionTopChangedArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  leaderboardId: Scalars['ID']['input'];
};

export type TopUpdate = {
  __typename?: 'TopUpdate';
  entries: Array<Entry>;
  /** The board's change counter when the entries were read; it grows with every change. */
  version: Scalars['String']['output'];
};

/** How a new submission combines with a player's stored score. */
export type UpdatePolicy =
  /** Keep the better of the stored and the submitted score. */
  | 'BEST'
  /** Add the submitted score to the stored one. */
  | 'INCREMENT'
  /** Replace the stored score. */
  | 'LATEST';

export type UpsertPlayerInput = {
  /** An http(s) URL of at most 2048 characters. */
  avatarUrl?: InputMaybe<Scalars['String']['input']>;
  /** ISO 3166-1 alpha-2 country code (two capital letters). */
  country?: InputMaybe<Scalars['String']['input']>;
  /** 1-64 printable characters. */
  displayName?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
};



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





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  CreateLeaderboardInput: CreateLeaderboardInput;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  Entry: ResolverTypeWrapper<EntryModel>;
  EntryConnection: ResolverTypeWrapper<Omit<EntryConnection, 'edges' | 'nodes'> & { edges: Array<ResolversTypes['EntryEdge']>, nodes: Array<ResolversTypes['Entry']> }>;
  EntryEdge: ResolverTypeWrapper<Omit<EntryEdge, 'node'> & { node: ResolversTypes['Entry'] }>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Leaderboard: ResolverTypeWrapper<BoardConfig>;
  LeaderboardConnection: ResolverTypeWrapper<Omit<LeaderboardConnection, 'edges' | 'nodes'> & { edges: Array<ResolversTypes['LeaderboardEdge']>, nodes: Array<ResolversTypes['Leaderboard']> }>;
  LeaderboardEdge: ResolverTypeWrapper<Omit<LeaderboardEdge, 'node'> & { node: ResolversTypes['Leaderboard'] }>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Player: ResolverTypeWrapper<PlayerProfile>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RankChange: ResolverTypeWrapper<Omit<RankChange, 'entry'> & { entry?: Maybe<ResolversTypes['Entry']> }>;
  RankWindow: ResolverTypeWrapper<RankWindowModel>;
  SortOrder: SortOrder;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  SubmitScoreInput: SubmitScoreInput;
  SubmitScorePayload: ResolverTypeWrapper<SubmitScorePayloadModel>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  TopUpdate: ResolverTypeWrapper<Omit<TopUpdate, 'entries'> & { entries: Array<ResolversTypes['Entry']> }>;
  UpdatePolicy: UpdatePolicy;
  UpsertPlayerInput: UpsertPlayerInput;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Boolean: Scalars['Boolean']['output'];
  CreateLeaderboardInput: CreateLeaderboardInput;
  DateTime: Scalars['DateTime']['output'];
  Entry: EntryModel;
  EntryConnection: Omit<EntryConnection, 'edges' | 'nodes'> & { edges: Array<ResolversParentTypes['EntryEdge']>, nodes: Array<ResolversParentTypes['Entry']> };
  EntryEdge: Omit<EntryEdge, 'node'> & { node: ResolversParentTypes['Entry'] };
  Float: Scalars['Float']['output'];
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  Leaderboard: BoardConfig;
  LeaderboardConnection: Omit<LeaderboardConnection, 'edges' | 'nodes'> & { edges: Array<ResolversParentTypes['LeaderboardEdge']>, nodes: Array<ResolversParentTypes['Leaderboard']> };
  LeaderboardEdge: Omit<LeaderboardEdge, 'node'> & { node: ResolversParentTypes['Leaderboard'] };
  Mutation: Record<PropertyKey, never>;
  PageInfo: PageInfo;
  Player: PlayerProfile;
  Query: Record<PropertyKey, never>;
  RankChange: Omit<RankChange, 'entry'> & { entry?: Maybe<ResolversParentTypes['Entry']> };
  RankWindow: RankWindowModel;
  String: Scalars['String']['output'];
  SubmitScoreInput: SubmitScoreInput;
  SubmitScorePayload: SubmitScorePayloadModel;
  Subscription: Record<PropertyKey, never>;
  TopUpdate: Omit<TopUpdate, 'entries'> & { entries: Array<ResolversParentTypes['Entry']> };
  UpsertPlayerInput: UpsertPlayerInput;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type EntryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Entry'] = ResolversParentTypes['Entry']> = {
  leaderboard?: Resolver<ResolversTypes['Leaderboard'], ParentType, ContextType>;
  percentile?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  player?: Resolver<ResolversTypes['Player'], ParentType, ContextType>;
  playerId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  rank?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  reachedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  score?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  sharedRank?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
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

export type LeaderboardResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Leaderboard'] = ResolversParentTypes['Leaderboard']> = {
  around?: Resolver<Maybe<ResolversTypes['RankWindow']>, ParentType, ContextType, RequireFields<LeaderboardAroundArgs, 'playerId' | 'radius'>>;
  aroundScore?: Resolver<ResolversTypes['RankWindow'], ParentType, ContextType, RequireFields<LeaderboardAroundScoreArgs, 'radius' | 'score'>>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  entries?: Resolver<ResolversTypes['EntryConnection'], ParentType, ContextType, RequireFields<LeaderboardEntriesArgs, 'first' | 'fromBottom'>>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType, RequireFields<LeaderboardEntryArgs, 'playerId'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  size?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sortOrder?: Resolver<ResolversTypes['SortOrder'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  topPercent?: Resolver<Array<ResolversTypes['Entry']>, ParentType, ContextType, RequireFields<LeaderboardTopPercentArgs, 'limit' | 'percent'>>;
  updatePolicy?: Resolver<ResolversTypes['UpdatePolicy'], ParentType, ContextType>;
};

export type LeaderboardConnectionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['LeaderboardConnection'] = ResolversParentTypes['LeaderboardConnection']> = {
  edges?: Resolver<Array<ResolversTypes['LeaderboardEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Leaderboard']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type LeaderboardEdgeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['LeaderboardEdge'] = ResolversParentTypes['LeaderboardEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Leaderboard'], ParentType, ContextType>;
};

export type MutationResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  createLeaderboard?: Resolver<ResolversTypes['Leaderboard'], ParentType, ContextType, RequireFields<MutationCreateLeaderboardArgs, 'input'>>;
  deleteLeaderboard?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationDeleteLeaderboardArgs, 'id'>>;
  removeEntry?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationRemoveEntryArgs, 'leaderboardId' | 'playerId'>>;
  submitScore?: Resolver<ResolversTypes['SubmitScorePayload'], ParentType, ContextType, RequireFields<MutationSubmitScoreArgs, 'input'>>;
  submitScores?: Resolver<Array<ResolversTypes['SubmitScorePayload']>, ParentType, ContextType, RequireFields<MutationSubmitScoresArgs, 'inputs'>>;
  upsertPlayer?: Resolver<ResolversTypes['Player'], ParentType, ContextType, RequireFields<MutationUpsertPlayerArgs, 'input'>>;
};

export type PageInfoResolvers<ContextType = Context, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PlayerResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Player'] = ResolversParentTypes['Player']> = {
  avatarUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  country?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  displayName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  entries?: Resolver<Array<Maybe<ResolversTypes['Entry']>>, ParentType, ContextType, RequireFields<QueryEntriesArgs, 'leaderboardId' | 'playerIds'>>;
  leaderboard?: Resolver<Maybe<ResolversTypes['Leaderboard']>, ParentType, ContextType, RequireFields<QueryLeaderboardArgs, 'id'>>;
  leaderboards?: Resolver<ResolversTypes['LeaderboardConnection'], ParentType, ContextType, RequireFields<QueryLeaderboardsArgs, 'first'>>;
  player?: Resolver<Maybe<ResolversTypes['Player']>, ParentType, ContextType, RequireFields<QueryPlayerArgs, 'id'>>;
};

export type RankChangeResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RankChange'] = ResolversParentTypes['RankChange']> = {
  cause?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  entry?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType>;
  previousRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  previousScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type RankWindowResolvers<ContextType = Context, ParentType extends ResolversParentTypes['RankWindow'] = ResolversParentTypes['RankWindow']> = {
  center?: Resolver<Maybe<ResolversTypes['Entry']>, ParentType, ContextType>;
  entries?: Resolver<Array<ResolversTypes['Entry']>, ParentType, ContextType>;
  total?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type SubmitScorePayloadResolvers<ContextType = Context, ParentType extends ResolversParentTypes['SubmitScorePayload'] = ResolversParentTypes['SubmitScorePayload']> = {
  changed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  entry?: Resolver<ResolversTypes['Entry'], ParentType, ContextType>;
  previousRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  previousScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  replayed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = Context, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  aroundChanged?: SubscriptionResolver<ResolversTypes['RankWindow'], "aroundChanged", ParentType, ContextType, RequireFields<SubscriptionAroundChangedArgs, 'leaderboardId' | 'playerId' | 'radius'>>;
  entrySubmitted?: SubscriptionResolver<ResolversTypes['SubmitScorePayload'], "entrySubmitted", ParentType, ContextType, RequireFields<SubscriptionEntrySubmittedArgs, 'leaderboardId'>>;
  rankChanged?: SubscriptionResolver<ResolversTypes['RankChange'], "rankChanged", ParentType, ContextType, RequireFields<SubscriptionRankChangedArgs, 'leaderboardId' | 'playerId'>>;
  topChanged?: SubscriptionResolver<ResolversTypes['TopUpdate'], "topChanged", ParentType, ContextType, RequireFields<SubscriptionTopChangedArgs, 'first' | 'leaderboardId'>>;
};

export type TopUpdateResolvers<ContextType = Context, ParentType extends ResolversParentTypes['TopUpdate'] = ResolversParentTypes['TopUpdate']> = {
  entries?: Resolver<Array<ResolversTypes['Entry']>, ParentType, ContextType>;
  version?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = Context> = {
  DateTime?: GraphQLScalarType;
  Entry?: EntryResolvers<ContextType>;
  EntryConnection?: EntryConnectionResolvers<ContextType>;
  EntryEdge?: EntryEdgeResolvers<ContextType>;
  Leaderboard?: LeaderboardResolvers<ContextType>;
  LeaderboardConnection?: LeaderboardConnectionResolvers<ContextType>;
  LeaderboardEdge?: LeaderboardEdgeResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Player?: PlayerResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  RankChange?: RankChangeResolvers<ContextType>;
  RankWindow?: RankWindowResolvers<ContextType>;
  SubmitScorePayload?: SubmitScorePayloadResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  TopUpdate?: TopUpdateResolvers<ContextType>;
};

