// An entry read by player asks Redis for its shared rank (a count of the higher scores, two
// skiplist descents per player) only when the query selects `sharedRank` somewhere below the
// field: counted with INFO commandstats (ZCOUNT), on a Redis of this file's own so that no other
// test's reads are counted. A selected shared rank is there however it is selected.
import Redis from 'ioredis';
import { createBoard, onOwnRedis, submitAll } from '../support/harness';
import { startDedicatedRedis } from '../support/redis';

const own = onOwnRedis(() => startDedicatedRedis(), (redis) => redis.stop());
let redis: Redis;
const BOARD = 'entry-fields';

beforeAll(async () => {
  redis = new Redis(own.redis.url);
  await createBoard(own.server, BOARD);
  // a and b tie at 50 (shared rank 1, ranks 1 and 2), c has 40 (rank 3).
  await submitAll(own.server, BOARD, [['a', 50], ['b', 50], ['c', 40]]);
});
afterAll(() => redis.quit());

async function zcounts(): Promise<number> {
  return Number(/cmdstat_zcount:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);
}

/** The query's data, and how many ZCOUNTs Redis ran for it. */
async function counted(query: string, variables: Record<string, unknown> = {}) {
  const before = await zcounts();
  const data = await own.server.data(query, { board: BOARD, ...variables });
  return { data, zcounts: (await zcounts()) - before };
}

const EXPECTED = [
  { playerId: 'b', rank: 2, sharedRank: 1 },
  { playerId: 'c', rank: 3, sharedRank: 3 },
];

describe('entries by player', () => {
  it('runs no count for the shared rank when no sharedRank is selected', async () => {
    const { data, zcounts } = await counted('query ($board: ID!) { entries(leaderboardId: $board, playerIds: ["b", "c"]) { playerId rank score } }');
    expect(data.entries).toEqual([{ playerId: 'b', rank: 2, score: 50 }, { playerId: 'c', rank: 3, score: 40 }]);
    expect(zcounts).toBe(0);
  });

  it.each([
    ['a field', '{ playerId rank sharedRank }'],
    ['an alias', '{ playerId rank shared: sharedRank }'],
    ['an inline fragment', '{ playerId rank ... on Entry { sharedRank } }'],
    ['a named fragment', '{ playerId rank ...Shared }'],
    ['a field under @include', '{ playerId rank sharedRank @include(if: true) }'],
  ])('reads it when selected through %s', async (_how, selection) => {
    const fragment = selection.includes('...Shared') ? ' fragment Shared on Entry { sharedRank }' : '';
    const { data, zcounts } = await counted(`query ($board: ID!) { entries(leaderboardId: $board, playerIds: ["b", "c"]) ${selection} }${fragment}`);
    expect(data.entries.map((e: Record<string, unknown>) => ({ playerId: e.playerId, rank: e.rank, sharedRank: e.sharedRank ?? e.shared }))).toEqual(EXPECTED);
    expect(zcounts).toBe(2);
  });

  it('reads it for the field that selects it when two fields of one board differ', async () => {
    const { data } = await counted(`query ($board: ID!) {
      lean: leaderboard(id: $board) { entry(playerId: "b") { rank } }
      full: leaderboard(id: $board) { entry(playerId: "b") { rank sharedRank } }
    }`);
    expect(data).toEqual({ lean: { entry: { rank: 2 } }, full: { entry: { rank: 2, sharedRank: 1 } } });
  });

  it('reads it when a merged field selects it only under a variable', async () => {
    const query = `query ($board: ID!, $shared: Boolean!) { leaderboard(id: $board) {
      entry(playerId: "b") { rank } entry(playerId: "b") @include(if: $shared) { sharedRank }
    } }`;
    expect((await counted(query, { shared: false })).data.leaderboard.entry).toEqual({ rank: 2 });
    expect((await counted(query, { shared: true })).data.leaderboard.entry).toEqual({ rank: 2, sharedRank: 1 });
    expect((await counted(query, { shared: false })).data.leaderboard.entry).toEqual({ rank: 2 });
  });

  it('reads it for an entry named by its id (node)', async () => {
    const { data: { entries } } = await counted('query ($board: ID!) { entries(leaderboardId: $board, playerIds: ["b"]) { id } }');
    const lean = await counted('query ($id: ID!) { node(id: $id) { ... on Entry { rank } } }', { id: entries[0].id });
    expect(lean).toEqual({ data: { node: { rank: 2 } }, zcounts: 0 });
    const full = await counted('query ($id: ID!) { nodes(ids: [$id]) { ... on Entry { rank sharedRank } } }', { id: entries[0].id });
    expect(full).toEqual({ data: { nodes: [{ rank: 2, sharedRank: 1 }] }, zcounts: 1 });
  });
});
