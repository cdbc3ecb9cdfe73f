import type { LeaderboardResolvers } from '../../generated/graphql';
import { checkPageArguments } from '../../domain/validation';
import type { BoardRef, Entry, Page } from '../../store/types';
import type { Leaderboards } from '../../domain/leaderboards';
import type { Period } from '../../domain/periods/calendar';
import { onBoard, periodOf, type PeriodModel, refOf, windowOnBoard, type LeaderboardModel } from '../models';

export const Leaderboard: LeaderboardResolvers = {
  createdAt: (board) => board.createdAt * 1000,
  totalCount: (board, _args, { leaderboards }) => leaderboards.size(refOf(board, leaderboards)),
  entry: (board, { playerId }, { loaders, leaderboards }) => loaders.entries(refOf(board, leaderboards)).load(playerId),
  async entries(board, args, { leaderboards }) {
    const options = checkPageArguments(args);
    const ref = refOf(board, leaderboards);
    return connectionOf(ref, await leaderboards.page(ref, options), options.backward ?? false);
  },
  async around(board, { playerId, radius }, { leaderboards }) {
    const ref = refOf(board, leaderboards);
    const window = await leaderboards.around(ref, playerId, radius);
    return window && windowOnBoard(ref, window, { playerId, radius });
  },
  async aroundScore(board, { score, radius }, { leaderboards }) {
    const ref = refOf(board, leaderboards);
    return windowOnBoard(ref, await leaderboards.aroundScore(ref, score, radius), { score, radius });
  },
  async topPercent(board, { percent, limit }, { leaderboards }) {
    const ref = refOf(board, leaderboards);
    const { entries } = await leaderboards.topPercent(ref, percent, limit);
    return entries.map((entry) => onBoard(ref, entry));
  },
  period: (board, _args, { leaderboards }) => periodModel(board, periodOf(board, leaderboards), leaderboards),
  periods(board, { kind }, { leaderboards }) {
    const calendar = leaderboards.calendar(board.periods);
    const kept = kind == null ? calendar.allKept() : calendar.kept(kind);
    return kept.map((period) => periodModel(board, period, leaderboards));
  },
  timeZone: (board, _args, { leaderboards }) => leaderboards.calendar(board.periods).config.timeZone,
};

/** A period as `Period` shows it; TopUpdate.period and node(id:) make theirs here too, so each is the same object shape. */
export function periodModel(board: LeaderboardModel, period: Period, leaderboards: Leaderboards): PeriodModel {
  return { ...period, expiresAt: leaderboards.calendar(board.periods).expiresAt(period) };
}

type EntryConnection = ReturnType<typeof entryConnection>;

/**
 * Kept pages (src/domain/readCache.ts) are the same object for every request that reads them:
 * so is their connection, built once instead of once per request. A page is read one way only
 * (it is kept per direction), so the direction needs no part in the key.
 */
const connections = new WeakMap<Page, EntryConnection>();

function connectionOf(board: BoardRef, page: Page, backward: boolean): EntryConnection {
  let connection = connections.get(page);
  if (!connection) connections.set(page, (connection = entryConnection(board, page, backward)));
  return connection;
}

/**
 * A page (top-down) as a connection. The store knows whether more follow in the direction read;
 * the other side is told by the ranks at the page's ends against the span read: the whole board,
 * or a score range's `start` (entries above it) and `count`.
 */
export function entryConnection(board: BoardRef, page: Page, backward: boolean, span = { start: 0, count: page.total }) {
  const nodes = page.entries.map((entry) => onBoard(board, entry));
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
