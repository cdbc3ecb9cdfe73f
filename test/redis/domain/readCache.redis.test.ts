// The read cache on a real Redis: `cached` is one service instance (a Leaderboards with a
// ReadCache), `other` another instance writing to the same Redis. What is kept must never be
// staler than what a live subscriber has been told.
import { once } from 'node:events';
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { parsePeriodConfig } from '../../../src/domain/periods/settings';
import { ReadCache } from '../../../src/domain/readCache';
import { type BoardListener, EventBridge } from '../../../src/store/eventBridge';
import type { BoardEventMessage } from '../../../src/store/events';
import { boardKeys } from '../../../src/store/keys';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { newTestClient, uniqueId } from '../../support/redis';

const FUTURE = Date.UTC(2100, 0, 1) * 1000;
const quiet = { info: () => undefined, warn: () => undefined };
/** Longer than any test: nothing is dropped for being idle. */
const IDLE_MS = 60_000;
let redis: Redis;
let subscriber: Redis;
/** The subscription connection, which one test cuts. */
let subscriberId: number;
let bridge: EventBridge;
let cache: ReadCache;
/** The cached instance's store, which counts its calls. */
let store: LeaderboardStore;
let cached: Leaderboards;
let other: Leaderboards;
/** Script calls the cached instance's store made. */
let storeCalls = 0;

beforeAll(async () => {
  redis = newTestClient();
  subscriber = newTestClient({ autoResubscribe: false, enableOfflineQueue: false });
  if (subscriber.status !== 'ready') await once(subscriber, 'ready');
  subscriberId = Number(await subscriber.client('ID'));
  bridge = new EventBridge(subscriber, quiet);
  cache = new ReadCache(bridge);
  store = new LeaderboardStore(redis);
  for (const method of ['getBoard', 'page', 'size', 'rangePage', 'countByScore', 'scoreAtRank', 'scoreAtPercentile'] as const) {
    const original = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      storeCalls++;
      return original(...args);
    };
  }
  cached = new Leaderboards(store, cache);
  other = new Leaderboards(new LeaderboardStore(redis));
});
afterAll(async () => {
  cache.close();
  bridge.close();
  await redis.quit();
});

async function boardWith(scores: Record<string, number>): Promise<string> {
  const id = uniqueId('cache');
  await other.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
  await other.submit(Object.entries(scores).map(([playerId, score]) => ({ boardId: id, playerId, score })));
  return id;
}

const topOf = async (board: string) => (await cached.page(board, { limit: 10 })).entries.map((e) => [e.playerId, e.score]);

/**
 * Reads the board's settings (which starts following it), then reads until a read is answered
 * without the store: the board's subscription is then in place.
 */
async function untilKept(board: string, read: () => Promise<unknown>, via = cached, timeoutMs = 3_000): Promise<void> {
  await via.getBoard(board);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await read();
    const before = storeCalls;
    await read();
    if (storeCalls === before) return;
    if (Date.now() > deadline) throw new Error('reads are still going to Redis');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves with the next message published on the board, as a listener added after the cache's hears it. */
function nextEvent(board: string, onEvent: () => unknown = () => undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let stop: (() => void) | undefined;
    const listener: BoardListener = {
      events: (_message: BoardEventMessage) => {
        stop?.();
        // Synchronously, as the live updates' own listener would be called.
        resolve(onEvent());
      },
      resubscribed: () => undefined,
    };
    bridge.listen(board, listener).then((unsubscribe) => (stop = unsubscribe), reject);
  });
}

const shardSubscribers = async (board: string) =>
  ((await redis.call('PUBSUB', 'SHARDNUMSUB', boardKeys(board).events)) as [string, number])[1];

describe('ReadCache', () => {
  it('answers repeated reads of settings, size and the top page from memory', async () => {
    const board = await boardWith({ a: 3, b: 2, c: 1 });
    await untilKept(board, () => topOf(board));
    const before = storeCalls;
    for (let i = 0; i < 5; i++) {
      expect(await topOf(board)).toEqual([['a', 3], ['b', 2], ['c', 1]]);
      await cached.getBoard(board);
      await cached.size(board);
    }
    // Settings and size are read once each (the first settings read came before the board's
    // subscription was in place, so it was not kept), the top page not at all.
    expect(storeCalls - before).toBe(2);
  });

  it('hands out kept settings without waiting (knownBoard) until the board changes, here or elsewhere', async () => {
    const board = await boardWith({ a: 3 });
    expect(cached.knownBoard(board)).toBeUndefined();
    await untilKept(board, () => cached.getBoard(board));
    const settings = await cached.getBoard(board);
    expect(settings).toMatchObject({ id: board, sortOrder: 'DESCENDING' });
    expect(cached.knownBoard(board)).toBe(settings);

    const seenByListener = nextEvent(board, () => cached.knownBoard(board));
    await other.submit([{ boardId: board, playerId: 'b', score: 1 }]);
    expect(await seenByListener).toBeUndefined();

    await cached.getBoard(board);
    expect(cached.knownBoard(board)).toMatchObject({ id: board });
    await cached.submit([{ boardId: board, playerId: 'c', score: 2 }]);
    expect(cached.knownBoard(board)).toBeUndefined();
    // Not an id at all: nothing is held for it, and nothing is thrown.
    expect(cached.knownBoard('not an id\n')).toBeUndefined();
  });

  it('never keeps a page, a cursor page or an offset page other than the first', async () => {
    const board = await boardWith({ a: 3, b: 2, c: 1 });
    await untilKept(board, () => topOf(board));
    const before = storeCalls;
    await cached.page(board, { limit: 10, offset: 1 });
    await cached.page(board, { limit: 10, offset: 1 });
    expect(storeCalls - before).toBe(2);
  });

  it('forgets a board when another instance writes, before a live listener hears of the write', async () => {
    const board = await boardWith({ a: 3, b: 2 });
    await untilKept(board, () => topOf(board));
    const seenByListener = nextEvent(board, () => topOf(board));
    await other.submit([{ boardId: board, playerId: 'c', score: 9 }]);
    expect(await seenByListener).toEqual([['c', 9], ['a', 3], ['b', 2]]);
  });

  it('shows a write through the same instance to the next read, without waiting for its event', async () => {
    const board = await boardWith({ a: 3 });
    await untilKept(board, () => topOf(board));
    await cached.submit([{ boardId: board, playerId: 'b', score: 5 }]);
    expect(await topOf(board)).toEqual([['b', 5], ['a', 3]]);
    await cached.remove(board, 'b');
    expect(await topOf(board)).toEqual([['a', 3]]);
    await cached.deleteBoard(board);
    expect(await cached.getBoard(board)).toBeNull();
  });

  it('keeps score ranges, counts and scores at positions no staler than any kind of write, here or elsewhere', async () => {
    const board = await boardWith({ a: 3, b: 2, c: 1, d: 1 });
    const readsOf = (via: Leaderboards) => async () => ({
      range: (await via.entriesByScore(board, { min: { value: 2 } }, { limit: 10 })).entries.map((e) => e.playerId),
      count: await via.countByScore(board, { max: { value: 2, exclusive: true } }),
      rank: await via.scoreAtRank(board, 1),
      percentile: await via.scoreAtPercentile(board, 50),
      title: (await via.getBoard(board))!.title,
      seasons: parsePeriodConfig((await via.getBoard(board))!.periods).seasons.map((season) => season.id),
    });
    const reads = readsOf(cached);
    await untilKept(board, reads);
    const writes: ((via: Leaderboards) => Promise<unknown>)[] = [
      (via) => via.submit([{ boardId: board, playerId: 'e', score: 2 }]),
      (via) => via.removeByScore({ leaderboardId: board, max: { value: 1 } }),
      (via) => via.updateBoard({ id: board, title: 'Renamed' }),
      (via) => via.submit([{ boardId: board, playerId: 'f', score: 0 }, { boardId: board, playerId: 'g', score: 5 }]),
      (via) => via.removeEntries({ leaderboardId: board, playerIds: ['g', 'a'] }),
      (via) => via.keepTop({ leaderboardId: board, count: 1 }),
      // Far ahead of Redis' clock, as seasons added must start after it.
      (via) => via.addSeasons({ leaderboardId: board, seasons: [{ id: 's1', start: FUTURE, end: FUTURE + 1e9 }] }),
      (via) => via.addSeasons({ leaderboardId: board, seasons: [{ id: 's2', start: FUTURE + 1e9, end: FUTURE + 2e9 }] }),
    ];
    for (const [i, write] of writes.entries()) {
      // Every other write goes through the cached instance itself, which must not wait for its event.
      if (i % 2 === 0) {
        const seen = nextEvent(board, reads);
        await write(other);
        expect(await seen).toEqual(await readsOf(other)());
      } else {
        await write(cached);
        expect(await reads()).toEqual(await readsOf(other)());
      }
      await untilKept(board, reads);
    }
    expect(await reads()).toEqual({ range: ['b'], count: 0, rank: 2, percentile: 2, title: 'Renamed', seasons: ['s1', 's2'] });
  });

  it('forgets a board deleted elsewhere, and does not keep its absence', async () => {
    const board = await boardWith({ a: 3 });
    await untilKept(board, () => cached.getBoard(board));
    const afterDelete = nextEvent(board, () => cached.getBoard(board));
    await other.deleteBoard(board);
    expect(await afterDelete).toBeNull();
    await other.createBoard({ id: board, sortOrder: 'ASCENDING', updatePolicy: 'BEST' });
    expect((await cached.getBoard(board))?.sortOrder).toBe('ASCENDING');
  });

  it('reads Redis again after its subscription connection dropped, for writes made meanwhile', async () => {
    const board = await boardWith({ a: 3 });
    await untilKept(board, () => topOf(board));
    const resubscribed = new Promise<void>((resolve) => {
      const listener: BoardListener = { events: () => undefined, resubscribed: () => resolve() };
      void bridge.listen(board, listener);
    });
    await redis.client('KILL', 'ID', String(subscriberId));
    // Published while the connection is gone: no one in this process hears of it.
    await other.submit([{ boardId: board, playerId: 'b', score: 7 }]);
    await resubscribed;
    expect(await topOf(board)).toEqual([['b', 7], ['a', 3]]);
  });

  it('follows a board only once it is found: reading ids that name no board subscribes to nothing', async () => {
    const missing = uniqueId('missing');
    for (let i = 0; i < 3; i++) expect(await cached.getBoard(missing)).toBeNull();
    await cached.size(missing);
    const found = await boardWith({ a: 1 });
    await cached.getBoard(found);
    // The found board's subscription is in place, and SSUBSCRIBEs on one connection run in order.
    await waitFor(async () => (await shardSubscribers(found)) === 1);
    expect(await shardSubscribers(missing)).toBe(0);
  });

  /** `test` with a service instance of its own whose cache keeps at most 25 entries. */
  const bounded = (test: (reads: Leaderboards, cache: ReadCache) => Promise<void>) => async () => {
    const cache = new ReadCache(bridge, IDLE_MS, 25);
    try {
      await test(new Leaderboards(store, cache), cache);
    } finally {
      cache.close();
    }
  };
  const tenPlayers = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, i]));

  it('keeps no more entries than its bound: the least recently read boards go first, and are read from Redis again',
    bounded(async (reads, cache) => {
      // A followed board counts one, its top page of 10 ten: two boards fit in 25, three do not.
      const top = (board: string) => reads.page(board, { limit: 10 });
      const boards = [await boardWith(tenPlayers), await boardWith(tenPlayers), await boardWith(tenPlayers)];
      for (const board of boards) {
        await untilKept(board, () => top(board), reads);
        expect(cache.entries).toBeLessThanOrEqual(25);
      }
      expect(cache.entries).toBe(22);
      const before = storeCalls;
      await top(boards[2]);
      await top(boards[1]);
      expect(storeCalls).toBe(before);
      await top(boards[0]);
      expect(storeCalls).toBe(before + 1);
    }));

  it('drops the oldest reads of a board that alone holds more than the bound', bounded(async (reads, cache) => {
    const board = await boardWith(tenPlayers);
    const top = (limit: number) => reads.page(board, { limit });
    await untilKept(board, () => top(10), reads);
    await untilKept(board, () => top(9), reads);
    // The board, the two pages and its settings (read again by untilKept, kept this time).
    expect(cache.entries).toBe(1 + 10 + 1 + 9);
    await untilKept(board, () => top(8), reads);
    expect(cache.entries).toBe(1 + 1 + 9 + 8);
    const before = storeCalls;
    await top(8);
    await top(9);
    expect(storeCalls).toBe(before);
    await top(10);
    expect(storeCalls).toBe(before + 1);
  }));

  it('counts nothing for what it forgot: a write leaves a board counting only itself', bounded(async (reads, cache) => {
    const board = await boardWith({ a: 3, b: 2 });
    await untilKept(board, () => reads.page(board, { limit: 10 }), reads);
    expect(cache.entries).toBe(3);
    await reads.submit([{ boardId: board, playerId: 'c', score: 1 }]);
    expect(cache.entries).toBe(1);
  }));

  it('gives a board subscription back once the board is no longer read', async () => {
    const shortLived = new ReadCache(bridge, 100);
    try {
      const board = await boardWith({ a: 1 });
      const reads = new Leaderboards(new LeaderboardStore(redis), shortLived);
      await reads.getBoard(board);
      await waitFor(async () => (await shardSubscribers(board)) === 1);
      await waitFor(async () => (await shardSubscribers(board)) === 0);
    } finally {
      shortLived.close();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
