import { Leaderboards } from '../../../src/domain/leaderboards';
import { BoardFeed, MARK_RENEW_MS } from '../../../src/domain/live/boardFeed';
import type { LiveEntry } from '../../../src/domain/live/moves';
import { PlayerWatch, type RankChange, TopWatch, type TopUpdate } from '../../../src/domain/live/watches';
import { checkPeriodConfig, serializePeriodConfig } from '../../../src/domain/periods/settings';
import type { EventBridge } from '../../../src/store/eventBridge';
import type { BoardEvent, PeriodEvents } from '../../../src/store/events';
import type { BoardConfig, BoardRef } from '../../../src/model';
import { FakeClock } from '../../support/fakeClock';

const INTERVAL = 100;
const EVERY = 1_000;

/** Lets reads and deliveries that are already settled run (no time passes on the fake clock). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const entry = (playerId: string, rank: number, score: number): LiveEntry => ({
  playerId, score, rank, sharedRank: rank, reachedAtMicros: 0, total: 20, percentile: (100 * (20 - rank + 1)) / 20,
});

/** `mover` goes from rank `from` to `to` with `score` (scores 100 - rank keep ranks and shared ranks equal). */
const moved = (mover: string, from: number, to: number): BoardEvent => ({
  kind: 'score', playerId: mover, score: 100 - to, rank: to, sharedRank: to, previousScore: 100 - from, previousRank: from, reachedAtMicros: 0, total: 20,
});

/** 2026-12-01T23:59:59 in Tokyo (UTC+9), in ms. */
const TOKYO_LAST_SECOND = Date.UTC(2026, 11, 1, 14, 59, 59);

/**
 * One board's feed over a store that knows player `p` at rank 5 (version 0) in ALL_TIME and in
 * any period, and an event bridge the test publishes on; the live Clock and the periods'
 * MomentClock are one FakeClock, starting one second before Tokyo's midnight.
 */
async function fixture(periods?: Parameters<typeof checkPeriodConfig>[0]) {
  const clock = new FakeClock();
  clock.advance(TOKYO_LAST_SECOND);
  const reads: string[][] = [];
  const readOf: string[] = [];
  const marks: { kinds: string[]; untilMs: number }[] = [];
  const where = (ref: BoardRef) => (typeof ref === 'string' ? 'ALL_TIME' : `${ref.kind}:${ref.key}`);
  const store = {
    entriesAt: async (ref: BoardRef, ids: string[]) => {
      reads.push(ids);
      readOf.push(where(ref));
      return { entries: ids.map((id) => (id === 'p' ? { ...entry('p', 5, 95), cursor: '' } : null)), version: 0 };
    },
    page: async (ref: BoardRef, { limit }: { limit: number }) => {
      readOf.push(where(ref));
      // A period that has just started is empty.
      const entries = where(ref) === 'DAILY:2026-12-02' ? [] : [{ ...entry('p', 1, 99), cursor: '' }];
      return { entries: entries.slice(0, limit), total: entries.length, hasMore: false, version: 0 };
    },
    markWatched: async (_board: string, kinds: string[], untilMs: number) => {
      marks.push({ kinds, untilMs });
    },
  };
  const leaderboards = new Leaderboards(store as never, undefined, { nowMicros: () => clock.now() * 1000 });
  const board: BoardConfig = {
    id: 'b', title: null, sortOrder: 'DESCENDING', updatePolicy: 'BEST', createdAt: 0, buckets: 1, denseRanks: false,
    periods: serializePeriodConfig(checkPeriodConfig(periods)),
  };
  const bridge = { listen: async () => () => undefined } as unknown as EventBridge;
  const feed = new BoardFeed('b', leaderboards, bridge, INTERVAL, () => undefined, clock);
  await feed.ready;
  let version = 0;
  const publish = (event: BoardEvent | null, periodEvents: PeriodEvents[] = []) =>
    feed.events({ version: ++version, events: event ? [event] : [], periods: periodEvents });
  /** Moves time on, letting whatever that starts run. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await settle();
  };
  /** The ranking a subscription names: the period of `kind` at the fake now (ALL_TIME by default), and whether it rolls. */
  const ranking = (request?: { kind: string; key?: string }) => {
    feed.acquire();
    const period = leaderboards.period(board, request);
    return feed.ranking(board, { period, rolls: period.kind !== 'ALL_TIME' && request?.key === undefined });
  };
  return { clock, feed, reads, readOf, marks, publish, advance, ranking };
}

/** Reads the stream as a subscriber would; `next()` gives what arrived since it was last called (undefined: nothing). */
function received<T = RankChange>(stream: AsyncIterable<T>) {
  const arrived: T[] = [];
  void (async () => {
    for await (const change of stream) arrived.push(change);
  })();
  return async () => {
    await settle();
    expect(arrived.length).toBeLessThanOrEqual(1);
    return arrived.shift();
  };
}

describe('rankChanged with a slower rate (every)', () => {
  it("sends moves caused by others at most once per `every`, showing the latest, and the player's own change at once", async () => {
    const { reads, publish, advance, ranking } = await fixture();
    const pending = received((await ranking()).watch('rank:p', () => new PlayerWatch('p', EVERY)));
    await advance(0);
    expect((await pending())?.entry?.rank).toBe(5);

    publish(moved('q', 10, 1)); // q passes p: 5 -> 6
    await advance(0);
    expect(await pending()).toBeUndefined();
    await advance(300);
    publish(moved('r', 12, 2)); // r passes p: 6 -> 7
    await advance(0);
    await advance(EVERY - 301);
    expect(await pending()).toBeUndefined();

    // `every` after the snapshot: the latest state, with where the subscriber last saw the player.
    await advance(1);
    expect(await pending()).toMatchObject({ entry: entry('p', 7, 95), previousRank: 5, previousScore: 95, cause: 'rank' });

    // The player's own write, 100 ms later: at once.
    await advance(100);
    publish(moved('p', 7, 3));
    await advance(0);
    expect(await pending()).toMatchObject({ entry: { rank: 3, score: 97 }, previousRank: 7, cause: 'score' });

    // Others again, right after: held for `every` from that update.
    publish(moved('s', 15, 1)); // 3 -> 4
    await advance(INTERVAL);
    expect(await pending()).toBeUndefined();
    await advance(EVERY - INTERVAL);
    expect(await pending()).toMatchObject({ entry: { rank: 4 }, previousRank: 3, cause: 'rank' });
    expect(reads).toEqual([['p']]); // only the first read: every other state came from the events
  });

  it('sends every change on its own without `every`', async () => {
    const { publish, advance, ranking } = await fixture();
    const pending = received((await ranking()).watch('rank:p', () => new PlayerWatch('p')));
    await advance(0);
    await pending();
    publish(moved('q', 10, 1));
    await advance(0);
    expect((await pending())?.entry?.rank).toBe(6);
    publish(moved('r', 12, 2));
    await advance(INTERVAL);
    expect((await pending())?.entry?.rank).toBe(7);
  });
});

describe('a subscription to the current period', () => {
  const TOKYO_DAILY = { timeZone: 'Asia/Tokyo', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] };
  const shown = (top: TopUpdate | undefined) => top && { key: top.scope.period.kind + ':' + top.scope.period.key, players: top.entries.map((e) => e.playerId) };

  it("rolls over at the boundary by itself: its subscribers get the new day's empty snapshot, no write needed", async () => {
    const { readOf, advance, ranking } = await fixture(TOKYO_DAILY);
    const pending = received<TopUpdate>((await ranking({ kind: 'DAILY' })).watch('top:3', () => new TopWatch(3)));
    await advance(0);
    expect(shown(await pending())).toEqual({ key: 'DAILY:2026-12-01', players: ['p'] });
    await advance(999);
    expect(await pending()).toBeUndefined();
    await advance(1); // Tokyo's midnight
    expect(shown(await pending())).toEqual({ key: 'DAILY:2026-12-02', players: [] });
    expect(readOf).toEqual(['DAILY:2026-12-01', 'DAILY:2026-12-02']);
  });

  it('rolls over at once on an event of a later period of its kind (Redis clock ahead of this one)', async () => {
    const { publish, advance, ranking } = await fixture(TOKYO_DAILY);
    const pending = received<TopUpdate>((await ranking({ kind: 'DAILY' })).watch('top:3', () => new TopWatch(3)));
    await advance(0);
    await pending();
    await advance(500);
    const first: BoardEvent = { kind: 'score', playerId: 'q', score: 99, rank: 1, sharedRank: 1, previousScore: null, previousRank: null, reachedAtMicros: 0, total: 1 };
    publish(null, [{ kind: 'DAILY', key: '2026-12-02', events: [first] }]);
    await advance(0);
    // The new day's read (empty), followed by the event after it.
    expect(shown(await pending())).toEqual({ key: 'DAILY:2026-12-02', players: ['q'] });
    await advance(500); // the boundary's own timer finds the feed on that period already
    expect(await pending()).toBeUndefined();
  });

  it('stays on a period given by its key, and on ALL_TIME', async () => {
    const { clock, advance, ranking } = await fixture(TOKYO_DAILY);
    const daily = received<TopUpdate>((await ranking({ kind: 'DAILY', key: '2026-12-01' })).watch('top:3', () => new TopWatch(3)));
    const allTime = received<TopUpdate>((await ranking()).watch('top:3', () => new TopWatch(3)));
    await advance(0);
    await daily();
    await allTime();
    await advance(60_000);
    expect(await daily()).toBeUndefined();
    expect(await allTime()).toBeUndefined();
    expect(clock.pendingTimers).toBe(1); // the renewal of the DAILY mark, nothing for a boundary
  });

  it('marks its kind as followed before its first read, renews the mark, and stops when its last subscriber leaves', async () => {
    const { clock, marks, readOf, advance, ranking } = await fixture(TOKYO_DAILY);
    const stream = (await ranking({ kind: 'DAILY' })).watch('top:3', () => new TopWatch(3));
    expect(marks).toEqual([{ kinds: ['DAILY'], untilMs: TOKYO_LAST_SECOND + 30_000 }]);
    expect(readOf).toEqual([]);
    await advance(MARK_RENEW_MS);
    expect(marks.map((mark) => mark.untilMs)).toEqual([TOKYO_LAST_SECOND + 30_000, TOKYO_LAST_SECOND + MARK_RENEW_MS + 30_000]);
    await stream.return();
    await advance(MARK_RENEW_MS);
    expect(marks).toHaveLength(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it("reads again on a change of its period that came without ranks (the mark had lapsed)", async () => {
    const { readOf, publish, advance, ranking } = await fixture(TOKYO_DAILY);
    const pending = received<TopUpdate>((await ranking({ kind: 'DAILY' })).watch('top:3', () => new TopWatch(3)));
    await advance(0);
    await pending();
    publish(moved('q', 10, 1), [{ kind: 'DAILY', key: '2026-12-01', events: [{ kind: 'unranked', playerId: 'q', score: 99, previousScore: null, reachedAtMicros: 0 }] }]);
    await advance(0);
    expect(readOf).toEqual(['DAILY:2026-12-01', 'DAILY:2026-12-01']);
  });
});
