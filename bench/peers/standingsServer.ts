/**
 * Standings as src/server/main.ts wires it, from the same configuration (the environment that
 * ./launch.ts gives every peer), with an optional store in place of the real one.
 */
import type Redis from 'ioredis';
import type { LeaderboardStore } from '../../src/store/leaderboardStore';
import { createStandingsServer, GRAPHQL_PATH } from '../../src/server/app';
import { ApiKeys } from '../../src/server/auth/apiKeys';
import { fixHeapGrowth } from '../../src/server/heapGrowth';
import { loadConfig } from '../../src/server/config';
import { createLogger } from '../../src/server/logger';
import type { RunningPeer } from './host';

/** `fastLane: false`: every HTTP request through Apollo, without the fast lane (see standings-apollo.ts). */
export async function startStandings(redis: Redis, store?: LeaderboardStore, { fastLane = true } = {}): Promise<RunningPeer> {
  // As src/server/main.ts sets it for the process that serves.
  fixHeapGrowth();
  const config = loadConfig();
  const server = await createStandingsServer({
    redis,
    nodeEnv: config.nodeEnv,
    logger: createLogger(config.logLevel),
    access: { keys: new ApiKeys(config.apiKeys), anonymousReads: config.anonymousReads },
    rateLimits: config.rateLimits,
    trustProxyHops: config.trustProxyHops,
    store,
    fastLane,
  });
  return { url: `${await server.listen(0, '127.0.0.1')}${GRAPHQL_PATH}`, close: () => server.stop() };
}
