// Runs once in Jest's main process before the "redis" project; workers inherit process.env.
import { startManagedRedis, type ManagedRedis } from './managedRedis';

export default async function globalSetup(): Promise<void> {
  // A Redis given from outside (e.g. a CI service) is used as is: the tests never flush it.
  if (process.env.STANDINGS_TEST_REDIS_URL) return;
  const redis = await startManagedRedis({ persistence: 'none' });
  // Jest runs globalTeardown in this same global scope.
  (globalThis as { standingsTestRedis?: ManagedRedis }).standingsTestRedis = redis;
  process.env.STANDINGS_TEST_REDIS_URL = redis.url;
}
