import { Changes } from '../../../src/domain/live/changes';
import { deliver, FEED_BUFFER, type FeedItem, MissedEvents, SubmittedFeed, type SubmittedEntry } from '../../../src/domain/live/fanOut';
import { LiveStream } from '../../../src/domain/live/liveStream';
import { type AnyWatch, WatchIndex } from '../../../src/domain/live/watchIndex';
import { PlayerWatch, type RankChange } from '../../../src/domain/live/watches';
import type { BoardEvent } from '../../../src/store/events';
import type { Entry } from '../../../src/model';

const scored = (playerId: string, score: number, rank: number, previous = { previousScore: null as number | null, previousRank: null as number | null }): BoardEvent => ({
  kind: 'score',
  playerId,
  score,
  rank,
  sharedRank: rank,
  ...previous,
  reachedAtMicros: 7,
  total: 4,
});

/** The next `count` values of a stream: each one already queued, or undefined for its end. */
async function queued<T>(stream: LiveStream<T>, count: number): Promise<(T | undefined)[]> {
  const values: (T | undefined)[] = [];
  for (let i = 0; i < count; i++) values.push((await stream.next()).value);
  return values;
}

const entryOf = (item: FeedItem | undefined) => (item as SubmittedEntry | undefined)?.entry;

describe('SubmittedFeed', () => {
  it('sends each accepted score to every subscriber (the entry and what it was before), built once, and leaves removals out', async () => {
    const feed = new SubmittedFeed();
    const streams = [feed.join(() => undefined), feed.join(() => undefined)];
    feed.event(scored('a', 10, 1));
    feed.event({ kind: 'removed', playerId: 'b', previousScore: 5, previousRank: 2, total: 3 });
    feed.event(scored('c', 3, 3, { previousScore: 1, previousRank: 4 }));

    const [first, second] = await Promise.all(streams.map((stream) => queued(stream, 2)));
    expect(first).toEqual([
      {
        entry: { playerId: 'a', score: 10, rank: 1, sharedRank: 1, reachedAtMicros: 7, total: 4, percentile: 100 },
        previousScore: null,
        previousRank: null,
      },
      expect.objectContaining({ entry: expect.objectContaining({ playerId: 'c', rank: 3 }), previousScore: 1, previousRank: 4 }),
    ]);
    second.forEach((item, i) => expect(item).toBe(first[i]));
  });

  it('marks where events may be missing: after a reconnection for everyone, and where a slow subscriber lost some', async () => {
    const feed = new SubmittedFeed();
    const reading = feed.join(() => undefined);
    const slow = feed.join(() => undefined);
    feed.reconnected();
    expect(await reading.next()).toEqual({ value: new MissedEvents('reconnected'), done: false });
    for (let rank = 1; rank <= FEED_BUFFER + 5; rank++) feed.event(scored('a', rank, rank));

    const behind = await queued(slow, FEED_BUFFER);
    expect(behind[0]).toEqual(new MissedEvents('fell-behind'));
    expect(entryOf(behind[1])?.rank).toBe(7);
    expect(entryOf(behind[FEED_BUFFER - 1])?.rank).toBe(FEED_BUFFER + 5);
  });

  it('stops sending to a subscriber that left, and ends the others with the board, each leaving once', async () => {
    const feed = new SubmittedFeed();
    const left: string[] = [];
    const leaving = feed.join(() => left.push('leaving'));
    const staying = feed.join(() => left.push('staying'));
    await leaving.return();
    const pushed = jest.spyOn(leaving, 'push');
    feed.event(scored('a', 1, 1));
    feed.end();
    feed.event(scored('b', 2, 1));
    expect(pushed).not.toHaveBeenCalled();
    expect((await queued(staying, 2)).map((item) => entryOf(item)?.playerId)).toEqual(['a', undefined]);
    expect(left).toEqual(['leaving', 'staying']);
  });
});

describe('deliver', () => {
  const entry = (playerId: string, rank: number): Entry => ({
    playerId,
    score: 100 - rank,
    rank,
    sharedRank: rank,
    reachedAtMicros: 0,
    percentile: 0,
    total: 10,
    cursor: '',
  });

  /** A player watch under `rank:<player>` with one subscriber waiting for its snapshot. */
  function subscribed(index: WatchIndex, player: string) {
    const watch = new PlayerWatch(player);
    const stream = new LiveStream<RankChange>(1, () => watch.subscribers.delete(stream));
    watch.join(stream, false);
    index.add(`rank:${player}`, watch as AnyWatch);
    return { watch: watch as AnyWatch, stream };
  }

  /** Changes at `rank` by a player no watch follows, so only the rank index can find a watch. */
  const changeAt = (rank: number) => {
    const changes = new Changes();
    changes.add(scored('x', 1_000 + rank, rank, { previousScore: 2_000 + rank, previousRank: rank }));
    return changes;
  };

  it("sends each state to the watch's subscribers and files the watch where the state shows it", async () => {
    const index = new WatchIndex();
    const a = subscribed(index, 'a');
    const b = subscribed(index, 'b');
    const failed = deliver([a.watch, b.watch], [{ status: 'fulfilled', value: { state: entry('a', 3), version: 1 } }, { status: 'fulfilled', value: { state: entry('b', 5), version: 1 } }], new Changes(), index, 0);

    expect(failed).toBe(false);
    expect(await a.stream.next()).toEqual({ value: { entry: entry('a', 3), previousRank: null, previousScore: null, cause: 'snapshot' }, done: false });
    expect((await b.stream.next()).value?.entry?.rank).toBe(5);
    expect([...index.affected(changeAt(3))]).toEqual([a.watch]);
    expect([...index.affected(changeAt(5))]).toEqual([b.watch]);
  });

  it('puts a watch whose read failed back among those to read, and says a read failed', () => {
    const index = new WatchIndex();
    const a = subscribed(index, 'a');
    const pushed = jest.spyOn(a.stream, 'push');
    expect(deliver([a.watch], [{ status: 'rejected', reason: new Error('down') }], new Changes(), index, 0)).toBe(true);
    expect(pushed).not.toHaveBeenCalled();
    expect(index.isUnread(a.watch)).toBe(true);
  });

  it('leaves alone a watch dropped while it was read', async () => {
    const index = new WatchIndex();
    const gone = subscribed(index, 'gone');
    const pushed = jest.spyOn(gone.stream, 'push');
    await gone.stream.return();
    index.drop('rank:gone', gone.watch);

    expect(deliver([gone.watch], [{ status: 'rejected', reason: new Error('down') }], new Changes(), index, 0)).toBe(false);
    expect(index.hasUnread).toBe(false);
    expect(deliver([gone.watch], [{ status: 'fulfilled', value: { state: entry('gone', 4), version: 1 } }], new Changes(), index, 0)).toBe(false);
    expect(index.affected(changeAt(4)).size).toBe(0);
    expect(pushed).not.toHaveBeenCalled();
  });
});
