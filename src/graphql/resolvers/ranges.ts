import type { EntryResolvers, LeaderboardResolvers } from '../../generated/graphql';
import { checkPageArguments } from '../../domain/validation';
import type { BoardRef, RangePage } from '../../store/types';
import { onBoard, refOf } from '../models';

/** The reads of schema/ranges.graphql: score ranges, scores at a position, dense ranks. */
export const LeaderboardRanges: LeaderboardResolvers = {
  async entriesByScore(board, args, { leaderboards }) {
    const options = checkPageArguments(args);
    const ref = refOf(board, leaderboards);
    const page = await leaderboards.entriesByScore(ref, { min: args.min, max: args.max }, options);
    return rangeConnection(ref, page, options.backward ?? false);
  },
  countByScore: (board, { min, max }, { leaderboards }) => leaderboards.countByScore(refOf(board, leaderboards), { min, max }),
  scoreAtRank: (board, { rank }, { leaderboards }) => leaderboards.scoreAtRank(refOf(board, leaderboards), rank),
  scoreAtPercentile: (board, { percent }, { leaderboards }) => leaderboards.scoreAtPercentile(refOf(board, leaderboards), percent),
};

export const EntryRanges: EntryResolvers = {
  // Dense ranks are kept for ALL_TIME only (README, Time windows).
  denseRank: (entry, _args, { loaders }) => (entry.period ? null : loaders.denseRanks(entry.boardId).load(entry.score)),
};

/**
 * A page of a score range (top-down) as a connection: whether entries of the range follow or
 * precede it is known from the store (in the direction read) and from where the range starts
 * and ends (the other way).
 */
function rangeConnection(board: BoardRef, page: RangePage, backward: boolean) {
  const nodes = page.entries.map((entry) => onBoard(board, entry));
  const edges = nodes.map((node, i) => ({ cursor: page.entries[i].cursor, node }));
  const firstRank = page.entries[0]?.rank;
  const lastRank = page.entries[page.entries.length - 1]?.rank;
  return {
    nodes,
    edges,
    totalCount: page.total,
    pageInfo: {
      hasNextPage: backward ? lastRank !== undefined && lastRank < page.rangeStart + page.count : page.hasMore,
      hasPreviousPage: backward ? page.hasMore : firstRank !== undefined && firstRank > page.rangeStart + 1,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
