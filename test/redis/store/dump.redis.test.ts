import fc from 'fast-check';
import type Redis from 'ioredis';
import { zsetOfDump } from '../../../src/store/dump';
import { newTestClient, uniqueId } from '../../support/redis';

/**
 * A sorted set read from its DUMP payload (src/store/dump.ts) holds what ZRANGE WITHSCORES
 * answers, in both of Redis' encodings (a listpack up to zset-max-listpack-entries, a skiplist
 * past it) and for every way a string is written (raw, as an integer, LZF-compressed).
 */
let redis: Redis;
beforeAll(() => (redis = newTestClient()));
afterAll(() => redis.quit());

const byMember = (members: Buffer[], scores: number[]) =>
  members.map((member, i) => [member.toString('hex'), scores[i]] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

async function readBoth(key: string) {
  const items = await redis.zrangeBuffer(key, '0', '-1', 'WITHSCORES');
  const expected = byMember(items.filter((_, i) => i % 2 === 0), items.filter((_, i) => i % 2 === 1).map((score) => Number(score.toString())));
  const { members, scores } = zsetOfDump(await redis.dumpBuffer(key));
  return { actual: byMember(members, scores), expected };
}

const score = fc.oneof(
  ...[12, 15, 23, 31].map((bits) => fc.integer({ min: -(2 ** bits), max: 2 ** bits - 1 })),
  fc.constantFrom(0, -0, 1, -1, 127, 128, 4095, -4096, 8388607, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0.1, -2.5),
  fc.double({ min: -1e15, max: 1e15, noNaN: true }),
);
const member = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 40 }),
  // Repetitive, so that Redis compresses it (LZF) when it passes 20 bytes.
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 80 })).map(([unit, times]) => Uint8Array.from(Array.from({ length: times }, () => [...unit]).flat())),
  // Decimal text, which Redis keeps as an integer.
  fc.oneof(...[7, 15, 31, 40].map((bits) => fc.integer({ min: -(2 ** bits), max: 2 ** bits - 1 })))
    .map((n) => Buffer.from(String(n))),
  fc.string({ minLength: 60, maxLength: 300 }).map((text) => Buffer.from(`player-${text}`)),
);

it('reads what ZRANGE reads, in a listpack and in a skiplist', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(member, score), { minLength: 1, maxLength: 400 }), async (entries) => {
      const key = uniqueId('dump');
      await redis.zadd(key, ...entries.flatMap(([m, s]) => [String(s), Buffer.from(m)]));
      try {
        const { actual, expected } = await readBoth(key);
        expect(actual).toEqual(expected);
      } finally {
        await redis.del(key);
      }
    }),
    { numRuns: 60 },
  );
});

it('reads no key as no entries, and refuses another type', async () => {
  expect(zsetOfDump(await redis.dumpBuffer(uniqueId('none')))).toEqual({ members: [], scores: [] });
  const key = uniqueId('hash');
  await redis.hset(key, 'a', '1');
  await expect(redis.dumpBuffer(key).then(zsetOfDump)).rejects.toThrow(/RDB type/);
});
