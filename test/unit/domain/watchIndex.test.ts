import fc from 'fast-check';
import { Changes } from '../../../src/domain/live/changes';
import { type AnyWatch, WatchIndex } from '../../../src/domain/live/watchIndex';
import { AroundWatch, PlayerWatch, TopWatch } from '../../../src/domain/live/watches';
import type { BoardEvent } from '../../../src/store/events';
import type { Entry } from '../../../src/model';

// A small board, so that spans, scores and players collide often.
const RANKS = 60;
const player = fc.integer({ min: 0, max: 5 }).map((i) => `p${i}`);
const score = fc.integer({ min: 0, max: 20 });
const rank = fc.integer({ min: 1, max: RANKS });

const entry = (at: number, points: number): Entry => ({
  playerId: `e${at}`,
  score: points,
  rank: at,
  sharedRank: at,
  reachedAtMicros: 0,
  percentile: 0,
  total: RANKS,
  cursor: '',
});

const watchSpec = fc.oneof(
  player.map((id) => ({ key: `rank:${id}`, create: () => new PlayerWatch(id) as AnyWatch })),
  fc.integer({ min: 1, max: 20 }).map((first) => ({ key: `top:${first}`, create: () => new TopWatch(first) as AnyWatch })),
  fc.tuple(player, fc.integer({ min: 0, max: 3 })).map(([id, radius]) => ({
    key: `around:${radius}:${id}`,
    create: () => new AroundWatch(id, radius) as AnyWatch,
  })),
);

/** What a read of `watch` may return: entries from rank `start` with these scores. */
const readOf = fc.record({ start: rank, scores: fc.array(score, { maxLength: 7 }), atEnd: fc.boolean() });
function stateFor(watch: AnyWatch, { start, scores, atEnd }: { start: number; scores: number[]; atEnd: boolean }): unknown {
  if (watch instanceof PlayerWatch) return scores.length === 0 ? null : entry(start, scores[0]);
  if (watch instanceof TopWatch) return { entries: scores.map((points, i) => entry(1 + i, points)), total: RANKS, version: 0 };
  const entries = scores.map((points, i) => entry(start + i, points));
  return { run: entries.length ? { start, entries } : null, total: atEnd ? start + entries.length - 1 : RANKS + 10 };
}

const event: fc.Arbitrary<BoardEvent> = fc.oneof(
  fc.record({ playerId: player, score, rank, before: fc.option(fc.tuple(rank, score)) }).map(({ playerId, score, rank, before }) => ({
    kind: 'score' as const,
    playerId,
    score,
    rank,
    sharedRank: rank,
    previousRank: before && before[0],
    previousScore: before && before[1],
    reachedAtMicros: 0,
    total: RANKS,
  })),
  fc.record({ playerId: player, previousScore: score, previousRank: rank }).map((removed) => ({ kind: 'removed' as const, total: RANKS, ...removed })),
);

const operation = fc.oneof(
  fc.record({ op: fc.constant('add' as const), spec: watchSpec }),
  fc.record({ op: fc.constant('read' as const), slot: fc.nat(), read: readOf }),
  fc.record({ op: fc.constant('drop' as const), slot: fc.nat() }),
  fc.record({ op: fc.constant('unread' as const), slot: fc.nat() }),
  fc.record({ op: fc.constant('affected' as const), events: fc.array(event, { maxLength: 4 }) }),
);

/** The watches the events touch, found by looking at every watch and every event. */
function touchedByEvents(events: BoardEvent[], watches: { watch: AnyWatch; state?: { value: unknown } }[]): Set<AnyWatch> {
  const ranges: [number, number][] = [];
  const scores = new Set<number>();
  const players = new Set<string>();
  for (const e of events) {
    if (e.kind === 'score') {
      ranges.push(e.previousRank === null ? [e.rank, Infinity] : [Math.min(e.rank, e.previousRank), Math.max(e.rank, e.previousRank)]);
      scores.add(e.score);
      if (e.previousScore !== null) scores.add(e.previousScore);
      players.add(e.playerId);
    } else if (e.kind === 'removed') {
      ranges.push([e.previousRank, Infinity]);
      scores.add(e.previousScore);
      players.add(e.playerId);
    }
  }
  const touched = new Set<AnyWatch>();
  for (const { watch, state } of watches) {
    if (watch.player !== null && players.has(watch.player)) touched.add(watch);
    if (!state) continue;
    const span = watch.span(state.value);
    if (span && ranges.some(([lo, hi]) => span.start <= hi && span.end >= lo)) touched.add(watch);
    if (watch.scores(state.value).some((points) => scores.has(points))) touched.add(watch);
  }
  return touched;
}

it('finds exactly the watches a change touches, and those waiting to be read, through reads, moves and drops', () => {
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 200, size: 'max' }), (operations) => {
      const index = new WatchIndex();
      const model = new Map<string, { watch: AnyWatch; state?: { value: unknown } }>();
      const unread = new Set<AnyWatch>();
      const ids = new Map<AnyWatch, number>();
      const idsOf = (watches: Iterable<AnyWatch>) => [...watches].map((watch) => ids.get(watch)!).sort((a, b) => a - b);
      const at = (slot: number) => [...model.keys()][slot % model.size];

      for (const operation of operations) {
        if (operation.op === 'add') {
          const { key, create } = operation.spec;
          if (model.has(key)) continue; // the feed adds a watch only under a free key
          const watch = create();
          ids.set(watch, ids.size);
          index.add(key, watch);
          model.set(key, { watch });
        } else if (operation.op === 'affected') {
          const changes = new Changes();
          operation.events.forEach((e) => changes.add(e));
          expect(idsOf(index.takeUnread())).toEqual(idsOf(unread));
          unread.clear();
          expect(idsOf(index.affected(changes))).toEqual(idsOf(touchedByEvents(operation.events, [...model.values()])));
        } else if (model.size > 0) {
          const key = at(operation.slot);
          const modelled = model.get(key)!;
          if (operation.op === 'read') {
            const value = stateFor(modelled.watch, operation.read);
            index.place(modelled.watch, value);
            modelled.state = { value };
          } else if (operation.op === 'drop') {
            index.drop(key, modelled.watch);
            model.delete(key);
            unread.delete(modelled.watch);
          } else {
            index.markUnread(modelled.watch);
            unread.add(modelled.watch);
          }
        }
        expect(index.hasUnread).toBe(unread.size > 0);
      }
      expect(idsOf(index.all())).toEqual(idsOf([...model.values()].map(({ watch }) => watch)));
      for (const [key, { watch }] of model) {
        expect(index.get(key)).toBe(watch);
        expect(index.isUnread(watch)).toBe(unread.has(watch));
      }
    }),
    { numRuns: 200 },
  );
});
