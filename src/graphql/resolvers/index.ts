import type { Resolvers } from '../../generated/graphql';
import { guardMutations } from '../access';
import { DateTime } from '../scalars';
import { CleanupMutation } from './cleanup';
import { Entry } from './entry';
import { Leaderboard } from './leaderboard';
import { Mutation } from './mutation';
import { Node } from './node';
import { LeaderboardConnection, Query } from './query';
import { EntryRanges, LeaderboardRanges } from './ranges';
import { Subscription } from './subscription';

export const resolvers: Resolvers = {
  DateTime,
  Query,
  Mutation: guardMutations({ ...Mutation, ...CleanupMutation }),
  Leaderboard: { ...Leaderboard, ...LeaderboardRanges },
  LeaderboardConnection,
  Entry: { ...Entry, ...EntryRanges },
  Node,
  // Each kind of ranking is its own type; only boards are rankings so far.
  Ranking: { __resolveType: () => 'Leaderboard' },
  Subscription,
};
