import type { Resolvers } from '../../generated/graphql';
import { guardMutations } from '../access';
import { isPeriod } from '../models';
import { DateTime } from '../scalars';
import { CleanupMutation } from './cleanup';
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
  // A board and each of its periods are rankings on one board, read by one set of resolvers.
  Leaderboard: { ...Leaderboard, ...RankingReads, ...RangeReads },
  Period: { ...Period, ...RankingReads, ...RangeReads },
  LeaderboardConnection,
  Entry: { ...Entry, ...EntryRanges },
  Node,
  // Each kind of ranking is its own type.
  Ranking: { __resolveType: (ranking) => (isPeriod(ranking) ? 'Period' : 'Leaderboard') },
  Subscription,
};
