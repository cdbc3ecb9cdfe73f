import type { EntryResolvers, LeaderboardResolvers } from '../../generated/graphql';
import type { RangePage } from '../../store/types';
import { onBoard } from '../models';

/** The reads of schema/ranges.graphql: score ranges, scores at a position, dense ranks. */
export const LeaderboardRanges: LeaderboardResolvers = {
  async entriesByScore(board, { min, max, first, after, offset, fromBottom }, { leaderboards }) {
    const page = await leaderboards.entriesByScore(board.id, { min, max }, {
      limit: first,
      after: after ?? undefined,
      offset: offset ?? undefined,
      fromBottom: fromBottom ?? false,
    });
    return rangeConnection(board.id, page, fromBottom ?? false);
  },
  countByScore: (board, { min, max }, { leaderboards }) => leaderboards.countByScore(board.id, { min, max }),
  scoreAtRank: (board, { rank }, { leaderboards }) => leaderboards.scoreAtRank(board.id, rank),
  scoreAtPercentile: (board, { percent }, { leaderboards }) => leaderboards.scoreAtPercentile(board.id, percent),
};

export const EntryRanges: EntryResolvers = {
  denseRank: (entry, _args, { loaders }) => loaders.denseRanks(entry.boardId).load(entry.score),
};

/**
 * A page of a score range as a connection: `totalCount` counts the range, and whether anything
 * precedes the page (in the direction read) is known from where the range starts and ends.
 */
function rangeConnection(boardId: string, page: RangePage, fromBottom: boolean) {
  const nodes = page.entries.map((entry) => onBoard(boardId, entry));
  const edges = nodes.map((node, i) => ({ cursor: page.entries[i].cursor, node }));
  const firstRank = page.entries[0]?.rank;
  const rangeEnd = page.rangeStart + page.count;
  return {
    nodes,
    edges,
    totalCount: page.count,
    pageInfo: {
      hasNextPage: page.hasMore,
      hasPreviousPage: firstRank !== undefined && (fromBottom ? firstRank < rangeEnd : firstRank > page.rangeStart + 1),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
