import Redis, { type Cluster } from 'ioredis';
import type { Logger } from './logger';

/**
 * A client that fails fast while Redis is unreachable, so requests get UNAVAILABLE at once
 * instead of queueing until they time out, and that keeps reconnecting in the background so
 * the service recovers by itself when Redis is back.
 */
export function createRedisClient(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    // A live connection that stops answering (a paused or overloaded server) is bounded too.
    commandTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  reportOutages(redis, url, logger);
  return redis;
}

/**
 * The connection live updates listen on (src/store/eventBridge.ts): the main client's address,
 * timeouts and retries, in subscriber use. ioredis' own resubscription is off because the bridge
 * resubscribes itself, to know when to resynchronise; the offline queue stays off, so subscribing
 * while Redis is away fails at once (UNAVAILABLE) instead of waiting.
 */
export function createSubscriberClient(redis: Redis | Cluster): Redis {
  if (redis.isCluster) throw new Error('Live updates need a single Redis node: Redis Cluster is not supported yet');
  return (redis as Redis).duplicate({
    autoResubscribe: false,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: false,
    connectionName: 'standings-live',
  });
}

/**
 * One line when the connection is lost and one when it is back, not one per retry. Failures
 * before the first connection are waitUntilReady's to report.
 */
function reportOutages(redis: Redis, url: string, logger: Logger): void {
  let state: 'starting' | 'up' | 'down' = 'starting';
  // Also keeps ioredis from printing every failed reconnection attempt as an unhandled error.
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => (lastError = err));
  redis.on('reconnecting', () => {
    if (state !== 'up') return;
    state = 'down';
    const reason = lastError ? ` (${lastError.message})` : '';
    logger.warn(`Lost the connection to Redis at ${redactUrl(url)}${reason}; reconnecting in the background`);
  });
  redis.on('ready', () => {
    if (state === 'down') logger.info(`Redis at ${redactUrl(url)} is reachable again`);
    state = 'up';
    lastError = undefined;
  });
}

/**
 * Resolves once Redis answers PING; rejects with a message saying why after `timeoutMs`. The
 * server listens only after this, so the first requests never race an unready connection.
 */
export async function waitUntilReady(redis: Redis, url: string, timeoutMs: number): Promise<void> {
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
    await redis.ping();
  } catch (err) {
    const reason = lastError?.message ?? (err as Error).message;
    throw new Error(
      `Redis at ${redactUrl(url)} did not answer PING within ${timeoutMs} ms (${reason}). ` +
        'Check that it is running and that REDIS_URL points at it, or unset REDIS_URL to let Standings start its own.',
    );
  } finally {
    redis.off('error', remember);
  }
}

/** For messages: never print a password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
