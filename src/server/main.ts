import type { Cluster, Redis } from 'ioredis';
import type { ManagedRedis } from '../dev/managedRedis';
import { GRAPHQL_PATH, createStandingsServer, type StandingsServer } from './app';
import { ApiKeys, generateKey, hashKey } from './auth/apiKeys';
import { type Config, ConfigError, loadConfig } from './config';
import { createLogger, type Logger } from './logger';
import { createClient, type RedisTarget, waitUntilReady } from './redis';

/**
 * Start-up order: configuration, Redis (in development, a private one when neither REDIS_URL nor
 * REDIS_CLUSTER_NODES is set), a PING, and only then the HTTP listener. Shutdown runs the other
 * way round, within SHUTDOWN_GRACE_MS.
 */
async function main(config: Config, logger: Logger): Promise<void> {
  const started: { managed?: ManagedRedis; redis?: Redis | Cluster; server?: StandingsServer } = {};

  const shutdown = async () => {
    await started.server?.stop();
    await started.redis?.quit().catch(() => started.redis?.disconnect());
    await started.managed?.stop();
  };

  try {
    let where: RedisTarget | null = config.redisCluster ?? config.redisUrl;
    if (where === null) {
      // Never in production: config.ts refuses it without a Redis. Loaded here only, so that
      // production never loads development tooling; require because this CommonJS build hands
      // import() to Node's ESM resolver, which finds no .ts file under ts-node.
      const { startManagedRedis } = require('../dev/managedRedis') as typeof import('../dev/managedRedis');
      started.managed = await startManagedRedis({
        dataDir: config.redisDataDir,
        appendfsync: config.redisAppendfsync,
        readyTimeoutMs: config.redisReadyTimeoutMs,
      });
      // Exits that cannot wait for shutdown (a second signal, SHUTDOWN_GRACE_MS) must not leave it
      // running; SIGTERM still lets it flush its append-only file.
      process.once('exit', () => started.managed?.kill('SIGTERM'));
      where = started.managed.url;
      logger.info(`REDIS_URL is unset: started redis-server at ${where} with data in ${config.redisDataDir}`);
    }
    started.redis = createClient(where, logger, { commandTimeoutMs: config.redisCommandTimeoutMs });
    await waitUntilReady(started.redis, where, config.redisReadyTimeoutMs);
    const development = developmentKey(config, logger);
    started.server = await createStandingsServer({
      redis: started.redis,
      nodeEnv: config.nodeEnv,
      logger,
      access: { keys: new ApiKeys([...config.apiKeys, ...(development ? [development.apiKey] : [])]), anonymousReads: config.anonymousReads },
      explorer: config.explorer,
      developmentKey: development?.key,
      rateLimits: config.rateLimits,
      trustProxyHops: config.trustProxyHops,
      corsOrigins: config.corsOrigins,
      drainMs: drainBudget(config.shutdownGraceMs),
    });
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
      // The promise made to whoever sent the signal (an orchestrator about to SIGKILL us).
      setTimeout(() => {
        logger.error(`Shutdown took longer than SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms): exiting anyway`);
        process.exit(1);
      }, config.shutdownGraceMs).unref();
      // pino writes in the background: exiting at once could cut the last lines, or let one
      // written just before them land after them.
      const exitAfterLogs = (code: number) => (logger.flush ? logger.flush(() => process.exit(code)) : process.exit(code));
      shutdown().then(
        () => {
          logger.info('Stopped');
          exitAfterLogs(0);
        },
        (err: unknown) => {
          logger.error(`Shutdown failed: ${(err as Error).stack ?? String(err)}`);
          exitAfterLogs(1);
        },
      );
    });
  }
}

/**
 * `npm start` on a developer's machine with no keys configured: rather than run open, make an
 * admin key for this run and print it, so the explorer and curl can write.
 */
function developmentKey(config: Config, logger: Logger) {
  if (config.nodeEnv !== 'development' || config.apiKeys.length > 0) return undefined;
  const key = generateKey();
  logger.info(`No API keys configured (STANDINGS_API_KEYS): this run's admin key is ${key} (send "Authorization: Bearer ${key}")`);
  return { key, apiKey: { role: 'admin' as const, boardPrefix: null, hash: hashKey(key) } };
}

/**
 * Requests in flight get most of the grace period; the rest is kept for closing Redis (and the
 * managed redis-server, which fsyncs its append-only file) after them.
 */
const drainBudget = (graceMs: number) => graceMs - Math.min(2_000, Math.floor(graceMs / 4));

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // No logger yet: its level is part of the configuration that failed.
  console.error(err instanceof ConfigError ? err.message : String(err));
  process.exit(1);
}
const logger = createLogger(config.logLevel);
main(config, logger).catch((err: unknown) => {
  logger.error(`Standings failed to start: ${(err as Error).message ?? err}`);
  process.exit(1);
});
