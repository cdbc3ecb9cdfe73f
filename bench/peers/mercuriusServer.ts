/**
 * The fastest Node GraphQL stack we know of, Fastify + Mercurius with graphql-jit (`jit: 1`: a
 * query is compiled after its first run), serving Standings' own SDL. Its resolvers cover only
 * the fields the service bench asks for, and call the same domain methods as Standings'
 * resolvers, asking for the same entry fields (no shared rank unless the query selects one).
 * With `cacheReads`, the domain object has Standings' read cache, wired as Standings wires it
 * (its own event subscription), so both do the same Redis work and what differs is the stack
 * (./mercurius-cached.ts); without, the board lookup of `leaderboard(id:)` and the top pages go
 * to Redis on every request, as a stack without that cache would (./mercurius.ts).
 */
import Fastify from 'fastify';
import { type GraphQLResolveInfo, printSchema } from 'graphql';
import mercurius from 'mercurius';
import type Redis from 'ioredis';
import { Leaderboards } from '../../src/domain/leaderboards';
import { ReadCache } from '../../src/domain/readCache';
import { createSubscriberClient } from '../../src/server/redis';
import { EventBridge } from '../../src/store/eventBridge';
import { DateTime } from '../../src/graphql/scalars';
import { buildSchema } from '../../src/graphql/schema';
import { entryFieldsOf } from '../../src/graphql/selection';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import type { BoardConfig } from '../../src/model';
import type { RunningPeer } from './host';

interface SubmitScoreInput {
  leaderboardId: string;
  playerId: string;
  score: number;
}

export async function startMercurius(redis: Redis, cacheReads: boolean): Promise<RunningPeer> {
  const cache = cacheReads ? new ReadCache(new EventBridge(createSubscriberClient(redis), console)) : undefined;
  const leaderboards = new Leaderboards(new LeaderboardStore(redis), cache);
  const resolvers = {
    DateTime,
    Query: {
      leaderboard: (_root: unknown, { id }: { id: string }) => leaderboards.getBoard(id),
      entries: (_root: unknown, { leaderboardId, playerIds }: { leaderboardId: string; playerIds: string[] }, _context: unknown, info: GraphQLResolveInfo) =>
        leaderboards.entries(leaderboardId, playerIds, entryFieldsOf(info)),
    },
    Mutation: {
      async submitScore(_root: unknown, { input }: { input: SubmitScoreInput }) {
        const [result] = await leaderboards.submit([{ boardId: input.leaderboardId, playerId: input.playerId, score: input.score }]);
        return result;
      },
    },
    Leaderboard: {
      async entry(board: BoardConfig, { playerId }: { playerId: string }, _context: unknown, info: GraphQLResolveInfo) {
        const [found] = await leaderboards.entries(board.id, [playerId], entryFieldsOf(info));
        return found;
      },
      async entries(board: BoardConfig, { first }: { first: number }) {
        return { nodes: (await leaderboards.page(board.id, { limit: first })).entries };
      },
      around: (board: BoardConfig, { playerId, radius }: { playerId: string; radius: number }) =>
        leaderboards.around(board.id, playerId, radius),
    },
  };
  const app = Fastify({ logger: false });
  await app.register(mercurius, { schema: printSchema(buildSchema()), resolvers, jit: 1, path: '/graphql' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}/graphql`, close: () => app.close() };
}
