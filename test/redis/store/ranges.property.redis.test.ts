import fc from 'fast-check';
import { boardKeys } from '../../../src/store/keys';
import { decodeMember } from '../../../src/store/memberCodec';
import type { Entry, ScoreBound, ScoreRange, SortOrder } from '../../../src/model';
import { uniqueId } from '../../support/redis';
import { submitted, useTestStore } from '../../support/store';
import { MAX_SCORE, ReferenceBoard, type RankedEntry } from '../../support/referenceModel';

/**
 * Score ranges, dense ranks, scores at ranks and percentiles, and the bulk removals, after random
 * sequences of writes on both sort orders, against the reference model. After every write the
 * board's side structures must match its ranking: one bucket entry per player holding its token,
 * and one distinct-scores member per score present.
 */
const t = useTestStore();

const PLAYERS = ['12345678', '0', '007', 'amy', 'zed:1', 'x.y_z-9', '999999999999999'];
// Few values, so ties are everywhere; the extremes and their neighbours, fractions and zero.
const SCORES = [0, 1, -1, 2.5, -2.5, 0.1, 1e-9, 100, MAX_SCORE, -MAX_SCORE, MAX_SCORE - 1, -MAX_SCORE + 1];
const MOMENTS = [1_000_000, 2_000_000];

const score = fc.oneof(fc.constantFrom(...SCORES), fc.integer({ min: -3, max: 3 }));
const bound = fc.option(fc.record({ value: score, exclusive: fc.boolean() }), { nil: undefined });
/** min <= max, as the domain requires (it refuses the other way round). */
const range = fc.tuple(bound, bound).map(([a, b]): ScoreRange => {
  if (a && b && a.value > b.value) [a, b] = [b, a];
  return { min: a, max: b };
});
// A small maximum now and then, so that refused removals are tried too.
const max = fc.oneof(fc.constant(1000), fc.integer({ min: 0, max: 3 }));

const operation = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      playerId: fc.constantFrom(...PLAYERS),
      score,
      reachedAtMicros: fc.option(fc.constantFrom(...MOMENTS), { nil: undefined, freq: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeByScore' as const), range, max }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keepTop' as const), count: fc.integer({ min: 0, max: 8 }), max }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('removePlayers' as const),
      playerIds: fc.array(fc.constantFrom(...PLAYERS, 'nobody'), { maxLength: 4 }),
      max,
    }),
  },
);
type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

const project = (e: Entry | RankedEntry) => ({
  playerId: e.playerId, score: e.score, rank: e.rank, sharedRank: e.sharedRank, reachedAtMicros: e.reachedAtMicros,
});

async function readAll(boardId: string): Promise<Entry[]> {
  return (await t.store.page(boardId, { limit: 1000 })).entries;
}

/**
 * Bucket hashes hold exactly the board's players, each with its member's token; distinct scores
 * exactly its scores, or nothing on a board without dense ranks.
 */
async function checkSideStructures(boardId: string, denseRanks: boolean): Promise<void> {
  const keys = boardKeys(boardId);
  const members = (await t.redis.zrangeBuffer(keys.ranking, '0', '-1', 'WITHSCORES')) as Buffer[];
  const tokens = new Map<string, Buffer>();
  const stored = new Set<number>();
  for (let i = 0; i < members.length; i += 2) {
    const { playerId, tokenLength } = decodeMember(members[i]);
    tokens.set(playerId, members[i].subarray(0, tokenLength));
    stored.add(Number(members[i + 1].toString()) || 0);
  }
  const buckets = new Map<string, Buffer>();
  for (const key of await t.redis.keys(`${keys.bucketPrefix}*`)) {
    const pairs = await t.redis.hgetallBuffer(key);
    for (const [id, token] of Object.entries(pairs)) buckets.set(id, token);
  }
  expect([...buckets.keys()].sort()).toEqual([...tokens.keys()].sort());
  // A stored token drops a 0 import-sequence byte: it is a prefix of the member's token.
  for (const [id, token] of buckets) expect(tokens.get(id)!.subarray(0, token.length).equals(token)).toBe(true);

  const distinct = (await t.redis.zrangeBuffer(keys.distinct, '0', '-1', 'WITHSCORES')) as Buffer[];
  if (!denseRanks) return expect(distinct).toEqual([]);
  const distinctScores: number[] = [];
  for (let i = 0; i < distinct.length; i += 2) {
    const value = Number(distinct[i + 1].toString()) || 0;
    expect(distinct[i].readDoubleBE(0)).toBe(value);
    distinctScores.push(value);
  }
  expect(distinctScores).toEqual([...stored].sort((a, b) => a - b));
}

async function apply(boardId: string, model: ReferenceBoard, op: Operation): Promise<void> {
  if (op.kind === 'submit') {
    const before = model.clone();
    if (before.nextScore(op.playerId, op.score) === 'overflow') {
      await expect(submitted(t.store, boardId, [op])).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
      return;
    }
    const [result] = await submitted(t.store, boardId, [op]);
    const imported = op.reachedAtMicros !== undefined;
    model.submit(op.playerId, op.score, imported ? op.reachedAtMicros! : result.entry.reachedAtMicros, imported);
    return;
  }
  const trial = model.clone();
  const [removed, run] =
    op.kind === 'removeByScore' ? [trial.removeByScore(op.range), () => t.store.removeByScore(boardId, op.range, op.max)]
    : op.kind === 'keepTop' ? [trial.keepTop(op.count), () => t.store.keepTop(boardId, op.count, op.max)]
    : [trial.removePlayers(op.playerIds), () => t.store.removePlayers(boardId, op.playerIds, op.max)];
  if (removed > op.max) {
    const before = await readAll(boardId);
    await expect(run()).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await readAll(boardId)).toEqual(before);
    return;
  }
  expect(await run()).toBe(removed);
  if (op.kind === 'removeByScore') model.removeByScore(op.range);
  else if (op.kind === 'keepTop') model.keepTop(op.count);
  else model.removePlayers(op.playerIds);
}

async function checkReads(boardId: string, model: ReferenceBoard, ranges: ScoreRange[], denseRanks: boolean): Promise<void> {
  const expected = model.ranking();
  const all = await readAll(boardId);
  expect(all.map(project)).toEqual(expected.map(project));

  const scores = [...all.map((e) => e.score), ...SCORES];
  expect(await t.store.denseRanks(boardId, scores)).toEqual(denseRanks ? scores.map((s) => model.denseRankOf(s)) : null);

  for (let rank = 1; rank <= expected.length + 1; rank++) {
    expect(await t.store.scoreAtRank(boardId, rank)).toBe(model.scoreAtRank(rank));
  }
  for (const percent of [1e-9, 10, 25, 33.3, 50, 90, 99.9, 100]) {
    expect(await t.store.scoreAtPercentile(boardId, percent)).toBe(model.scoreAtPercentile(percent));
  }

  for (const r of ranges) {
    const want = model.inRange(r);
    expect(await t.store.countByScore(boardId, r)).toBe(want.length);
    for (const backward of [false, true]) {
      // Pages are top-down either way; from the bottom, each one goes above the last.
      let seen: Entry[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await t.store.rangePage(boardId, r, { limit: 2, cursor, backward });
        expect(page.count).toBe(want.length);
        expect(page.total).toBe(expected.length);
        expect(page.rangeStart).toBe(expected.filter((e) => beforeRange(e.score, r, model.sortOrder)).length);
        seen = backward ? [...page.entries, ...seen] : [...seen, ...page.entries];
        if (!page.hasMore) break;
        cursor = page.entries[backward ? 0 : page.entries.length - 1].cursor;
      }
      expect(seen.map(project)).toEqual(want.map(project));
      const byOffset = await t.store.rangePage(boardId, r, { limit: 2, offset: 1, backward });
      const skipped = backward ? want.slice(Math.max(0, want.length - 3), want.length - 1) : want.slice(1, 3);
      expect(byOffset.entries.map(project)).toEqual(skipped.map(project));
      expect(byOffset.hasMore).toBe(want.length > 3);
    }
  }
}

/** Whether a score ranks above the range: past its better bound (max when DESCENDING, min when ASCENDING). */
function beforeRange(score: number, { min, max }: ScoreRange, sortOrder: SortOrder): boolean {
  const edge: ScoreBound | undefined = sortOrder === 'DESCENDING' ? max : min;
  if (!edge) return false;
  const beyond = sortOrder === 'DESCENDING' ? score > edge.value : score < edge.value;
  return beyond || (edge.exclusive === true && score === edge.value);
}

describe.each(['DESCENDING', 'ASCENDING'] as SortOrder[])('%s board', (sortOrder) => {
  it.each([['LATEST', true], ['INCREMENT', true], ['LATEST', false]] as const)(
    'agrees with the reference model after any sequence of writes (%s, dense ranks %s)', async (updatePolicy, denseRanks) => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 30 }), fc.array(range, { minLength: 1, maxLength: 4 }), async (operations, ranges) => {
        const boardId = uniqueId('ranges');
        await t.store.createBoard({ id: boardId, sortOrder, updatePolicy, capacity: 300, denseRanks });
        const model = new ReferenceBoard(sortOrder, updatePolicy);
        try {
          for (const op of operations) {
            await apply(boardId, model, op);
            await checkSideStructures(boardId, denseRanks);
          }
          await checkReads(boardId, model, ranges, denseRanks);
        } finally {
          await t.store.deleteBoard(boardId);
        }
      }),
      { numRuns: 25 },
    );
  });
});
