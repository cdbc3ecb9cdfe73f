import type { LeaderboardResolvers } from '../../generated/graphql';
import type { Entry, Page } from '../../store/types';
import { onBoard, windowOnBoard } from '../models';

export const Leaderboard: LeaderboardResolvers = {
  createdAt: (board) => board.createdAt * 1000,
  size: (board, _args, { leaderboards }) => leaderboards.size(board.id),
  entry: (board, { playerId }, { loaders }) => loaders.entries(board.id).load(playerId),
  async entries(board, { first, after, offset, fromBottom }, { leaderboards }) {
    const page = await leaderboards.page(board.id, {
      limit: first,
      after: after ?? undefined,
      offset: offset ?? undefined,
      fromBottom: fromBottom ?? false,
    });
    return connectionOf(board.id, page, fromBottom ?? false);
  },
  async around(board, { playerId, radius }, { leaderboards }) {
    const window = await leaderboards.around(board.id, playerId, radius);
    return window && windowOnBoard(board.id, window);
  },
  async aroundScore(board, { score, radius }, { leaderboards }) {
    return windowOnBoard(board.id, await leaderboards.aroundScore(board.id, score, radius));
  },
  async topPercent(board, { percent, limit }, { leaderboards }) {
    const { entries } = await leaderboards.topPercent(board.id, percent, limit);
    return entries.map((entry) => onBoard(board.id, entry));
  },
};

type EntryConnection = ReturnType<typeof entryConnection>;

/**
 * Kept pages (src/domain/readCache.ts) are the same object for every request that reads them:
 * so is their connection, built once instead of once per request.
 */
const connections = new WeakMap<Page, EntryConnection>();

function connectionOf(boardId: string, page: Page, fromBottom: boolean): EntryConnection {
  let connection = connections.get(page);
  if (!connection) connections.set(page, (connection = entryConnection(boardId, page, fromBottom)));
  return connection;
}

function entryConnection(boardId: string, page: Page, fromBottom: boolean) {
  const nodes = page.entries.map((entry) => onBoard(boardId, entry));
  const first: Entry | undefined = page.entries[0];
  const last: Entry | undefined = page.entries[page.entries.length - 1];
  return {
    nodes,
    edges: nodes.map((node, i) => ({ cursor: page.entries[i].cursor, node })),
    totalCount: page.total,
    pageInfo: {
      hasNextPage: page.hasMore,
      // Whether anything precedes this page in the direction read, from the first entry's rank.
      hasPreviousPage: first !== undefined && (fromBottom ? first.rank < page.total : first.rank > 1),
      startCursor: first?.cursor ?? null,
      endCursor: last?.cursor ?? null,
    },
  };
}
