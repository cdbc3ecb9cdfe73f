import type { Redis } from 'ioredis';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { newTestClient } from './redis';

/**
 * A store on the shared test Redis for one test file: connected before its tests, closed after.
 * Read `redis` and `store` inside tests (they are set in beforeAll).
 */
export function useTestStore(): { redis: Redis; store: LeaderboardStore } {
  const context = {} as { redis: Redis; store: LeaderboardStore };
  beforeAll(() => {
    context.redis = newTestClient();
    context.store = new LeaderboardStore(context.redis);
  });
  afterAll(() => context.redis.quit());
  return context;
}
