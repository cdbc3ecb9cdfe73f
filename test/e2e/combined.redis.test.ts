// Combined views over GraphQL (issue 13): Query.combined is a CombinedView, a Node and a Ranking
// with every read of a board, whose id node(id:) reads again and whose entries' `ranking` is the
// view; it is built once per time to live (the test's clock) and refused, naming the field, for
// bad sources. The server's clocks (the submit script's, Node's and the views') are the test's.
import Redis from 'ioredis';
import { Leaderboards } from '../../src/domain/leaderboards';
import { MAX_BATCH_SIZE } from '../../src/domain/limits';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { ENTRIES_PER_WRITE } from '../../src/store/viewBuild';
import { behindCutProxy } from '../support/cutProxy';
import { CREATE_BOARD, TestServer } from '../support/harness';
import { nextReady, uniqueId } from '../support/redis';
import { recordUnhandledRejections } from '../support/unhandledRejections';

const TTL_MS = 2000;
let now = Date.parse('2031-05-04T10:00:00Z') * 1000;
let viewMs = 0;
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start(undefined, { now: () => now, viewClock: () => viewMs, combinedViewTtlMs: TTL_MS });
});
afterAll(() => server.stop());

const SUBMIT_MANY = 'mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { userErrors { code field } } }';
/** One write a µs apart (the script stamps now, now + 1, ...), the test's clock moved past them. */
async function submit(id: string, scores: [string, number][]) {
  await server.data(SUBMIT_MANY, { inputs: scores.map(([playerId, score]) => ({ leaderboardId: id, playerId, score })) });
  now += 1000;
}

async function dailyBoard(sortOrder = 'DESCENDING'): Promise<string> {
  const id = uniqueId('combined-e2e');
  await server.data(CREATE_BOARD, { input: { id, sortOrder, updatePolicy: 'BEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 3 }] } } });
  return id;
}

const READS = /* GraphQL */ `
  fragment Reads on Ranking {
    totalCount
    entry(playerId: "b") { playerId score rank }
    entries(first: 2) { nodes { playerId score rank sharedRank denseRank } pageInfo { hasNextPage endCursor } }
    around(playerId: "c", radius: 1) { entries { playerId } }
    aroundScore(score: 25, radius: 1) { entries { playerId } }
    topPercent(percent: 50, limit: 10) { playerId }
    entriesByScore(min: { value: 20 }) { nodes { playerId } }
    countByScore(max: { value: 20 })
    scoreAtRank(rank: 2)
    scoreAtPercentile(percent: 100)
  }
`;
const COMBINED = /* GraphQL */ `
  query ($sources: [CombinedSourceInput!]!, $aggregate: Aggregate) {
    combined(sources: $sources, aggregate: $aggregate) {
      __typename id aggregate
      sources { weight period { kind key leaderboard { id } } }
      ...Reads
      last: entries(last: 1) { nodes { id playerId ranking { __typename ... on CombinedView { id } } leaderboard { id } } }
    }
  }
  ${READS}
`;

describe('a view over two days of one board and another board', () => {
  let eu: string;
  let us: string;
  let day1: string;
  let day2: string;
  beforeAll(async () => {
    eu = await dailyBoard();
    us = await dailyBoard();
    day1 = new Date(now / 1000).toISOString().slice(0, 10);
    await submit(eu, [['a', 10], ['b', 5], ['c', 1]]);
    now += 86_400_000_000;
    day2 = new Date(now / 1000).toISOString().slice(0, 10);
    await submit(eu, [['b', 10], ['c', 8]]);
    await submit(us, [['c', 3], ['d', 2]]);
  });
  const sources = () => [
    { leaderboardId: eu, period: { kind: 'DAILY', key: day1 } },
    { leaderboardId: eu, period: { kind: 'DAILY', key: day2 }, weight: 2 },
    { leaderboardId: us },
  ];

  it('offers every read of a board, with the aggregate and the sources it was made of', async () => {
    // SUM: a 10, b 5 + 20 = 25, c 1 + 16 + 3 = 20, d 2.
    const { combined } = await server.data(COMBINED, { sources: sources(), aggregate: 'SUM' });
    expect(combined).toMatchObject({
      __typename: 'CombinedView',
      aggregate: 'SUM',
      totalCount: 4,
      entry: { playerId: 'b', score: 25, rank: 1 },
      entries: { nodes: [{ playerId: 'b', score: 25, rank: 1, sharedRank: 1, denseRank: null }, { playerId: 'c', score: 20, rank: 2, sharedRank: 2, denseRank: null }], pageInfo: { hasNextPage: true } },
      around: { entries: [{ playerId: 'b' }, { playerId: 'c' }, { playerId: 'a' }] },
      aroundScore: { entries: [{ playerId: 'b' }, { playerId: 'c' }] },
      topPercent: [{ playerId: 'b' }, { playerId: 'c' }],
      entriesByScore: { nodes: [{ playerId: 'b' }, { playerId: 'c' }] },
      countByScore: 3,
      scoreAtRank: 20,
      scoreAtPercentile: 25,
    });
    // Sources in the view's own order (by board, kind, key), each named by its key.
    const expectedSources = [
      { weight: 1, period: { kind: 'DAILY', key: day1, leaderboard: { id: eu } } },
      { weight: 2, period: { kind: 'DAILY', key: day2, leaderboard: { id: eu } } },
      { weight: 1, period: { kind: 'ALL_TIME', key: 'all', leaderboard: { id: us } } },
    ].sort((x, y) => (`${x.period.leaderboard.id} ${x.period.kind}` < `${y.period.leaderboard.id} ${y.period.kind}` ? -1 : 1));
    expect(combined.sources).toEqual(expectedSources);
    expect(combined.last.nodes[0]).toMatchObject({ playerId: 'd', ranking: { __typename: 'CombinedView', id: combined.id }, leaderboard: { id: expectedSources[0].period.leaderboard.id } });
  });

  it('MAX and MIN rank by the best and worst weighted score', async () => {
    const max = await server.data(COMBINED, { sources: sources(), aggregate: 'MAX' });
    expect(max.combined.entries.nodes.map((e: { playerId: string; score: number }) => [e.playerId, e.score])).toEqual([['b', 20], ['c', 16]]);
    const min = await server.data(COMBINED, { sources: sources(), aggregate: 'MIN' });
    expect(min.combined.entries.nodes.map((e: { playerId: string; score: number }) => [e.playerId, e.score])).toEqual([['a', 10], ['b', 5]]);
  });

  it('has a stable id, the same whatever the sources\' order, that node(id:) reads again; so are its entries\'', async () => {
    const first = (await server.data(COMBINED, { sources: sources() })).combined;
    const again = (await server.data(COMBINED, { sources: [...sources()].reverse() })).combined;
    expect(again.id).toBe(first.id);
    const NODE = `query ($id: ID!, $entry: ID!) { view: node(id: $id) { ... on CombinedView { id ...Reads } } entry: node(id: $entry) { ... on Entry { id playerId score } } } ${READS}`;
    const entryId = first.last.nodes[0].id;
    const { view, entry } = await server.data(NODE, { id: first.id, entry: entryId });
    const { id, __typename, aggregate, sources: _, last, ...reads } = first;
    expect(view).toEqual({ id, ...reads });
    expect(entry).toEqual({ id: entryId, playerId: 'd', score: 2 });
    // Not the id of d's entry on its board.
    const board = await server.data(`{ leaderboard(id: "${us}") { entry(playerId: "d") { id } } }`);
    expect(board.leaderboard.entry.id).not.toBe(entryId);
  });

  it('takes a rolling window of the last days with `last`: the same view as the days named by key', async () => {
    const rolling = (await server.data(COMBINED, { sources: [{ leaderboardId: eu, period: { kind: 'DAILY' }, last: 2 }] })).combined;
    const named = (await server.data(COMBINED, { sources: [{ leaderboardId: eu, period: { kind: 'DAILY', key: day1 } }, { leaderboardId: eu, period: { kind: 'DAILY', key: day2 } }] })).combined;
    expect(rolling.sources.map((source: { period: { key: string } }) => source.period.key).sort()).toEqual([day1, day2].sort());
    expect(rolling).toEqual(named);
  });
});

it('answers from one build for the time to live, then builds again with the writes since', async () => {
  const id = await dailyBoard();
  await submit(id, [['a', 1]]);
  const read = async () => (await server.data(COMBINED, { sources: [{ leaderboardId: id, period: { kind: 'DAILY' } }, { leaderboardId: id }] })).combined.totalCount;
  viewMs += 10 * TTL_MS;
  expect(await read()).toBe(1);
  await submit(id, [['b', 2]]);
  viewMs += TTL_MS - 1;
  expect(await read()).toBe(1);
  viewMs += 1;
  expect(await read()).toBe(2);
});

describe('a build whose connection is cut part-way', () => {
  const own = behindCutProxy();
  /**
   * Enough chunks that a build which sent its writes without waiting for them was still making
   * chunks, turn after turn of the event loop, when the first one failed: that failure had no
   * handler then, and the unhandled rejection ended the service's process.
   */
  const CHUNKS = 8;
  const TOTAL = `query ($sources: [CombinedSourceInput!]!) { combined(sources: $sources) { totalCount } }`;

  it('answers the read UNAVAILABLE, leaves no rejection unhandled, and builds on the next read', async () => {
    const { redis, proxy, server: cut } = own;
    const id = uniqueId('combined-cut');
    // Filled past the proxy: only the view's build goes through it.
    const direct = new Redis(redis.url);
    try {
      const leaderboards = new Leaderboards(new LeaderboardStore(direct));
      await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' });
      for (let from = 0; from < CHUNKS * ENTRIES_PER_WRITE; from += MAX_BATCH_SIZE) {
        await leaderboards.submit(Array.from({ length: MAX_BATCH_SIZE }, (_, k) => ({ boardId: id, playerId: `p${from + k}`, score: from + k })));
      }
    } finally {
      await direct.quit();
    }
    const sources = [{ leaderboardId: id }];

    // The first chunk's ZADD never reaches Redis: its write fails with its connection.
    proxy.cutBeforeCommand('zadd');
    const unhandled = recordUnhandledRejections();
    const { body } = await cut.post(TOTAL, { sources }).finally(() => unhandled.stop());
    expect(unhandled.reasons).toEqual([]);
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAVAILABLE' }) })]);

    if (cut.redis.status !== 'ready') await nextReady(cut.redis);
    expect((await cut.data(TOTAL, { sources })).combined.totalCount).toBe(CHUNKS * ENTRIES_PER_WRITE);
  });
});

describe('bad input', () => {
  const QUERY = 'query ($sources: [CombinedSourceInput!]!) { combined(sources: $sources) { id } }';
  let board: string;
  let ascending: string;
  beforeAll(async () => {
    board = await dailyBoard();
    ascending = await dailyBoard('ASCENDING');
  });

  it.each<[string, () => unknown[], string, string]>([
    ['no source', () => [], 'BAD_USER_INPUT', 'sources'],
    ['17 sources', () => Array.from({ length: 17 }, () => ({ leaderboardId: board })), 'BAD_USER_INPUT', 'sources'],
    ['a source twice', () => [{ leaderboardId: board }, { leaderboardId: board, period: { kind: 'ALL_TIME' } }], 'BAD_USER_INPUT', 'sources.1'],
    ['a weight of 0', () => [{ leaderboardId: board, weight: 0 }], 'BAD_USER_INPUT', 'sources.0.weight'],
    ['an unknown board', () => [{ leaderboardId: uniqueId('nope') }], 'NOT_FOUND', 'sources.0.leaderboardId'],
    ['a kind the board does not keep', () => [{ leaderboardId: board, period: { kind: 'MONTHLY' } }], 'BAD_USER_INPUT', 'sources.0.period.kind'],
    ['boards of two sort orders', () => [{ leaderboardId: board }, { leaderboardId: ascending }], 'BAD_USER_INPUT', 'sources.1.leaderboardId'],
  ])('%s: null, with an error naming the field', async (_, sources, code, field) => {
    const { body } = await server.post(QUERY, { sources: sources() });
    expect(body.data).toEqual({ combined: null });
    expect(body.errors).toEqual([expect.objectContaining({ path: ['combined'], extensions: expect.objectContaining({ code, details: expect.objectContaining({ field }) }) })]);
  });
});
