/**
 * The data every bench loads: players with 8- and 9-digit numeric ids and integer scores
 * 0..3000 (so ties are everywhere), written in batches of 1000 as a game backend importing
 * scores would write them.
 */
import Redis from 'ioredis';
import { type ManagedRedis, startManagedRedis } from '../test/support/managedRedis';
import { boardKeys } from '../src/store/keys';
import { LeaderboardStore } from '../src/store/leaderboardStore';
import { Leaderboards } from '../src/domain/leaderboards';
import { formatCount } from './cli';

export const BATCH = 1000;
/** The one board the service benches read and write; LATEST, so every write moves its entry. */
export const BOARD_ID = 'bench';

export const playerId = (i: number) => String(10_000_000 + i * 89);
export const scoreOf = (i: number) => (i * 7919) % 3001;

/** Calls `write` for consecutive ranges of at most BATCH members in [from, to), one at a time. */
export async function inBatches(from: number, to: number, write: (from: number, to: number) => Promise<unknown>) {
  for (let start = from; start < to; start += BATCH) await write(start, Math.min(to, start + BATCH));
}

/**
 * Where the unfair peer keeps its ranking: a bare sorted set of player ids beside the board, in
 * the board's slot, holding the same players and scores as the board itself.
 */
export const bareRankingKey = (boardId: string) => `${boardKeys(boardId).ranking}:bare`;

/** Creates the bench board, with its id -> token buckets sized for the largest size a run loads. */
async function createBenchBoard(store: LeaderboardStore, capacity: number): Promise<void> {
  await store.createBoard({ id: BOARD_ID, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity });
}

/**
 * Adds members [from, to) to the bench board through the store (the real fair write path) and, with
 * `bare`, the same members to the bare sorted set, so both peers write into sets of one size.
 */
export async function growBoard(store: LeaderboardStore, from: number, to: number, bare: boolean): Promise<void> {
  const started = Date.now();
  await inBatches(from, to, async (start, end) => {
    const batch = [];
    const zadd: (string | number)[] = [];
    for (let i = start; i < end; i++) {
      batch.push({ playerId: playerId(i), score: scoreOf(i) });
      zadd.push(scoreOf(i), playerId(i));
    }
    await Promise.all([store.submit(BOARD_ID, batch), bare ? store.redis.zadd(bareRankingKey(BOARD_ID), ...zadd) : null]);
    if (end % 1_000_000 === 0) console.log(`  loaded ${formatCount(end)} members (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  });
}

/** The four-period board of issue 13's proof: every period a live submission lands in but SEASON. */
export const FOUR_PERIODS = { timeZone: 'UTC', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }, { kind: 'WEEKLY' }, { kind: 'MONTHLY' }] };

/**
 * Creates board `id` with FOUR_PERIODS and adds members [0, members) to it as submitScores does:
 * through the domain's planner and submit.lua, so every period's keys are the ones live writes make.
 */
export async function fourPeriodBoard(store: LeaderboardStore, id: string, updatePolicy: 'BEST' | 'LATEST', members: number): Promise<void> {
  const leaderboards = new Leaderboards(store);
  await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy, capacity: members, periods: FOUR_PERIODS });
  const started = Date.now();
  await inBatches(0, members, async (start, end) => {
    await leaderboards.submit(Array.from({ length: end - start }, (_, k) => ({ boardId: id, playerId: playerId(start + k), score: scoreOf(start + k) })));
    if (end % 1_000_000 === 0) console.log(`  loaded ${formatCount(end)} members in four periods (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  });
}

/** A small deterministic generator (mulberry32), so every contender gets the same requests. */
export function seededRandom(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below);
  };
}

/** Runs `bench` against a throwaway Redis (no persistence), stopped afterwards whatever happens. */
export async function withBenchRedis<T>(bench: (server: ManagedRedis, redis: Redis) => Promise<T>): Promise<T> {
  const server = await startManagedRedis({ persistence: 'none' });
  const redis = new Redis(server.url);
  try {
    return await bench(server, redis);
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

/** As withBenchRedis, with an empty bench board sized for `capacity` members. */
export function withBenchBoard(capacity: number, bench: (redisUrl: string, store: LeaderboardStore) => Promise<void>): Promise<void> {
  return withBenchRedis(async (server, redis) => {
    const store = new LeaderboardStore(redis);
    await createBenchBoard(store, capacity);
    await bench(server.url, store);
  });
}
