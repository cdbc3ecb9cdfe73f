import type { EntryResolvers, LeaderboardEntriesByScoreArgs, LeaderboardResolvers } from '../../generated/graphql';
import { badInput } from '../../errors';
import type { PageOptions, RangePage } from '../../store/types';
import { onBoard } from '../models';

/** The reads of schema/ranges.graphql: score ranges, scores at a position, dense ranks. */
export const LeaderboardRanges: LeaderboardResolvers = {
  async entriesByScore(board, args, { leaderboards }) {
    const options = pageOptions(args);
    const page = await leaderboards.entriesByScore(board.id, { min: args.min, max: args.max }, options);
    return rangeConnection(board.id, page, options.fromBottom ?? false);
  },
  countByScore: (board, { min, max }, { leaderboards }) => leaderboards.countByScore(board.id, { min, max }),
  scoreAtRank: (board, { rank }, { leaderboards }) => leaderboards.scoreAtRank(board.id, rank),
  scoreAtPercentile: (board, { percent }, { leaderboards }) => leaderboards.scoreAtPercentile(board.id, percent),
};

export const EntryRanges: EntryResolvers = {
  denseRank: (entry, _args, { loaders }) => loaders.denseRanks(entry.boardId).load(entry.score),
};

const DEFAULT_PAGE_SIZE = 10;

/** `first`/`after` read down from the range's top, `last`/`before` up from its bottom. */
function pageOptions({ first, after, last, before, offset }: LeaderboardEntriesByScoreArgs): PageOptions {
  if (first != null && last != null) throw badInput('pass first or last, not both', { field: 'last' });
  const fromBottom = last != null || before != null;
  if (fromBottom && after != null) throw badInput('after goes with first, before with last: pass one of them', { field: 'after' });
  if (fromBottom && first != null) throw badInput('before goes with last, not first', { field: 'before' });
  return {
    limit: (fromBottom ? last : first) ?? DEFAULT_PAGE_SIZE,
    offset: offset ?? undefined,
    after: (fromBottom ? before : after) ?? undefined,
    fromBottom,
  };
}

/**
 * A page of a score range (top-down) as a connection: whether entries of the range follow or
 * precede it is known from the store (in the direction read) and from where the range starts
 * and ends (the other way).
 */
function rangeConnection(boardId: string, page: RangePage, fromBottom: boolean) {
  const nodes = page.entries.map((entry) => onBoard(boardId, entry));
  const edges = nodes.map((node, i) => ({ cursor: page.entries[i].cursor, node }));
  const firstRank = page.entries[0]?.rank;
  const lastRank = page.entries[page.entries.length - 1]?.rank;
  return {
    nodes,
    edges,
    totalCount: page.total,
    pageInfo: {
      hasNextPage: fromBottom ? lastRank !== undefined && lastRank < page.rangeStart + page.count : page.hasMore,
      hasPreviousPage: fromBottom ? page.hasMore : firstRank !== undefined && firstRank > page.rangeStart + 1,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
