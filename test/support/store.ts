import type { Redis } from 'ioredis';
import type { Submission, SubmitResult } from '../../src/model';
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

/**
 * The results of a submission call to a board that keeps ALL_TIME only (the store's default
 * plan), where a stale plan or a missing board would be the test's mistake.
 */
export async function submitted(store: LeaderboardStore, boardId: string, submissions: Submission[]): Promise<SubmitResult[]> {
  const outcome = await store.submit(boardId, submissions);
  if (!('results' in outcome)) throw new Error(`the submission wrote nothing: ${JSON.stringify(outcome)}`);
  return outcome.results;
}
