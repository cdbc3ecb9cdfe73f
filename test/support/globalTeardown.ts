import type { ManagedRedis } from './managedRedis';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { standingsTestRedis?: ManagedRedis }).standingsTestRedis?.stop();
}
