import type Redis from 'ioredis';
import { GRAPHQL_PATH, createStandingsServer, type StandingsServer } from './app';
import { ConfigError, loadConfig } from './config';
import { type ManagedRedis, startManagedRedis } from './managedRedis';
import { createRedisClient, waitUntilReady } from './redis';

/**
 * Start-up order: configuration, Redis (a private one when REDIS_URL is unset), a PING, and only
 * then the HTTP listener. Shutdown runs the other way round.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = console;
  const started: { managed?: ManagedRedis; redis?: Redis; server?: StandingsServer } = {};

  const shutdown = async () => {
    await started.server?.stop();
    await started.redis?.quit().catch(() => started.redis?.disconnect());
    await started.managed?.stop();
  };

  try {
    let redisUrl = config.redisUrl;
    if (redisUrl === null) {
      started.managed = await startManagedRedis({
        persistence: 'aof',
        dataDir: config.redisDataDir,
        readyTimeoutMs: config.redisReadyTimeoutMs,
      });
      redisUrl = started.managed.url;
      logger.info(`REDIS_URL is unset: started redis-server at ${redisUrl} with data in ${config.redisDataDir}`);
    }
    started.redis = createRedisClient(redisUrl, logger);
    await waitUntilReady(started.redis, redisUrl, config.redisReadyTimeoutMs);
    started.server = await createStandingsServer({ redis: started.redis, nodeEnv: config.nodeEnv, logger });
    const url = await started.server.listen(config.port, config.host);
    logger.info(`Standings GraphQL API ready at ${url}${GRAPHQL_PATH} (NODE_ENV=${config.nodeEnv})`);
  } catch (err) {
    await shutdown();
    throw err;
  }

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn(`${signal} again: exiting without waiting`);
        process.exit(1);
      }
      stopping = true;
      logger.info(`${signal}: finishing in-flight requests, then stopping`);
      shutdown().then(
        () => {
          logger.info('Stopped');
          process.exit(0);
        },
        (err: unknown) => {
          logger.error(`Shutdown failed: ${(err as Error).stack ?? String(err)}`);
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : `Standings failed to start: ${(err as Error).message ?? err}`);
  process.exit(1);
});
