import type { EntryResolvers, LeaderboardResolvers } from '../../generated/graphql';
import { checkPageArguments } from '../../domain/validation';
import { refOf } from '../models';
import { entryConnection } from './leaderboard';

/** The reads of schema/ranges.graphql: score ranges, scores at a position, dense ranks. */
export const LeaderboardRanges: LeaderboardResolvers = {
  async entriesByScore(board, args, { leaderboards }) {
    const options = checkPageArguments(args);
    const ref = refOf(board, leaderboards);
    const page = await leaderboards.entriesByScore(ref, { min: args.min, max: args.max }, options);
    return entryConnection(ref, page, options.backward ?? false, { start: page.rangeStart, count: page.count });
  },
  countByScore: (board, { min, max }, { leaderboards }) => leaderboards.countByScore(refOf(board, leaderboards), { min, max }),
  scoreAtRank: (board, { rank }, { leaderboards }) => leaderboards.scoreAtRank(refOf(board, leaderboards), rank),
  scoreAtPercentile: (board, { percent }, { leaderboards }) => leaderboards.scoreAtPercentile(refOf(board, leaderboards), percent),
};

export const EntryRanges: EntryResolvers = {
  // Dense ranks are kept for ALL_TIME only (README, Time windows).
  denseRank: (entry, _args, { loaders }) => (entry.period ? null : loaders.denseRanks(entry.boardId).load(entry.score)),
};
