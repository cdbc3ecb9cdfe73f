/**
 * Contender: the fastest Node GraphQL stack we know of, Fastify + Mercurius with graphql-jit
 * (`jit: 1`: a query is compiled after its first run), serving Standings' own SDL. Its resolvers
 * cover only the fields the service bench asks for, and call the same domain methods as
 * Standings' resolvers, so each request does the same Redis work: a board read (HMGET) for
 * `leaderboard(id:)`, then one script call per field. What differs is the stack.
 */
import Fastify from 'fastify';
import { printSchema } from 'graphql';
import mercurius from 'mercurius';
import { Leaderboards } from '../../src/domain/leaderboards';
import { DateTime } from '../../src/graphql/scalars';
import { buildSchema } from '../../src/graphql/schema';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import type { BoardConfig } from '../../src/store/types';
import { hostPeer } from './host';

interface SubmitScoreInput {
  leaderboardId: string;
  playerId: string;
  score: number;
}

hostPeer(async (redis) => {
  const leaderboards = new Leaderboards(new LeaderboardStore(redis));
  const resolvers = {
    DateTime,
    Query: {
      leaderboard: (_root: unknown, { id }: { id: string }) => leaderboards.getBoard(id),
      entries: (_root: unknown, { leaderboardId, playerIds }: { leaderboardId: string; playerIds: string[] }) =>
        leaderboards.entries(leaderboardId, playerIds),
    },
    Mutation: {
      submitScore: (_root: unknown, { input }: { input: SubmitScoreInput }) =>
        leaderboards.submitOne({ boardId: input.leaderboardId, playerId: input.playerId, score: input.score }),
    },
    Leaderboard: {
      async entry(board: BoardConfig, { playerId }: { playerId: string }) {
        const [found] = await leaderboards.entries(board.id, [playerId]);
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
});
