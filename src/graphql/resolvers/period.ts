import type { PeriodResolvers } from '../../generated/graphql';
import { encodeNodeId } from '../nodeIds';

/** A period's own fields; its reads are the board's (RankingReads, RangeReads). */
export const Period: PeriodResolvers = {
  id: (period) => encodeNodeId({ type: 'Period', boardId: period.board.id, period }),
  expiresAt: (period, _args, { leaderboards }) => leaderboards.calendar(period.board.periods).expiresAt(period),
  leaderboard: (period) => period.board,
};
