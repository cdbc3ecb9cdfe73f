// REDIS_MIN_REPLICAS on a Redis without replicas: every write is applied but cannot be confirmed,
// so it answers UNAVAILABLE with outcome UNKNOWN (src/store/redisCall.ts); reads are unaffected.
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { requireReplicas } from '../../../src/store/redisCall';
import { newTestClient, uniqueId } from '../../support/redis';
import { submitted } from '../../support/store';

const redis = newTestClient({ maxRetriesPerRequest: 0 });
afterAll(() => redis.quit());

it('answers a write its replicas do not confirm in time UNAVAILABLE/UNKNOWN, although Redis applied it', async () => {
  requireReplicas(redis, { minReplicas: 1, timeoutMs: 50 });
  const store = new LeaderboardStore(redis);
  const id = uniqueId('unreplicated');
  await expect(store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' }))
    .rejects.toMatchObject({ code: 'UNAVAILABLE', outcome: 'UNKNOWN', message: expect.stringMatching(/Only 0 of the 1 replicas required confirmed the write/) });
  expect(await store.getBoard(id)).toMatchObject({ id });

  requireReplicas(redis, { minReplicas: 0, timeoutMs: 50 });
  await expect(submitted(store, id, [{ playerId: 'a', score: 1 }])).resolves.toBeDefined();
});
