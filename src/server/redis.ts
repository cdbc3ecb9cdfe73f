import Redis, { Cluster } from 'ioredis';
import { requireReplicas, type Replication } from '../store/redisCall';
import type { RedisCluster, RedisSentinel } from './config';
import type { Logger } from './logger';

/** The command timeout when REDIS_COMMAND_TIMEOUT_MS does not set one. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

export interface ClientOptions {
  /**
   * How long a command may wait for its answer. Past it the request fails with UNAVAILABLE (a
   * write's outcome UNKNOWN: Redis may still run it), and later requests fail at once until Redis
   * answers again (see src/store/redisCall.ts).
   */
  commandTimeoutMs?: number;
  /** Replicas every write waits for (src/store/redisCall.ts); default none. */
  replication?: Replication;
}

/**
 * Settings that keep every command sent at most once. ioredis would otherwise send again, after
 * a reconnection, the commands that were in flight when a connection dropped, and those may
 * already have run: a write applied twice. With no retries per request the commands in flight
 * fail as soon as the connection closes (src/store/redisCall.ts tells a write's caller that its
 * outcome is unknown and lets a read try again), and the offline queue stays off so that nothing
 * waits to be sent later, when its request has already been answered.
 */
const AT_MOST_ONCE = { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, enableOfflineQueue: false } as const;

const limits = (options: ClientOptions) => ({
  connectTimeout: 2_000,
  commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
});

/** At once the first time (a dropped connection to a Redis that is up), then backing off. */
const retryDelay = (attempt: number) => Math.min((attempt - 1) * 100, 1_000);

/** Where Redis is: one server's URL, a cluster's seed nodes, or the sentinels that know its master. */
export type RedisTarget = string | RedisCluster | RedisSentinel;

const isSentinel = (where: RedisTarget): where is RedisSentinel => typeof where !== 'string' && 'sentinels' in where;

/**
 * A client that fails fast while Redis is unreachable, so requests get UNAVAILABLE at once
 * instead of queueing until they time out, and that keeps reconnecting in the background so
 * the service recovers by itself when Redis is back.
 */
export function createRedisClient(url: string, logger: Logger, options: ClientOptions = {}): Redis {
  const redis = new Redis(url, { ...AT_MOST_ONCE, ...limits(options), retryStrategy: retryDelay });
  reportOutages(redis, url, logger);
  return redis;
}

/** The client for what REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS names. */
export function createClient(where: RedisTarget, logger: Logger, options: ClientOptions = {}): Redis | Cluster {
  const client = typeof where === 'string'
    ? createRedisClient(where, logger, options)
    : isSentinel(where) ? createSentinelClient(where, logger, options) : createClusterClient(where, logger, options);
  if (options.replication) requireReplicas(client, options.replication);
  return client;
}

/**
 * The master that the sentinels name, with the same at-most-once settings as one server. When
 * the master dies, its connection closes and each reconnection asks the sentinels again, so the
 * client finds the replica they promote. A master demoted while still up (SENTINEL FAILOVER)
 * has its clients' connections closed by the sentinels, with the same effect; a write that
 * reaches it before that is refused (READONLY: not applied, see src/store/redisCall.ts).
 * ioredis' failoverDetector stays off: when it fires during a reconnection attempt, ioredis
 * ends the client for good.
 */
function createSentinelClient(sentinel: RedisSentinel, logger: Logger, options: ClientOptions): Redis {
  const redis = new Redis({
    sentinels: sentinel.sentinels,
    name: sentinel.name,
    password: sentinel.password ?? undefined,
    ...AT_MOST_ONCE,
    ...limits(options),
    retryStrategy: retryDelay,
  });
  reportOutages(redis, sentinel, logger);
  return redis;
}

/**
 * The same for a Redis Cluster. While the cluster as a whole is unreachable, commands fail at
 * once; a master that refuses connections fails the commands for its slots after ioredis' bounded
 * retries (up to 16, about 100 ms apart), and one that stopped answering after the command timeout.
 * ioredis would send a command again when its node's connection closed under it
 * (`retryDelayOnFailover`); that is off for the same reason as AT_MOST_ONCE. Redirections
 * (MOVED, ASK, TRYAGAIN, CLUSTERDOWN) are still followed: Redis ran nothing when it sent them.
 */
function createClusterClient(cluster: RedisCluster, logger: Logger, options: ClientOptions): Cluster {
  const client = new Cluster(cluster.nodes, {
    enableOfflineQueue: false,
    retryDelayOnFailover: 0,
    clusterRetryStrategy: retryDelay,
    redisOptions: { ...AT_MOST_ONCE, ...limits(options), password: cluster.password ?? undefined },
  });
  reportOutages(client, cluster, logger);
  return client;
}

/**
 * The connection live updates listen on (src/store/eventBridge.ts): the main client's address,
 * timeouts and retries, in subscriber use. The offline queue stays off, so subscribing while
 * Redis is away fails at once (UNAVAILABLE) instead of waiting. ioredis' own resubscription is off
 * because the bridge resubscribes itself, to know when to resynchronise. On a cluster a sharded
 * channel can only be subscribed on the master that owns its slot: ioredis' sharded subscribers
 * keep a subscriber connection per master and route each SSUBSCRIBE to the right one (they also
 * resubscribe by themselves, which cannot be turned off; the bridge still does its own).
 */
export function createSubscriberClient(redis: Redis | Cluster): Redis | Cluster {
  if (redis instanceof Cluster) {
    return redis.duplicate([], {
      shardedSubscribers: true,
      // Only SSUBSCRIBEs go over it, so no MOVED reply to a command tells it that a slot moved.
      // ioredis looks again when a master drops a subscription or a subscriber connection ends,
      // but not otherwise (a master that hangs and is failed over), unless told to look this often.
      slotsRefreshInterval: 5_000,
      redisOptions: { connectionName: 'standings-live' },
    });
  }
  return redis.duplicate({
    autoResubscribe: false,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: false,
    connectionName: 'standings-live',
  });
}

/**
 * One line when the connection is lost and one when it is back, not one per retry. Failures
 * before the first connection are waitUntilReady's to report. On a cluster that is the whole
 * cluster: a single master that is down shows as UNAVAILABLE on the requests for its boards.
 */
function reportOutages(redis: Redis | Cluster, where: RedisTarget, logger: Logger): void {
  let state: 'starting' | 'up' | 'down' = 'starting';
  // Also keeps ioredis from printing every failed reconnection attempt as an unhandled error.
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => (lastError = err));
  redis.on('reconnecting', () => {
    if (state !== 'up') return;
    state = 'down';
    const reason = lastError ? ` (${lastError.message})` : '';
    logger.warn(`Lost the connection to ${describe(where)}${reason}; reconnecting in the background`);
  });
  redis.on('ready', () => {
    if (state === 'down') logger.info(`${describe(where)} is reachable again`);
    state = 'up';
    lastError = undefined;
  });
}

/**
 * Resolves once Redis (every master of a cluster) answers PING; rejects with a message saying why after `timeoutMs`. The
 * server listens only after this, so the first requests never race an unready connection.
 */
export async function waitUntilReady(redis: Redis | Cluster, where: RedisTarget, timeoutMs: number): Promise<void> {
  let lastError: Error | undefined;
  const remember = (err: Error) => (lastError = err);
  redis.on('error', remember);
  try {
    await new Promise<void>((resolve, reject) => {
      if (redis.status === 'ready') return resolve();
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(new Error('timed out'));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', onReady);
    });
    // On a cluster, every master: their connections open on first use, and a write sent to one
    // still connecting is refused in a way that cannot be told from one lost in flight (UNKNOWN).
    await Promise.all(redis instanceof Cluster ? redis.nodes('master').map((node) => node.ping()) : [redis.ping()]);
  } catch (err) {
    const reason = lastError?.message ?? (err as Error).message;
    const check = typeof where === 'string'
      ? 'Check that it is running and that REDIS_URL points at it, or, outside production, unset REDIS_URL to let Standings start its own.'
      : isSentinel(where)
        ? 'Check that the sentinels run, that REDIS_SENTINELS lists some of them and REDIS_SENTINEL_NAME the master group they monitor (and REDIS_PASSWORD, if the master needs one).'
        : 'Check that it is running and that REDIS_CLUSTER_NODES lists some of its nodes (and REDIS_PASSWORD, if it needs one).';
    throw new Error(`${describe(where)} did not answer PING within ${timeoutMs} ms (${reason}). ${check}`);
  } finally {
    redis.off('error', remember);
  }
}

/** What messages call it, without a password. */
function describe(where: RedisTarget): string {
  if (typeof where === 'string') return `Redis at ${redactUrl(where)}`;
  if (isSentinel(where)) return `Redis master "${where.name}" of the Sentinels at ${where.sentinels.map(({ host, port }) => `${host}:${port}`).join(',')}`;
  return `Redis Cluster at ${where.nodes.map(({ host, port }) => `${host}:${port}`).join(',')}`;
}

/** For messages: never print a password. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
