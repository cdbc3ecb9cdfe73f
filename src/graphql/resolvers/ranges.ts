import type { EntryResolvers } from '../../generated/graphql';
import { checkPageArguments } from '../../domain/validation';
import { refOf } from '../models';
import { type BoardRankingReads, entryConnection } from './leaderboard';

/** The reads of schema/ranges.graphql: score ranges, scores at a position; for boards, their periods and combined views alike. */
export const RangeReads: BoardRankingReads<'entriesByScore' | 'countByScore' | 'scoreAtRank' | 'scoreAtPercentile'> = {
  async entriesByScore(ranking, args, { leaderboards }) {
    const options = checkPageArguments(args);
    const ref = refOf(ranking, leaderboards);
    const page = await leaderboards.entriesByScore(ref, { min: args.min, max: args.max }, options);
    return entryConnection(ref, page, options.backward ?? false, { start: page.rangeStart, count: page.count });
  },
  countByScore: (ranking, { min, max }, { leaderboards }) => leaderboards.countByScore(refOf(ranking, leaderboards), { min, max }),
  scoreAtRank: (ranking, { rank }, { leaderboards }) => leaderboards.scoreAtRank(refOf(ranking, leaderboards), rank),
  scoreAtPercentile: (ranking, { percent }, { leaderboards }) => leaderboards.scoreAtPercentile(refOf(ranking, leaderboards), percent),
};

export const EntryRanges: EntryResolvers = {
  // Dense ranks are kept for ALL_TIME only (docs/time-windows.md), and views keep none.
  denseRank: (entry, _args, { loaders }) => (entry.period || entry.view ? null : loaders.denseRanks(entry.boardId).load(entry.score)),
};
