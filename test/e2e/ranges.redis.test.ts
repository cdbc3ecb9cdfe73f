// The reads of schema/ranges.graphql over HTTP: score ranges, counts, scores at a rank or a
// percentile, and dense ranks; fresh after writes, and BAD_USER_INPUT for bad arguments.
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { createBoard, submitAll, TestServer } from '../support/harness';
import { uniqueId } from '../support/redis';

let server: TestServer;
/** A high-first board with ties: a 50, b 40, c 40, d 40, e 30, f 20, g 20, h 10 (in that order). */
let high: string;
/** The same scores on a low-first board (race times): h 10 first, a 50 last. */
let low: string;
const SCORES: [string, number][] = [['a', 50], ['b', 40], ['c', 40], ['d', 40], ['e', 30], ['f', 20], ['g', 20], ['h', 10]];

beforeAll(async () => {
  server = await TestServer.start();
  high = uniqueId('ranges-high');
  low = uniqueId('ranges-low');
  await createBoard(server, high);
  await createBoard(server, low, 'ASCENDING');
  // One request at a time, so that equal scores rank in the order listed.
  await submitAll(server, high, SCORES);
  await submitAll(server, low, SCORES);
});
afterAll(() => server.stop());

const onBoard = async (board: string, fields: string, variables: Record<string, unknown> = {}, declarations = '') => {
  const query = `query ($id: ID!${declarations ? `, ${declarations}` : ''}) { leaderboard(id: $id) { ${fields} } }`;
  return (await server.data(query, { id: board, ...variables })).leaderboard;
};

const RANGE_PAGE = `entriesByScore(min: $min, max: $max, first: $first, after: $after, last: $last, before: $before, offset: $offset) {
  nodes { playerId score rank sharedRank denseRank }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  totalCount
}`;
const RANGE_ARGS = '$min: ScoreBound, $max: ScoreBound, $first: Int, $after: String, $last: Int, $before: String, $offset: Int';

async function rangePage(board: string, args: Record<string, unknown>) {
  return (await onBoard(board, RANGE_PAGE, args, RANGE_ARGS)).entriesByScore;
}

describe('Leaderboard.entriesByScore', () => {
  it('returns the entries in the range in rank order, with their ranks on the whole board', async () => {
    const page = await rangePage(high, { min: { value: 20 }, max: { value: 40, exclusive: true } });
    expect(page.nodes).toEqual([
      { playerId: 'e', score: 30, rank: 5, sharedRank: 5, denseRank: 3 },
      { playerId: 'f', score: 20, rank: 6, sharedRank: 6, denseRank: 4 },
      { playerId: 'g', score: 20, rank: 7, sharedRank: 6, denseRank: 4 },
    ]);
    expect(page.totalCount).toBe(8);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const ascending = await rangePage(low, { min: { value: 20 }, max: { value: 40, exclusive: true } });
    expect(ascending.nodes.map((n: { playerId: string; rank: number }) => [n.playerId, n.rank])).toEqual([['f', 2], ['g', 3], ['e', 4]]);
  });

  it('takes open and exclusive ends on both sort orders', async () => {
    const ids = async (board: string, min?: object, max?: object) =>
      (await rangePage(board, { min, max })).nodes.map((n: { playerId: string }) => n.playerId).join('');
    expect(await ids(high, { value: 40 })).toBe('abcd');
    expect(await ids(high, { value: 40, exclusive: true })).toBe('a');
    expect(await ids(high, undefined, { value: 20 })).toBe('fgh');
    expect(await ids(high, { value: 20, exclusive: true }, { value: 50, exclusive: true })).toBe('bcde');
    expect(await ids(high)).toBe('abcdefgh');
    expect(await ids(high, { value: 40, exclusive: true }, { value: 40 })).toBe('');
    expect(await ids(low, undefined, { value: 20 })).toBe('hfg');
    expect(await ids(low, { value: 40 }, { value: 9007199254740991 })).toBe('bcda');
    expect(await ids(low, { value: -9007199254740991, exclusive: true }, { value: 10, exclusive: true })).toBe('');
  });

  it('pages through a range with cursors, from either end, and by offset', async () => {
    const range = { min: { value: 20 }, max: { value: 40 } };
    const ids = (page: { nodes: { playerId: string }[] }) => page.nodes.map((n) => n.playerId).join('');
    /** The pages met following the cursors down (first/after) or up (last/before). */
    const pagesOf = async (size: number, up: boolean) => {
      const pages: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; ; n++) {
        const page = await rangePage(high, up ? { ...range, last: size, before: cursor } : { ...range, first: size, after: cursor });
        pages.push(ids(page));
        const { hasNextPage, hasPreviousPage, startCursor, endCursor } = page.pageInfo;
        // The side already read has more; the side ahead has more until the range's end.
        expect(up ? hasNextPage : hasPreviousPage).toBe(n > 0);
        if (!(up ? hasPreviousPage : hasNextPage)) return pages;
        cursor = up ? startCursor : endCursor;
      }
    };
    expect(await pagesOf(2, false)).toEqual(['bc', 'de', 'fg']);
    // From the bottom, pages are still top-down, each the one above the last.
    expect(await pagesOf(4, true)).toEqual(['defg', 'bc']);
    const byOffset = await rangePage(high, { ...range, first: 2, offset: 3 });
    expect(ids(byOffset)).toBe('ef');
    expect(byOffset.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(ids(await rangePage(high, { ...range, last: 2, offset: 1 }))).toBe('ef');
  });
});

describe('Leaderboard.countByScore', () => {
  it('counts the entries in a range on both sort orders', async () => {
    const { all, ties, upper, lower, none } = await onBoard(high, `
      all: countByScore
      ties: countByScore(min: { value: 40 }, max: { value: 40 })
      upper: countByScore(min: { value: 30, exclusive: true })
      lower: countByScore(max: { value: 20 })
      none: countByScore(min: { value: 41 }, max: { value: 49 })`);
    expect({ all, ties, upper, lower, none }).toEqual({ all: 8, ties: 3, upper: 4, lower: 3, none: 0 });
    expect((await onBoard(low, 'countByScore(max: { value: 20, exclusive: true })')).countByScore).toBe(1);
  });
});

describe('Leaderboard.scoreAtRank and scoreAtPercentile', () => {
  it('give the score at a rank, and at a percentile interpolated between neighbours', async () => {
    const fields = `first: scoreAtRank(rank: 1) third: scoreAtRank(rank: 3) last: scoreAtRank(rank: 8) past: scoreAtRank(rank: 9)
      top: scoreAtPercentile(percent: 100) p90: scoreAtPercentile(percent: 90) p50: scoreAtPercentile(percent: 50) p1: scoreAtPercentile(percent: 1)`;
    // Bottom-up scores 10 20 20 30 40 40 40 50: h = 7 * p / 100.
    expect(await onBoard(high, fields)).toEqual({ first: 50, third: 40, last: 10, past: null, top: 50, p90: 43, p50: 35, p1: 10.7 });
    expect(await onBoard(low, fields)).toEqual({ first: 10, third: 20, last: 50, past: null, top: 10, p90: 17, p50: 35, p1: 49.3 });
  });

  it('are null on an empty board', async () => {
    const empty = uniqueId('ranges-empty');
    await createBoard(server, empty);
    expect(await onBoard(empty, 'scoreAtRank(rank: 1) scoreAtPercentile(percent: 50) countByScore')).toEqual({
      scoreAtRank: null, scoreAtPercentile: null, countByScore: 0,
    });
  });
});

describe('Entry.denseRank', () => {
  it('is there wherever entries are, in one Redis call per board and request', async () => {
    const script = jest.spyOn(LeaderboardStore.prototype, 'denseRanks');
    const { entries, around, entry } = await onBoard(high, `
      entries(first: 8) { nodes { playerId denseRank } }
      around(playerId: "e", radius: 1) { entries { denseRank } }
      entry(playerId: "h") { denseRank }`);
    expect(entries.nodes.map((n: { denseRank: number }) => n.denseRank)).toEqual([1, 2, 2, 2, 3, 4, 4, 5]);
    expect(around.entries.map((n: { denseRank: number }) => n.denseRank)).toEqual([2, 3, 4]);
    expect(entry.denseRank).toBe(5);
    expect(script).toHaveBeenCalledTimes(1);
    script.mockRestore();
  });

  it('is null on a board created without dense ranks', async () => {
    const plain = uniqueId('ranges-plain');
    await new LeaderboardStore(server.redis).createBoard({ id: plain, sortOrder: 'DESCENDING', updatePolicy: 'BEST', denseRanks: false });
    await submitAll(server, plain, [['a', 1]]);
    expect(await onBoard(plain, 'denseRanks entry(playerId: "a") { rank denseRank }')).toEqual({ denseRanks: false, entry: { rank: 1, denseRank: null } });
    expect((await onBoard(high, 'denseRanks')).denseRanks).toBe(true);
  });
});

it('answers every read from the board as it is after each write', async () => {
  const board = uniqueId('ranges-fresh');
  await createBoard(server, board);
  const fields = `countByScore(min: { value: 10 }) scoreAtRank(rank: 1) scoreAtPercentile(percent: 50)
    entriesByScore(min: { value: 10 }) { nodes { playerId denseRank } }`;
  const read = () => onBoard(board, fields);
  await read();
  await submitAll(server, board, [['a', 10]]);
  expect(await read()).toEqual({
    countByScore: 1, scoreAtRank: 10, scoreAtPercentile: 10, entriesByScore: { nodes: [{ playerId: 'a', denseRank: 1 }] },
  });
  await submitAll(server, board, [['b', 30], ['c', 5]]);
  expect(await read()).toEqual({
    countByScore: 2, scoreAtRank: 30, scoreAtPercentile: 10,
    entriesByScore: { nodes: [{ playerId: 'b', denseRank: 1 }, { playerId: 'a', denseRank: 2 }] },
  });
  await server.data(`mutation { removeEntry(leaderboardId: "${board}", playerId: "b") { removed } }`);
  expect(await read()).toEqual({
    countByScore: 1, scoreAtRank: 10, scoreAtPercentile: 7.5, entriesByScore: { nodes: [{ playerId: 'a', denseRank: 1 }] },
  });
});

describe('BAD_USER_INPUT', () => {
  const codes = async (board: string, fields: string) =>
    (await server.errors(`{ leaderboard(id: "${board}") { ${fields} } }`)).map((error) => error.extensions.code);

  it.each([
    ['min above max', 'countByScore(min: { value: 3 }, max: { value: 2 })'],
    ['min above max in a page', 'entriesByScore(min: { value: 3, exclusive: true }, max: { value: 2 }) { totalCount }'],
    ['a bound that overflows to Infinity', 'countByScore(min: { value: 1e400 })'],
    ['a bound of 2^53', 'entriesByScore(max: { value: 9007199254740992 }) { totalCount }'],
    ['a bound without a value', 'countByScore(min: { exclusive: true })'],
    ['a string bound', 'countByScore(min: { value: "NaN" })'],
    ['a page size of 0', 'entriesByScore(first: 0) { totalCount }'],
    ['a negative offset', 'entriesByScore(offset: -1) { totalCount }'],
    ['a cursor this API did not make', 'entriesByScore(after: "bm9wZQ") { totalCount }'],
    ['first and last together', 'entriesByScore(first: 2, last: 2) { totalCount }'],
    ['before with first', 'entriesByScore(first: 2, before: "bm9wZQ") { totalCount }'],
    ['rank 0', 'scoreAtRank(rank: 0)'],
    ['a negative rank', 'scoreAtRank(rank: -3)'],
    ['percent 0', 'scoreAtPercentile(percent: 0)'],
    ['a negative percent', 'scoreAtPercentile(percent: -5)'],
    ['percent above 100', 'scoreAtPercentile(percent: 100.5)'],
    ['a percent that overflows to Infinity', 'scoreAtPercentile(percent: 1e400)'],
  ])('for %s', async (_case, fields) => {
    expect(await codes(high, fields)).toEqual(['BAD_USER_INPUT']);
  });

  it('for a NaN-like bound sent as a variable', async () => {
    const errors = await server.errors(`query ($min: ScoreBound) { leaderboard(id: "${high}") { countByScore(min: $min) } }`, { min: { value: 'NaN' } });
    expect(errors.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
  });
});
