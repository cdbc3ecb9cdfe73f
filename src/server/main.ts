import cluster from 'node:cluster';
import * as os from 'node:os';
import type { Cluster, Redis } from 'ioredis';
import type { ManagedRedis } from '../dev/managedRedis';
import { GRAPHQL_PATH, createStandingsServer, type StandingsServer } from './app';
import { type ApiKey, ApiKeys, generateKey, hashKey } from './auth/apiKeys';
import { type Config, ConfigError, loadConfig } from './config';
import { fixHeapGrowth } from './heapGrowth';
import { createLogger, type Logger } from './logger';
import { countUnhandledRejection } from './metrics';
import { handleProcessFailures } from './processFailures';
import { createClient, type RedisTarget, waitUntilReady } from './redis';
import { greetsPerson, welcomeText } from './welcome';
import { joinPrimary, superviseWorkers, WORKER_HEADER } from './workers';

/**
 * Start-up order: configuration, Redis (in development, a private one when no Redis is
 * configured), a PING, and only then the HTTP listener. Shutdown runs the other way round,
 * within SHUTDOWN_GRACE_MS. With STANDINGS_WORKERS above 1 this process is the primary of
 * src/server/workers.ts: it starts development's Redis and key once and forks the workers, which
 * each run `serve` on their own Redis connections.
 */
async function main(config: Config, logger: Logger): Promise<void> {
  // The primary set REDIS_URL for its workers when it started development's Redis.
  if (cluster.isWorker) return serve(config, logger, redisTarget(config)!);
  let managed: ManagedRedis | undefined;
  const starting = stopWhileStarting(logger);
  try {
    let where = redisTarget(config);
    if (where === null) {
      managed = await startDevelopmentRedis(config, logger);
      where = managed.url;
    }
    if (config.workers === 1) return await serve(config, logger, where, developmentKey(config, logger), managed, starting);
    const development = developmentKey(config, logger);
    // From here the supervisor takes the signals, to stop the workers it forks.
    starting.done();
    const url = await superviseWorkers({
      workers: config.workers,
      // The workers read the same environment, plus what this process decided for all of them.
      env: {
        ...(managed ? { REDIS_URL: managed.url } : {}),
        ...(development ? { STANDINGS_API_KEYS: `admin:${development.key}` } : {}),
      },
      shutdownGraceMs: config.shutdownGraceMs,
      logger,
      release: async () => managed?.stop(),
    });
    logger.info(`Standings GraphQL API ready at ${url}${GRAPHQL_PATH} (NODE_ENV=${config.nodeEnv}, ${config.workers} workers)`);
    welcome(config, url, development);
  } catch (err) {
    await managed?.stop();
    throw err;
  }
}

/**
 * Until the server's own handlers take over, a SIGINT or SIGTERM ends start-up at once: the
 * 'exit' handlers stop development's Redis (startDevelopmentRedis), which Node's default
 * handling of the signal would leave running without its owner.
 */
function stopWhileStarting(logger: Logger): { done(): void } {
  const stop = (signal: NodeJS.Signals) => {
    logger.info(`${signal} while starting: stopping`);
    process.exit(128 + os.constants.signals[signal]);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    done: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

function redisTarget(config: Config): RedisTarget | null {
  return config.redisCluster ?? config.redisSentinel ?? config.redisUrl;
}

async function startDevelopmentRedis(config: Config, logger: Logger): Promise<ManagedRedis> {
  // Never in production: config.ts refuses it without a Redis. Loaded here only, so that
  // production never loads development tooling; require because this CommonJS build hands
  // import() to Node's ESM resolver, which finds no .ts file under ts-node.
  const { startManagedRedis } = require('../dev/managedRedis') as typeof import('../dev/managedRedis');
  const managed = await startManagedRedis({
    dataDir: config.redisDataDir,
    appendfsync: config.redisAppendfsync,
    readyTimeoutMs: config.redisReadyTimeoutMs,
  });
  // Exits that cannot wait for shutdown (a second signal, SHUTDOWN_GRACE_MS) must not leave it
  // running; SIGTERM still lets it flush its append-only file.
  process.once('exit', () => managed.kill('SIGTERM'));
  logger.info(`REDIS_URL is unset: started redis-server at ${managed.url} with data in ${config.redisDataDir}`);
  return managed;
}

/** One process serving the port: the only one, or one of the workers. */
async function serve(
  config: Config,
  logger: Logger,
  where: RedisTarget,
  development?: DevelopmentKey,
  managed?: ManagedRedis,
  starting?: { done(): void },
): Promise<void> {
  fixHeapGrowth();
  handleProcessFailures(process, logger, countUnhandledRejection);
  const started: { redis?: Redis | Cluster; server?: StandingsServer } = {};
  const shutdown = async () => {
    await started.server?.stop();
    await started.redis?.quit().catch(() => started.redis?.disconnect());
    await managed?.stop();
  };
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${reason}: finishing in-flight requests, then stopping`);
    // The promise made to whoever sent the signal (an orchestrator about to SIGKILL us).
    setTimeout(() => {
      logger.error(`Shutdown took longer than SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms): exiting anyway`);
      process.exit(1);
    }, config.shutdownGraceMs).unref();
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
  };
  // A worker is stopped by its primary, even while it starts: it holds nothing that needs more than exiting then.
  const primary = cluster.isWorker ? joinPrimary((reason) => (started.server ? stop(reason) : process.exit(1))) : undefined;

  try {
    started.redis = createClient(where, logger, { commandTimeoutMs: config.redisCommandTimeoutMs, replication: config.redisReplication });
    await waitUntilReady(started.redis, where, config.redisReadyTimeoutMs);
    started.server = await createStandingsServer({
      redis: started.redis,
      nodeEnv: config.nodeEnv,
      logger,
      access: { keys: new ApiKeys([...config.apiKeys, ...(development ? [development.apiKey] : [])]), anonymousReads: config.anonymousReads },
      explorer: config.explorer,
      developmentKey: development?.key,
      rateLimits: config.rateLimits,
      liveCostLimits: config.liveCostLimits,
      trustProxyHops: config.trustProxyHops,
      maxConnectionsPerIp: config.maxConnectionsPerIp,
      httpTimeouts: config.httpTimeouts,
      corsOrigins: config.corsOrigins,
      drainMs: drainBudget(config.shutdownGraceMs),
      combinedViewTtlMs: config.combinedViewTtlMs,
      viewEntriesPerRequest: config.viewEntriesPerRequest,
    });
    if (primary) started.server.httpServer.prependListener('request', (_req, res) => res.setHeader(WORKER_HEADER, primary.worker));
    const url = await started.server.listen(config.port, config.host);
    if (primary) primary.ready(url);
    else {
      logger.info(`Standings GraphQL API ready at ${url}${GRAPHQL_PATH} (NODE_ENV=${config.nodeEnv})`);
      welcome(config, url, development);
    }
  } catch (err) {
    await shutdown();
    throw err;
  }

  starting?.done();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn(`${signal} again: exiting without waiting`);
        process.exit(1);
      }
      stop(signal);
    });
  }
}

/** The admin key `npm start` makes when none is configured: the key itself, for the explorer, and its entry. */
interface DevelopmentKey {
  key: string;
  apiKey: ApiKey;
}

/**
 * `npm start` on a developer's machine with no keys configured: rather than run open, make an
 * admin key for this run and print it, so the explorer and curl can write.
 */
function developmentKey(config: Config, logger: Logger): DevelopmentKey | undefined {
  if (config.nodeEnv !== 'development' || config.apiKeys.length > 0) return undefined;
  const key = generateKey();
  logger.info(`No API keys configured (STANDINGS_API_KEYS): this run's admin key is ${key} (send "Authorization: Bearer ${key}")`);
  return { key, apiKey: { role: 'admin' as const, boardPrefix: null, hash: hashKey(key) } };
}

/** Once the port is served, by the one process that started it all (the primary with workers). */
function welcome(config: Config, url: string, development: DevelopmentKey | undefined): void {
  if (greetsPerson(process.stdout, config.nodeEnv)) process.stdout.write(welcomeText({ api: `${url}${GRAPHQL_PATH}`, explorer: config.explorer, adminKey: development?.key }));
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
// A worker's lines say which worker wrote them.
const logger = cluster.isWorker ? createLogger(config.logLevel).child({ worker: cluster.worker!.id }) : createLogger(config.logLevel);
main(config, logger).catch((err: unknown) => {
  logger.error(`Standings failed to start: ${(err as Error).message ?? err}`);
  process.exit(1);
});
