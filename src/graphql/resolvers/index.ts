import type { Resolvers } from '../../generated/graphql';
import { DateTime } from '../scalars';
import { Entry } from './entry';
import { Leaderboard } from './leaderboard';
import { Mutation } from './mutation';
import { Query } from './query';

export const resolvers: Resolvers = { DateTime, Query, Mutation, Leaderboard, Entry };
