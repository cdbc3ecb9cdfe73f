// What a command timeout means when it is this process that was held up, not Redis (issue 30):
// a long synchronous task in the server fires the timeouts of the commands in flight before their
// answers are read. That must not put the client into its "Redis is not answering" state, which
// would fail every request at once until a probe answers.
import type { Redis } from 'ioredis';
import { createClient, waitUntilReady } from '../../../src/server/redis';
import { redisRead, redisWrite } from '../../../src/store/redisCall';
import { MemoryLogger } from '../../support/harness';
import { newTestClient, testRedisUrl, uniqueId } from '../../support/redis';

const TIMEOUT_MS = 100;
let redis: Redis;
let plain: Redis;
beforeAll(async () => {
  redis = createClient(testRedisUrl(), new MemoryLogger(), { commandTimeoutMs: TIMEOUT_MS }) as Redis;
  await waitUntilReady(redis, testRedisUrl(), 10_000);
  plain = newTestClient();
});
afterAll(async () => {
  redis.disconnect();
  await plain.quit();
});

/** Holds this process' event loop, as a long synchronous task would. */
function holdTheLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy, on purpose
  }
}

it('answers a read whose timeout fired while the loop was held, and keeps serving', async () => {
  const key = uniqueId('held');
  await plain.set(key, 'there');
  // The client's health (and its watch on the loop) exist from its first call.
  await redisRead(redis, () => redis.ping());
  const read = redisRead(redis, () => redis.get(key));
  holdTheLoop(3 * TIMEOUT_MS);
  await expect(read).resolves.toBe('there');
  // Not taken for Redis not answering: the next call goes out at once.
  await expect(redisRead(redis, () => redis.get(key))).resolves.toBe('there');
});

it('answers a write timed out so UNKNOWN, applies it once, and keeps serving', async () => {
  const key = uniqueId('held');
  await redisRead(redis, () => redis.ping());
  const write = redisWrite(redis, () => redis.incr(key));
  holdTheLoop(3 * TIMEOUT_MS);
  await expect(write).rejects.toMatchObject({ code: 'UNAVAILABLE', outcome: 'UNKNOWN' });
  expect(await plain.get(key)).toBe('1');
  await expect(redisWrite(redis, () => redis.incr(key))).resolves.toBe(2);
});
