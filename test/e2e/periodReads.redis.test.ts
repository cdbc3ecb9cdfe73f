// Reading a period (issue 13): leaderboard(id:, period:) scopes every read to one kept period,
// says which, lists the kept ones; an unkept kind is BAD_USER_INPUT, an expired period NOT_FOUND.
// The server's clocks (the submit script's and Node's) are the test's.
import { boardKeys } from '../../src/store/keys';
import { uniqueId } from '../support/redis';
import { CREATE_BOARD, TestServer } from '../support/harness';

let now = 0;
const at = (iso: string) => {
  now = Date.parse(iso) * 1000;
};
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start(undefined, { now: () => now });
});
afterAll(() => server.stop());

const SUBMIT_MANY = 'mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { userErrors { code field } } }';
async function submit(id: string, scores: [string, number][]) {
  await server.data(SUBMIT_MANY, { inputs: scores.map(([playerId, score]) => ({ leaderboardId: id, playerId, score })) });
}

const READ = `query ($id: ID!, $period: PeriodInput) {
  leaderboard(id: $id, period: $period) {
    period { kind key start end expiresAt }
    totalCount
    entry(playerId: "a") { score rank }
    entries(first: 10) { nodes { playerId score rank } }
    around(playerId: "b", radius: 1) { entries { playerId } }
    aroundScore(score: 15, radius: 1) { entries { playerId } }
    topPercent(percent: 50, limit: 10) { playerId }
    countByScore(min: { value: 0 })
  }
  entries(leaderboardId: $id, playerIds: ["a", "b"], period: $period) { playerId score }
}`;

async function weeklyBoard(): Promise<string> {
  const id = uniqueId('period-reads');
  await server.data(CREATE_BOARD, {
    input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { timeZone: 'Europe/Berlin', kinds: [{ kind: 'ALL_TIME' }, { kind: 'WEEKLY', retention: 2 }] } },
  });
  return id;
}

it('reads every field of a period, current or past, and says which period it is', async () => {
  const id = await weeklyBoard();
  at('2027-03-02T10:00:00Z'); // 2027-W09
  await submit(id, [['a', 10], ['b', 20], ['c', 30]]);
  at('2027-03-09T10:00:00Z'); // 2027-W10
  await submit(id, [['a', 5], ['b', 40]]);

  const current = (await server.data(READ, { id, period: { kind: 'WEEKLY' } }));
  expect(current.leaderboard).toEqual({
    period: { kind: 'WEEKLY', key: '2027-W10', start: '2027-03-07T23:00:00.000000Z', end: '2027-03-14T23:00:00.000000Z', expiresAt: '2027-03-21T23:00:00.000000Z' },
    totalCount: 2,
    entry: { score: 5, rank: 2 },
    entries: { nodes: [{ playerId: 'b', score: 40, rank: 1 }, { playerId: 'a', score: 5, rank: 2 }] },
    around: { entries: [{ playerId: 'b' }, { playerId: 'a' }] },
    aroundScore: { entries: [{ playerId: 'b' }, { playerId: 'a' }] },
    topPercent: [{ playerId: 'b' }],
    countByScore: 2,
  });
  expect(current.entries).toEqual([{ playerId: 'a', score: 5 }, { playerId: 'b', score: 40 }]);

  const past = await server.data(READ, { id, period: { kind: 'WEEKLY', key: '2027-W09' } });
  expect(past.leaderboard.period.key).toBe('2027-W09');
  expect(past.leaderboard.entries.nodes.map((e: { playerId: string }) => e.playerId)).toEqual(['c', 'b', 'a']);
  const byMoment = await server.data(READ, { id, period: { kind: 'WEEKLY', at: '2027-03-03T00:00:00Z' } });
  expect(byMoment.leaderboard.period.key).toBe('2027-W09');

  const allTime = await server.data(READ, { id });
  expect(allTime.leaderboard.period).toEqual({ kind: 'ALL_TIME', key: 'all', start: '1970-01-01T00:00:00.000000Z', end: null, expiresAt: null });
  expect(allTime.leaderboard.entries.nodes).toEqual([
    { playerId: 'b', score: 40, rank: 1 }, { playerId: 'c', score: 30, rank: 2 }, { playerId: 'a', score: 10, rank: 3 },
  ]);

  const listed = await server.data('query ($id: ID!) { leaderboard(id: $id) { timeZone periods { kind key } weekly: periods(kind: WEEKLY) { key } } }', { id });
  expect(listed.leaderboard).toEqual({
    timeZone: 'Europe/Berlin',
    periods: [{ kind: 'ALL_TIME', key: 'all' }, { kind: 'WEEKLY', key: '2027-W10' }, { kind: 'WEEKLY', key: '2027-W09' }],
    weekly: [{ key: '2027-W10' }, { key: '2027-W09' }],
  });
});

it('keeps a past week readable until its retention ends, then answers NOT_FOUND', async () => {
  const id = await weeklyBoard();
  at('2027-03-02T10:00:00Z');
  await submit(id, [['a', 1]]);
  // Its keys expire with it, by Redis, at the start of the second week after it.
  const expiry = Date.parse('2027-03-14T23:00:00Z');
  expect(await server.redis.call('PEXPIRETIME', boardKeys(id).period('WEEKLY', '2027-W09').ranking)).toBe(expiry);
  at('2027-03-14T22:59:59.999999Z'); // the last moment 2027-W09 is kept (2 weeks: itself and the next)
  expect((await server.data(READ, { id, period: { kind: 'WEEKLY', key: '2027-W09' } })).leaderboard.totalCount).toBe(1);
  at('2027-03-14T23:00:00Z');
  const { body } = await server.post(READ, { id, period: { kind: 'WEEKLY', key: '2027-W09' } });
  expect(body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
});

it('refuses a kind the board does not keep, and a key that names no period, with BAD_USER_INPUT', async () => {
  const id = await weeklyBoard();
  for (const period of [{ kind: 'DAILY' }, { kind: 'WEEKLY', key: '2027-W60' }, { kind: 'WEEKLY', key: '2027-W09', at: '2027-03-03T00:00:00Z' }]) {
    const { body } = await server.post(READ, { id, period });
    expect(body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  }
});

it("gives a player's entry on a period its own Node id, which node() and Entry.leaderboard read on that period", async () => {
  const id = await weeklyBoard();
  at('2027-03-02T10:00:00Z'); // 2027-W09
  await submit(id, [['a', 10], ['b', 20]]);
  at('2027-03-09T10:00:00Z'); // 2027-W10
  await submit(id, [['a', 5]]);
  const ENTRY = `query ($id: ID!, $period: PeriodInput) {
    leaderboard(id: $id, period: $period) {
      entry(playerId: "a") { id score denseRank leaderboard { period { key } } }
      around(playerId: "a", radius: 1) { id }
    }
  }`;
  const weekly = (await server.data(ENTRY, { id, period: { kind: 'WEEKLY' } })).leaderboard;
  const allTime = (await server.data(ENTRY, { id })).leaderboard;
  expect(weekly.entry).toMatchObject({ score: 5, denseRank: null, leaderboard: { period: { key: '2027-W10' } } });
  expect(allTime.entry).toMatchObject({ score: 10, leaderboard: { period: { key: 'all' } } });
  // Two objects for a client cache: the week's entry never overwrites the all-time one.
  expect(weekly.entry.id).not.toBe(allTime.entry.id);
  expect(weekly.around.id).not.toBe(allTime.around.id);

  const NODE = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Entry { score } ... on RankWindow { entries { playerId } } } }';
  const { nodes } = await server.data(NODE, { ids: [weekly.entry.id, allTime.entry.id, weekly.around.id] });
  expect(nodes).toEqual([
    { id: weekly.entry.id, score: 5 },
    { id: allTime.entry.id, score: 10 },
    { id: weekly.around.id, entries: [{ playerId: 'a' }] },
  ]);

  // Past its retention the week is no longer kept, and its objects read as null.
  at('2027-03-30T10:00:00Z');
  expect((await server.data(NODE, { ids: [weekly.entry.id] })).nodes).toEqual([null]);
});
