/**
 * Bytes per member: Standings' fair-tie layout next to a bare sorted set (which orders equal
 * scores by player id, i.e. unfairly), loaded into the same throwaway Redis in one run.
 *
 *   npm run bench:memory                 # 1,000,000 members
 *   npm run bench:memory -- 100000       # another size
 *
 * Players have 8-digit numeric ids and integer scores 0..3000, so ties are everywhere.
 */
import Redis from 'ioredis';
import os from 'node:os';
import { startManagedRedis } from '../src/server/managedRedis';
import { LeaderboardStore } from '../src/store/leaderboardStore';

const MEMBERS = Number(process.argv[2] ?? 1_000_000);
const BATCH = 1000;

const playerId = (i: number) => String(10_000_000 + i * 89);
const score = (i: number) => (i * 7919) % 3001;

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function measure(redis: Redis, load: () => Promise<void>): Promise<number> {
  await redis.flushall();
  const before = await usedMemory(redis);
  await load();
  return (await usedMemory(redis)) - before;
}

async function loadBare(redis: Redis): Promise<void> {
  for (let from = 0; from < MEMBERS; from += BATCH) {
    const args: (string | number)[] = [];
    for (let i = from; i < Math.min(MEMBERS, from + BATCH); i++) args.push(score(i), playerId(i));
    await redis.zadd('bare', ...args);
  }
}

async function loadStandings(redis: Redis): Promise<void> {
  const store = new LeaderboardStore(redis);
  await store.createBoard({ id: 'bench', sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: MEMBERS });
  for (let from = 0; from < MEMBERS; from += BATCH) {
    const batch = [];
    for (let i = from; i < Math.min(MEMBERS, from + BATCH); i++) batch.push({ playerId: playerId(i), score: score(i) });
    await store.submit('bench', batch);
  }
}

async function main(): Promise<void> {
  const server = await startManagedRedis({ persistence: 'none' });
  const redis = new Redis(server.url);
  try {
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))![1];
    const bare = await measure(redis, () => loadBare(redis));
    const standings = await measure(redis, () => loadStandings(redis));
    const perMember = (bytes: number) => (bytes / MEMBERS).toFixed(1);
    console.log(`members: ${MEMBERS}, Redis ${version}, ${os.cpus().length} cores, ${new Date().toISOString()}`);
    console.log('layout                                  bytes/member');
    console.log(`bare sorted set (ties by player id)     ${perMember(bare)}`);
    console.log(`Standings (fair ties, id -> token map)  ${perMember(standings)}`);
    console.log(`ratio Standings / bare                  ${(standings / bare).toFixed(2)}`);
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
