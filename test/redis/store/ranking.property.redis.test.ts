import fc from 'fast-check';
import type { Entry, PlayerEntry, SortOrder, UpdatePolicy } from '../../../src/model';
import { uniqueId } from '../../support/redis';
import { submitted, useTestStore } from '../../support/store';
import { MAX_SCORE, ReferenceBoard, windowStart, type RankedEntry } from '../../support/referenceModel';

/**
 * Random sequences of submissions (live and imported), batches and removals, on every policy
 * and both orders, must leave the store ranked exactly as the reference model; every read is
 * then checked against the model too.
 */
const t = useTestStore();

// Numeric, non-canonical numeric, and text ids: the store encodes each kind differently.
const PLAYERS = ['12345678', '0', '007', 'amy', 'zed:1', 'x.y_z-9'];
// Few distinct values so ties are everywhere; extremes, negatives and fractions included.
const SCORES = [0, 1, -1, 2.5, -2.5, 0.1, 0.2, 1e-9, 100, 4096, MAX_SCORE, -MAX_SCORE, MAX_SCORE - 1];
// Imported moments repeat, so arrival order must break their ties.
const MOMENTS = [1_000_000, 2_000_000, 1_600_000_000_000_000];

const submission = fc.record({
  playerId: fc.constantFrom(...PLAYERS),
  score: fc.oneof(fc.constantFrom(...SCORES), fc.integer({ min: -5, max: 5 })),
  reachedAtMicros: fc.option(fc.constantFrom(...MOMENTS), { nil: undefined, freq: 3 }),
});
const operation = fc.oneof(
  { weight: 6, arbitrary: submission.map((s) => ({ kind: 'submit' as const, items: [s] })) },
  { weight: 2, arbitrary: fc.array(submission, { minLength: 2, maxLength: 4 }).map((items) => ({ kind: 'submit' as const, items })) },
  { weight: 1, arbitrary: fc.constantFrom(...PLAYERS).map((playerId) => ({ kind: 'remove' as const, playerId })) },
);

const project = (e: PlayerEntry | RankedEntry) => ({
  playerId: e.playerId, score: e.score, rank: e.rank, sharedRank: e.sharedRank, reachedAtMicros: e.reachedAtMicros,
});

async function readAll(boardId: string): Promise<Entry[]> {
  return (await t.store.page(boardId, { limit: 1000 })).entries;
}

async function checkReads(boardId: string, model: ReferenceBoard): Promise<void> {
  const expected = model.ranking();
  const total = expected.length;
  expect((await readAll(boardId)).map(project)).toEqual(expected.map(project));

  const entries = await t.store.entries(boardId, PLAYERS);
  PLAYERS.forEach((id, i) => {
    const want = expected.find((e) => e.playerId === id);
    expect(entries[i] && project(entries[i]!)).toEqual(want ? project(want) : null);
    if (want) expect(entries[i]!.percentile).toBeCloseTo((100 * (total - want.rank + 1)) / total, 10);
  });
  // Read without the shared rank: the same entries, that field left out.
  const lean = await t.store.entries(boardId, PLAYERS, { sharedRank: false });
  expect(lean).toEqual(entries.map((entry) => entry && { ...entry, sharedRank: undefined }));

  for (const radius of [0, 1, 2]) {
    for (const id of PLAYERS) {
      const window = await t.store.around(boardId, id, radius);
      const rank = model.rankOf(id);
      if (rank === null) {
        expect(window).toBeNull();
        continue;
      }
      const start = windowStart(rank - 1 - radius, 2 * radius + 1, total);
      expect(window!.center!.playerId).toBe(id);
      expect(window!.entries.map(project)).toEqual(expected.slice(start, start + 2 * radius + 1).map(project));
    }
    for (const score of [0, 2.5, -MAX_SCORE, 7]) {
      const window = await t.store.aroundScore(boardId, score, radius);
      const start = windowStart(model.positionOfScore(score) - radius, 2 * radius, total);
      expect(window.center).toBeNull();
      expect(window.entries.map(project)).toEqual(expected.slice(start, start + 2 * radius).map(project));
    }
  }

  for (const percent of [1, 33.3, 50, 100]) {
    const top = await t.store.topPercent(boardId, percent, 2);
    const count = Math.ceil((total * percent) / 100);
    expect(top.count).toBe(count);
    expect(top.entries.map(project)).toEqual(expected.slice(0, Math.min(count, 2)).map(project));
  }

  // Pages come top-down either way: backward, each page goes before the ones already read.
  for (const backward of [false, true]) {
    const seen: Entry[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await t.store.page(boardId, { limit: 2, cursor, backward });
      if (backward) seen.unshift(...page.entries);
      else seen.push(...page.entries);
      if (!page.hasMore) break;
      cursor = (backward ? page.entries[0] : page.entries[page.entries.length - 1]).cursor;
    }
    expect(seen.map(project)).toEqual(expected.map(project));
    const byOffset = await t.store.page(boardId, { limit: 2, offset: 1, backward });
    const skipped = backward ? expected.slice(Math.max(0, expected.length - 3), expected.length - 1) : expected.slice(1, 3);
    expect(byOffset.entries.map(project)).toEqual(skipped.map(project));
  }
}

const combos: [SortOrder, UpdatePolicy][] = [];
for (const order of ['DESCENDING', 'ASCENDING'] as SortOrder[]) {
  for (const policy of ['BEST', 'LATEST', 'INCREMENT'] as UpdatePolicy[]) combos.push([order, policy]);
}

describe.each(combos)('%s board with %s policy', (sortOrder, updatePolicy) => {
  it('ranks exactly as the reference model after any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 25 }), async (operations) => {
        const boardId = uniqueId('prop');
        await t.store.createBoard({ id: boardId, sortOrder, updatePolicy, capacity: 256 });
        const model = new ReferenceBoard(sortOrder, updatePolicy);
        let lastLiveMoment = 0;
        try {
          for (const op of operations) {
            if (op.kind === 'remove') {
              expect(await t.store.remove(boardId, op.playerId)).toBe(model.remove(op.playerId));
              continue;
            }
            // The model decides whether the batch must be refused (an INCREMENT overflow).
            if (wouldOverflow(model, op.items)) {
              const before = await readAll(boardId);
              await expect(submitted(t.store, boardId, op.items)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
              expect(await readAll(boardId)).toEqual(before);
              continue;
            }
            const results = await submitted(t.store, boardId, op.items);
            op.items.forEach((item, i) => {
              const result = results[i];
              const imported = item.reachedAtMicros !== undefined;
              if (result.changed && !imported) {
                expect(result.entry.reachedAtMicros).toBeGreaterThan(lastLiveMoment);
                lastLiveMoment = result.entry.reachedAtMicros;
              }
              const want = model.submit(item.playerId, item.score, imported ? item.reachedAtMicros! : result.entry.reachedAtMicros, imported);
              expect({ changed: result.changed, previousScore: result.previousScore, previousRank: result.previousRank }).toEqual(want);
              expect(result.replayed).toBe(false);
            });
            // Results report each item's entry as of its own write: the last item's is current.
            const last = results[results.length - 1].entry;
            expect(project(last)).toEqual(project(model.ranking().find((e) => e.playerId === last.playerId)!));
            expect(await readAll(boardId).then((all) => all.map(project))).toEqual(model.ranking().map(project));
          }
          await checkReads(boardId, model);
        } finally {
          await t.store.deleteBoard(boardId);
        }
      }),
      { numRuns: 25 },
    );
  });
});

/** Runs the batch through a copy of the model: does any INCREMENT leave the exact range? */
function wouldOverflow(model: ReferenceBoard, items: { playerId: string; score: number }[]): boolean {
  const trial = model.clone();
  return items.some((item) => {
    if (trial.nextScore(item.playerId, item.score) === 'overflow') return true;
    trial.submit(item.playerId, item.score, 0, false);
    return false;
  });
}
