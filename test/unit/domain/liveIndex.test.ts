import fc from 'fast-check';
import { Changes } from '../../../src/domain/live/changes';
import { LiveStream } from '../../../src/domain/live/liveStream';
import { RankIndex, type Span } from '../../../src/domain/live/rankIndex';

const span = fc.record({ start: fc.integer({ min: 1, max: 3000 }), length: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(Infinity)) })
  .map(({ start, length }): Span => ({ start, end: start + length - 1 }));

describe('RankIndex', () => {
  it('finds exactly the items whose span shares a rank with the query, through moves and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1500 }), fc.option(span, { freq: 8 })), { minLength: 1, maxLength: 4000, size: 'max' }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 3100 }), fc.integer({ min: 0, max: 200 }), fc.boolean()), { maxLength: 30 }),
        (operations, queries) => {
          const index = new RankIndex<number>();
          const model = new Map<number, Span>();
          for (const [item, at] of operations) {
            index.set(item, at);
            if (at) model.set(item, at);
            else model.delete(item);
          }
          expect(index.size).toBe(model.size);
          for (const [lo, length, open] of queries) {
            const hi = open ? Infinity : lo + length;
            const expected = [...model].filter(([, s]) => s.start <= hi && s.end >= lo).map(([item]) => item);
            expect([...index.touching(lo, hi)].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('Changes', () => {
  it('turns moves, arrivals and removals into the ranks they shift, merged', () => {
    const changes = new Changes();
    const score = { kind: 'score' as const, sharedRank: 1, reachedAtMicros: 0, total: 100 };
    changes.add({ ...score, playerId: 'a', score: 5, rank: 3, previousScore: 1, previousRank: 9 }); // up: 3..9
    changes.add({ ...score, playerId: 'b', score: 2, rank: 12, previousScore: 4, previousRank: 10 }); // down: 10..12
    changes.add({ ...score, playerId: 'c', score: 7, rank: 40, previousScore: null, previousRank: null }); // new: 40..
    changes.add({ kind: 'removed', playerId: 'a', previousScore: 5, previousRank: 50, total: 99 }); // 50..
    expect(changes.intervals()).toEqual([{ start: 3, end: 12 }, { start: 40, end: Infinity }]);
    expect([...changes.scores].sort()).toEqual([1, 2, 4, 5, 7]);
    expect([...changes.players]).toEqual([['a', 'removed'], ['b', 'score'], ['c', 'score']]);
  });
});

describe('LiveStream', () => {
  it('keeps at most its capacity for a subscriber that does not read, losing the oldest', async () => {
    const stream = new LiveStream<number>(2, () => undefined);
    for (let i = 1; i <= 1000; i++) stream.push(i);
    expect(await stream.next()).toEqual({ value: 999, done: false });
    expect(await stream.next()).toEqual({ value: 1000, done: false });
    const waiting = stream.next();
    stream.push(1001);
    expect(await waiting).toEqual({ value: 1001, done: false });
  });

  it('puts one marker where values were lost, in front of the ones it still holds', async () => {
    const stream = new LiveStream<number | 'lost'>(3, () => undefined, () => 'lost');
    for (let i = 1; i <= 3; i++) stream.push(i);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    for (let i = 4; i <= 1000; i++) stream.push(i);
    const read = [];
    for (let i = 0; i < 3; i++) read.push((await stream.next()).value);
    expect(read).toEqual(['lost', 999, 1000]);
    // Nothing lost since: no marker.
    stream.push(1001);
    expect(await stream.next()).toEqual({ value: 1001, done: false });
  });

  it('delivers what is queued before ending, and lets a waiting reader go when the subscriber leaves', async () => {
    let closed = 0;
    const ended = new LiveStream<string>(1, () => closed++);
    ended.push('last');
    ended.end();
    expect(await ended.next()).toEqual({ value: 'last', done: false });
    expect(await ended.next()).toEqual({ value: undefined, done: true });

    const left = new LiveStream<string>(1, () => closed++);
    const waiting = left.next();
    await left.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    left.push('ignored');
    expect(await left.next()).toEqual({ value: undefined, done: true });
    expect(closed).toBe(2);
  });
});
