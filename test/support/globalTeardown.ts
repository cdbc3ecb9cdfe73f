import type { ManagedRedis } from '../../src/server/managedRedis';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { standingsTestRedis?: ManagedRedis }).standingsTestRedis?.stop();
}
