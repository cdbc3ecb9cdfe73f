import type { Redis } from 'ioredis';
import { boardKeys } from '../../../src/store/keys';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { parseBoardEvents, type BoardEvent, type BoardEventMessage } from '../../../src/store/events';
import { newTestClient, uniqueId } from '../../support/redis';
import { submitted } from '../../support/store';

let redis: Redis;
let subscriber: Redis;
let store: LeaderboardStore;
beforeAll(() => {
  redis = newTestClient();
  subscriber = newTestClient();
  store = new LeaderboardStore(redis);
});
afterAll(() => Promise.all([redis.quit(), subscriber.quit()]));

/** Collects the events of one board; `next(n)` resolves once n more have arrived. */
async function listen(boardId: string) {
  const channel = boardKeys(boardId).events;
  const received: BoardEvent[] = [];
  const versions: (number | null)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  subscriber.on('smessage', (ch: string, message: string) => {
    if (ch !== channel) return;
    const parsed = parseBoardEvents(message);
    versions.push(parsed.version);
    received.push(...parsed.events);
    for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
  });
  await subscriber.ssubscribe(channel);
  return {
    received,
    versions,
    upTo: (count: number) =>
      received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
  };
}

it('publishes every change with old and new rank and score, and nothing for unchanged writes', async () => {
  const id = uniqueId('events');
  await store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' });
  const events = await listen(id);
  const [a] = await submitted(store, id, [{ playerId: 'a', score: 10 }]);
  await submitted(store, id, [{ playerId: 'b', score: 20 }, { playerId: 'a', score: 5 }]); // a: not better
  expect((await store.page(id, { limit: 1 })).version).toBe(2);
  await store.remove(id, 'b');
  await store.deleteBoard(id);
  await events.upTo(4);
  expect(events.received).toEqual([
    { kind: 'score', playerId: 'a', score: 10, rank: 1, sharedRank: 1, previousScore: null, previousRank: null, reachedAtMicros: a.entry.reachedAtMicros, total: 1 },
    expect.objectContaining({ kind: 'score', playerId: 'b', score: 20, rank: 1, previousScore: null, total: 2 }),
    { kind: 'removed', playerId: 'b', previousScore: 20, previousRank: 1, total: 1 },
    { kind: 'deleted' },
  ]);
  // One version per write that changed something; reads report the version they saw.
  expect(events.versions).toEqual([1, 2, 3, null]);
});

it('publishes the creation of a board, also of one deleted before, and nothing when it already exists', async () => {
  const id = uniqueId('created');
  const events = await listen(id);
  const create = () => store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' });
  await create();
  await create();
  await store.deleteBoard(id);
  await create();
  await events.upTo(3);
  expect(events.received).toEqual([{ kind: 'created' }, { kind: 'deleted' }, { kind: 'created' }]);
  expect(events.versions).toEqual([0, null, 0]);
});

it("puts a period's ranks in its lines only while its kind is marked as followed, and ALL_TIME's always", async () => {
  const id = uniqueId('watched');
  const leaderboards = new Leaderboards(store);
  await leaderboards.createBoard({
    id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }, { kind: 'WEEKLY' }] },
  });
  const messages: BoardEventMessage[] = [];
  const channel = boardKeys(id).events;
  let gone: () => void;
  const deleted = new Promise<void>((resolve) => (gone = resolve));
  subscriber.on('smessage', (ch: string, message: string) => {
    if (ch !== channel) return;
    messages.push(parseBoardEvents(message));
    if (messages[messages.length - 1].events.some((e) => e.kind === 'deleted')) gone();
  });
  await subscriber.ssubscribe(channel);
  const [a] = await leaderboards.submit([{ boardId: id, playerId: 'a', score: 10 }]);
  await store.markWatched(id, ['DAILY'], Date.now() + 60_000, 60_000);
  await store.markWatched(id, ['WEEKLY'], Date.now() - 1, 60_000); // lapsed
  const [b] = await leaderboards.submit([{ boardId: id, playerId: 'a', score: 20 }]);
  await leaderboards.deleteBoard(id);
  await deleted;
  const unranked = (score: number, previousScore: number | null, reachedAtMicros: number) =>
    ({ kind: 'unranked', playerId: 'a', score, previousScore, reachedAtMicros });
  expect(messages[0].events).toEqual([expect.objectContaining({ kind: 'score', rank: 1, total: 1 })]);
  expect(messages[0].periods.map((p) => [p.kind, p.events])).toEqual([
    ['DAILY', [unranked(10, null, a.entry.reachedAtMicros)]],
    ['WEEKLY', [unranked(10, null, a.entry.reachedAtMicros)]],
  ]);
  expect(messages[1].periods.map((p) => [p.kind, p.events])).toEqual([
    ['DAILY', [{ kind: 'score', playerId: 'a', score: 20, rank: 1, sharedRank: 1, previousScore: 10, previousRank: 1, reachedAtMicros: b.entry.reachedAtMicros, total: 1 }]],
    ['WEEKLY', [unranked(20, 10, b.entry.reachedAtMicros)]],
  ]);
  expect(await redis.exists(boardKeys(id).watched)).toBe(0); // deleteBoard takes the marks too
});
