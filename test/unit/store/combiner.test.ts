import { Combiner } from '../../../src/store/combiner';
import { decodeMember } from '../../../src/store/memberCodec';
import type { Aggregate, SortOrder } from '../../../src/model';

/**
 * The tie rules on members made byte by byte (memberCodec's layout): a moment, an import sequence
 * of one byte or of several (0x80 + n, then n bytes), a player code; stored scores are dir * score.
 */
const member = (moment: number, sequence: number[], id: string) => {
  const head = Buffer.alloc(7);
  head.writeUIntBE(Math.floor(moment / 256), 0, 6);
  head[6] = moment % 256;
  return Buffer.concat([head, Buffer.from(sequence), Buffer.from(`\0${id}`)]);
};
/** A stored score as read_buckets.lua answers it (Redis' %.17g: -0 stays -0). */
const text = (stored: number) => Buffer.from(Object.is(stored, -0) ? '-0' : String(stored), 'latin1');
const source = (weight: number, ...entries: [Buffer, number][]) => ({ weight, items: entries.flatMap(([m, stored]) => [m, text(stored)]) });
/** The sources folded in one after another, or in the order `order` gives (as a view reads them: board by board, a slice at a time). */
const combined = (aggregate: Aggregate, sortOrder: SortOrder, sources: ReturnType<typeof source>[], order = sources.map((_, i) => i)) => {
  const combiner = new Combiner(sources.map(({ weight }) => weight), aggregate, sortOrder);
  for (const i of order) combiner.add(i, sources[i].items);
  // In steps and slices of 1 and 2, as a build spreads them over turns of the event loop.
  [...combiner.complete(1)];
  return [...combiner.slices(2)].flat();
};
const combine = async (aggregate: Aggregate, sortOrder: SortOrder, ...sources: ReturnType<typeof source>[]) =>
  combined(aggregate, sortOrder, sources).map(({ stored, member: m, tokenLength }) => {
    const decoded = decodeMember(m);
    expect(tokenLength).toBe(decoded.tokenLength);
    return { id: decoded.playerId, stored, moment: decoded.reachedAtMicros, sequence: [...m.subarray(7, tokenLength)] };
  });

describe('combineRankings', () => {
  it('SUM adds weighted scores and keeps the latest token, by moment and then by import sequence', async () => {
    const view = await combine('SUM', 'DESCENDING',
      source(2, [member(300, [0], 'a'), -5], [member(100, [0x81, 200], 'b'), -1]),
      source(1, [member(200, [0], 'a'), -7], [member(100, [0x82, 1, 0], 'b'), -2]));
    expect(view).toEqual([
      { id: 'a', stored: -17, moment: 300, sequence: [0] },
      { id: 'b', stored: -4, moment: 100, sequence: [0x82, 1, 0] },
    ]);
  });

  it('MAX and MIN keep the earliest token of those that reach the winning value', async () => {
    const sources = [
      source(1, [member(300, [0], 'a'), 5], [member(50, [0], 'b'), 9]),
      source(1, [member(100, [2], 'a'), 5], [member(60, [0], 'b'), 1]),
      source(1, [member(100, [1], 'a'), 5], [member(10, [0], 'b'), 4]),
    ];
    expect(await combine('MAX', 'ASCENDING', ...sources)).toEqual([
      { id: 'a', stored: 5, moment: 100, sequence: [1] },
      { id: 'b', stored: 9, moment: 50, sequence: [0] },
    ]);
    expect(await combine('MIN', 'ASCENDING', ...sources)).toEqual([
      { id: 'a', stored: 5, moment: 100, sequence: [1] },
      { id: 'b', stored: 1, moment: 60, sequence: [0] },
    ]);
  });

  it('gives the same view whatever order the sources are read in, sums added in the sources\' order', () => {
    // 3.3 + 1.1 + 2.2 is 6.6000000000000005 in this order and 6.6 in the order 0, 2, 1.
    const sources = [
      source(1, [member(10, [0], 'a'), 3.3], [member(11, [0], 'b'), 5]),
      source(1, [member(20, [0], 'a'), 1.1]),
      source(1, [member(30, [0], 'a'), 2.2], [member(31, [0], 'b'), 4]),
    ];
    for (const aggregate of ['SUM', 'MAX', 'MIN'] as const) {
      expect(combined(aggregate, 'ASCENDING', sources, [0, 2, 1])).toEqual(combined(aggregate, 'ASCENDING', sources));
    }
    expect(combined('SUM', 'ASCENDING', sources)[0].stored).toBe(3.3 + 1.1 + 2.2);
  });

  it('stores a zero as 0, not -0', async () => {
    const [entry] = await combine('SUM', 'ASCENDING', source(3, [member(1, [0], 'a'), -0]), source(1, [member(2, [0], 'a'), -0]));
    expect(Object.is(entry.stored, 0)).toBe(true);
  });

  it('refuses a weighted or summed score past 2^53 - 1', async () => {
    const big = Number.MAX_SAFE_INTEGER;
    await expect(combine('SUM', 'DESCENDING', source(1, [member(1, [0], 'a'), -big]), source(1, [member(2, [0], 'a'), -1])))
      .rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'sources' } });
    await expect(combine('MAX', 'ASCENDING', source(2, [member(1, [0], 'a'), big]))).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await combine('MAX', 'ASCENDING', source(1, [member(1, [0], 'a'), big]))).toEqual([{ id: 'a', stored: big, moment: 1, sequence: [0] }]);
  });
});
