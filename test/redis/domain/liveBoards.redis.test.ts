import { isDeepStrictEqual } from 'node:util';
// LiveBoards on a real Redis, without GraphQL: after any sequence of writes every subscription
// settles on what a fresh read says, and a write reads nothing: the subscriptions it moved follow its event.
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { LiveBoards } from '../../../src/domain/live/liveBoards';
import type { LiveStream } from '../../../src/domain/live/liveStream';
import { EventBridge } from '../../../src/store/eventBridge';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import type { LiveEntry } from '../../../src/domain/live/moves';
import { newTestClient, uniqueId } from '../../support/redis';

let redis: Redis;
let subscriber: Redis;
let leaderboards: Leaderboards;
let live: LiveBoards;
/** Refreshes for every change on its own, so that a change the index misses is not covered by a neighbour's. */
let eager: LiveBoards;
const streams: LiveStream<unknown>[] = [];
beforeAll(() => {
  redis = newTestClient();
  subscriber = newTestClient({ autoResubscribe: false, enableOfflineQueue: false });
  leaderboards = new Leaderboards(new LeaderboardStore(redis));
  const bridge = new EventBridge(subscriber, { info: () => undefined, warn: () => undefined });
  live = new LiveBoards(leaderboards, bridge);
  eager = new LiveBoards(leaderboards, bridge, 0);
});
afterEach(async () => {
  await Promise.all(streams.splice(0).map((stream) => stream.return()));
});
afterAll(() => Promise.all([redis.quit(), subscriber.quit()]));

const follow = async <T>(subscribing: Promise<LiveStream<T>>) => {
  const stream = await subscribing;
  streams.push(stream as LiveStream<unknown>);
  return stream;
};

/**
 * Waits until `actual()` equals `expected`, looking again whenever `changed` fires; after a
 * timeout fails with the difference.
 */
function eventually(actual: () => unknown, expected: unknown, changed: Set<() => void>, timeoutMs = 3_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (!isDeepStrictEqual(actual(), expected)) return;
      finish();
      resolve();
    };
    const timer = setTimeout(() => {
      finish();
      try {
        expect(actual()).toEqual(expected);
      } catch (err) {
        reject(err);
      }
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      changed.delete(attempt);
    };
    changed.add(attempt);
    attempt();
  });
}

/** Keeps the latest value of a stream and counts them, and tells `changed` when one arrives. */
function latestOf<T>(stream: LiveStream<T>, changed: Set<() => void>) {
  const latest: { value?: T; updates: number } = { updates: 0 };
  void (async () => {
    for await (const value of stream) {
      latest.value = value;
      latest.updates++;
      changed.forEach((check) => check());
    }
  })();
  return latest;
}

const shown = (entry: LiveEntry | null) => entry && [entry.playerId, entry.rank, entry.sharedRank, entry.score];
const shownAll = (entries: LiveEntry[]) => entries.map(shown);

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

it('keeps every subscription on the state a fresh read gives, through moves, ties, imports and removals (bulk ones too)', async () => {
  const board = uniqueId('live-model');
  await leaderboards.createBoard({ id: board, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
  const players = Array.from({ length: 40 }, (_, i) => `p${i}`);
  await leaderboards.submit(players.slice(0, 30).map((playerId, i) => ({ boardId: board, playerId, score: i % 7 })));
  const tops = [1, 5, 25, 60];
  const arounds = players.slice(0, 12).map((player, i) => ({ player, radius: i % 4 }));

  const changed = new Set<() => void>();
  const rankLatest = await Promise.all(players.map(async (player) => latestOf(await follow(eager.rankChanged(board, player)), changed)));
  const topLatest = await Promise.all(tops.map(async (first) => latestOf(await follow(eager.topChanged(board, first)), changed)));
  const aroundLatest = await Promise.all(
    arounds.map(async ({ player, radius }) => latestOf(await follow(eager.aroundChanged(board, player, radius)), changed)),
  );

  /** Every subscription's latest update shows what Redis holds now. */
  const settled = async () => {
    const entries = await leaderboards.entries(board, players);
    const pages = await Promise.all(tops.map((first) => leaderboards.page(board, { limit: first })));
    const windows = await Promise.all(arounds.map(({ player, radius }) => leaderboards.around(board, player, radius)));
    await eventually(
      () => ({
        ranks: rankLatest.map((latest) => latest.value && shown(latest.value.entry)),
        tops: topLatest.map((latest) => latest.value && shownAll(latest.value.entries)),
        arounds: aroundLatest.map((latest) => latest.value && shownAll(latest.value.entries)),
      }),
      {
        ranks: entries.map(shown),
        tops: pages.map((page) => shownAll(page.entries)),
        arounds: windows.map((window) => shownAll(window?.entries ?? [])),
      },
      changed,
    );
  };

  const next = random(20261130);
  const past = Date.now() * 1000 - 3_600_000_000;
  const write = () => {
    const playerId = players[next(players.length)];
    const roll = next(10);
    if (roll === 0) {
      // Removals, one at a time or in bulk (one event message with a line per removed entry).
      const score = next(9);
      switch (next(4)) {
        case 0: return leaderboards.removeEntries({ leaderboardId: board, playerIds: [playerId, players[next(players.length)]] });
        case 1: return leaderboards.removeByScore({ leaderboardId: board, min: { value: score }, max: { value: score } });
        case 2: return leaderboards.keepTop({ leaderboardId: board, count: 15 + next(15) });
        default: return leaderboards.remove(board, playerId);
      }
    }
    const reachedAtMicros = roll === 1 ? past + next(1000) : undefined;
    return leaderboards.submit([{ boardId: board, playerId, score: next(9), reachedAtMicros }]);
  };
  // One write at a time, each checked; then bursts of concurrent ones that land within one refresh.
  for (let round = 0; round < 150; round++) {
    await write();
    await settled();
  }
  for (let round = 0; round < 10; round++) {
    await Promise.all(Array.from({ length: 8 }, write));
    await settled();
  }
}, 30_000);

it('reads nothing for a write, however many subscriptions it moves: they follow its event', async () => {
  const board = uniqueId('live-fanout');
  await leaderboards.createBoard({ id: board, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
  const players = Array.from({ length: 1000 }, (_, i) => `p${i}`);
  await leaderboards.submit(players.map((playerId, i) => ({ boardId: board, playerId, score: 1000 - i })));
  const changed = new Set<() => void>();
  const latest = await Promise.all(players.map(async (player) => latestOf(await follow(live.rankChanged(board, player)), changed)));
  await eventually(() => latest.every((one) => one.updates === 1), true, changed); // the snapshots

  const { store } = leaderboards;
  const reads = [jest.spyOn(store, 'entriesAt'), jest.spyOn(store, 'page'), jest.spyOn(store, 'aroundAt')];
  try {
    // p998 (rank 999) overtakes p997 (rank 998): only those two move.
    await leaderboards.submit([{ boardId: board, playerId: 'p998', score: 3.5 }]);
    await eventually(() => [latest[997].value?.entry?.rank, latest[998].value?.entry?.rank], [999, 998], changed);
    expect(latest.filter((one) => one.updates > 1)).toHaveLength(2);

    // p0 falls from the top to the bottom: the 999 players below it all move up.
    await leaderboards.submit([{ boardId: board, playerId: 'p0', score: -1 }]);
    await eventually(() => latest.map((one) => one.value?.entry?.rank), [1000, ...players.slice(1).map((_, i) => (i === 996 ? 998 : i === 997 ? 997 : i + 1))], changed);
    for (const read of reads) expect(read).not.toHaveBeenCalled();
  } finally {
    reads.forEach((read) => read.mockRestore());
  }
});

it('moves windows that reach the end of the board with every new player below them', async () => {
  const board = uniqueId('live-end');
  await leaderboards.createBoard({ id: board, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
  await leaderboards.submit(['a', 'b', 'c'].map((playerId, i) => ({ boardId: board, playerId, score: 30 - 10 * i })));
  const changed = new Set<() => void>();
  const around = latestOf(await follow(eager.aroundChanged(board, 'c', 1)), changed);
  const top = latestOf(await follow(eager.topChanged(board, 5)), changed);
  const players = (entries?: LiveEntry[]) => entries?.map((entry) => entry.playerId);
  await eventually(() => [players(around.value?.entries), players(top.value?.entries)], [['a', 'b', 'c'], ['a', 'b', 'c']], changed);

  await leaderboards.submit([{ boardId: board, playerId: 'd', score: 5 }]);
  await eventually(() => [players(around.value?.entries), players(top.value?.entries)], [['b', 'c', 'd'], ['a', 'b', 'c', 'd']], changed);
});

it('moves the subscriptions below entries removed in bulk, and tells removed players', async () => {
  const board = uniqueId('live-bulk');
  await leaderboards.createBoard({ id: board, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
  await leaderboards.submit(['a', 'b', 'c', 'd', 'e'].map((playerId, i) => ({ boardId: board, playerId, score: 5 - i })));
  const changed = new Set<() => void>();
  const watched = ['b', 'c', 'e'];
  const ranks = await Promise.all(watched.map(async (player) => latestOf(await follow(live.rankChanged(board, player)), changed)));
  const now = () => ranks.map((latest) => latest.value && [shown(latest.value.entry), latest.value.cause]);
  await eventually(now, [[['b', 2, 2, 4], 'snapshot'], [['c', 3, 3, 3], 'snapshot'], [['e', 5, 5, 1], 'snapshot']], changed);
  await leaderboards.removeByScore({ leaderboardId: board, min: { value: 3 }, max: { value: 4 } });
  await eventually(now, [[null, 'removed'], [null, 'removed'], [['e', 3, 3, 1], 'rank']], changed);
  await leaderboards.removeEntries({ leaderboardId: board, playerIds: ['a'] });
  await eventually(now, [[null, 'removed'], [null, 'removed'], [['e', 2, 2, 1], 'rank']], changed);
});
