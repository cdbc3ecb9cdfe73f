import type { LeaderboardResolvers, PeriodResolvers, Resolver, ResolverFn } from '../../generated/graphql';
import { checkPageArguments } from '../../domain/validation';
import type { Entry, Page, RankingRef } from '../../model';
import type { Context } from '../context';
import { type BoardRankingModel, entriesOnBoard, type LeaderboardModel, periodOnBoard, refOf, windowOnBoard } from '../models';
import { entryFieldsOf } from '../selection';

/**
 * Resolvers of `Ranking` reads for any ranking (a Leaderboard, a Period or a CombinedView): the
 * generated types of Leaderboard's fields, taking any of them as parent.
 */
export type BoardRankingReads<F extends keyof LeaderboardResolvers & keyof PeriodResolvers> = {
  [K in F]-?: NonNullable<LeaderboardResolvers[K]> extends Resolver<infer T, LeaderboardModel, Context, infer A> ? ResolverFn<T, BoardRankingModel, Context, A> : never;
};

/** The reads of schema/ranking.graphql but the score ranges (ranges.ts): one set for boards, their periods and combined views. */
export const RankingReads: BoardRankingReads<'totalCount' | 'entry' | 'entries' | 'around' | 'aroundScore' | 'topPercent'> = {
  totalCount: (ranking, _args, { leaderboards }) => leaderboards.size(refOf(ranking, leaderboards)),
  entry: (ranking, { playerId }, { loaders, leaderboards }, info) => loaders.entries(refOf(ranking, leaderboards), entryFieldsOf(info)).load(playerId),
  async entries(ranking, args, { leaderboards }) {
    const options = checkPageArguments(args);
    const ref = refOf(ranking, leaderboards);
    return connectionOf(ref, await leaderboards.page(ref, options), options.backward ?? false);
  },
  async around(ranking, { playerId, radius }, { leaderboards }) {
    const ref = refOf(ranking, leaderboards);
    const window = await leaderboards.around(ref, playerId, radius);
    return window && windowOnBoard(ref, window, { playerId, radius });
  },
  async aroundScore(ranking, { score, radius }, { leaderboards }) {
    const ref = refOf(ranking, leaderboards);
    return windowOnBoard(ref, await leaderboards.aroundScore(ref, score, radius), { score, radius });
  },
  async topPercent(ranking, { percent, limit }, { leaderboards }) {
    const ref = refOf(ranking, leaderboards);
    const { entries } = await leaderboards.topPercent(ref, percent, limit);
    return entriesOnBoard(ref, entries);
  },
};

export const Leaderboard: LeaderboardResolvers = {
  createdAt: (board) => board.createdAt * 1000,
  // A bad or expired `of` nulls this field alone, with its error; the current season between seasons is null alone.
  period(board, args, { leaderboards }) {
    const period = leaderboards.periodOrNone(board, args.of, 'of');
    return period && periodOnBoard(board, period);
  },
  periods: async (board, { kind }, { leaderboards }) => (await leaderboards.listedPeriods(board, kind)).map((period) => periodOnBoard(board, period)),
  nextSeason(board, _args, { leaderboards }) {
    const season = leaderboards.calendar(board.periods).nextSeason();
    return season && periodOnBoard(board, season);
  },
  timeZone: (board, _args, { leaderboards }) => leaderboards.calendar(board.periods).config.timeZone,
  cycle: (board, _args, { leaderboards }) => leaderboards.calendar(board.periods).config.cycle ?? null,
};

type EntryConnection = ReturnType<typeof entryConnection>;

/**
 * Kept pages (src/domain/readCache.ts) are the same object for every request that reads them:
 * so is their connection, built once instead of once per request. A page is read one way only
 * (it is kept per direction), so the direction needs no part in the key.
 */
const connections = new WeakMap<Page, EntryConnection>();

function connectionOf(board: RankingRef, page: Page, backward: boolean): EntryConnection {
  let connection = connections.get(page);
  if (!connection) connections.set(page, (connection = entryConnection(board, page, backward)));
  return connection;
}

/**
 * A page (top-down) as a connection. The store knows whether more follow in the direction read;
 * the other side is told by the ranks at the page's ends against the span read: the whole board,
 * or a score range's `start` (entries above it) and `count`.
 */
export function entryConnection(board: RankingRef, page: Page, backward: boolean, span = { start: 0, count: page.total }) {
  const nodes = entriesOnBoard(board, page.entries);
  const first: Entry | undefined = page.entries[0];
  const last: Entry | undefined = page.entries[page.entries.length - 1];
  return {
    nodes,
    edges: nodes.map((node, i) => ({ cursor: page.entries[i].cursor, node })),
    totalCount: page.total,
    pageInfo: {
      hasNextPage: backward ? last !== undefined && last.rank < span.start + span.count : page.hasMore,
      hasPreviousPage: backward ? page.hasMore : first !== undefined && first.rank > span.start + 1,
      startCursor: first?.cursor ?? null,
      endCursor: last?.cursor ?? null,
    },
  };
}
