import type { Resolvers } from '../../generated/graphql';
import { guardMutations } from '../mutationGuard';
import { isPeriod, isView } from '../models';
import { DateTime } from '../scalars';
import { CleanupMutation } from './cleanup';
import { CombinedView } from './combined';
import { Entry } from './entry';
import { Leaderboard, RankingReads } from './leaderboard';
import { Mutation } from './mutation';
import { Node } from './node';
import { Period } from './period';
import { LeaderboardConnection, Query } from './query';
import { EntryRanges, RangeReads } from './ranges';
import { Subscription } from './subscription';

export const resolvers: Resolvers = {
  DateTime,
  Query,
  Mutation: guardMutations({ ...Mutation, ...CleanupMutation }),
  // A board, each of its periods and combined views are rankings, read by one set of resolvers.
  Leaderboard: { ...Leaderboard, ...RankingReads, ...RangeReads },
  Period: { ...Period, ...RankingReads, ...RangeReads },
  CombinedView: { ...CombinedView, ...RankingReads, ...RangeReads },
  LeaderboardConnection,
  Entry: { ...Entry, ...EntryRanges },
  Node,
  // Each kind of ranking is its own type.
  Ranking: { __resolveType: (ranking) => (isView(ranking) ? 'CombinedView' : isPeriod(ranking) ? 'Period' : 'Leaderboard') },
  Subscription,
};
