import type { Leaderboards } from '../../../src/domain/leaderboards';
import { BoardFeed } from '../../../src/domain/live/boardFeed';
import type { LiveEntry } from '../../../src/domain/live/moves';
import { PlayerWatch, type RankChange } from '../../../src/domain/live/watches';
import type { EventBridge } from '../../../src/store/eventBridge';
import type { BoardEvent } from '../../../src/store/events';
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

/**
 * One board's feed over a store that knows player `p` at rank 5 (version 0) and an event bridge
 * the test publishes on; time is a FakeClock.
 */
async function fixture() {
  const clock = new FakeClock();
  const reads: string[][] = [];
  const leaderboards = {
    store: {
      entriesAt: async (_board: string, ids: string[]) => {
        reads.push(ids);
        return { entries: ids.map((id) => (id === 'p' ? { ...entry('p', 5, 95), cursor: '' } : null)), version: 0 };
      },
    },
  } as unknown as Leaderboards;
  const bridge = { listen: async () => () => undefined } as unknown as EventBridge;
  const feed = new BoardFeed('b', leaderboards, bridge, INTERVAL, () => undefined, clock);
  await feed.ready;
  let version = 0;
  const publish = (event: BoardEvent) => feed.events({ version: ++version, events: [event] });
  /** Moves time on, letting whatever that starts run. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await settle();
  };
  return { clock, feed, reads, publish, advance };
}

/** Reads the stream as a subscriber would; `next()` gives what arrived since it was last called (undefined: nothing). */
function received(stream: AsyncIterable<RankChange>) {
  const arrived: RankChange[] = [];
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
    const { feed, reads, publish, advance } = await fixture();
    feed.acquire();
    const pending = received(feed.watch('rank:p', () => new PlayerWatch('p', EVERY)));
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
    expect(await pending()).toEqual({ entry: entry('p', 7, 95), previousRank: 5, previousScore: 95, cause: 'rank' });

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
    const { feed, publish, advance } = await fixture();
    feed.acquire();
    const pending = received(feed.watch('rank:p', () => new PlayerWatch('p')));
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
