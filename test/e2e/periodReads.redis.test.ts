// Reading a period (issue 13): Leaderboard.period(of:) is one kept period, an object of its own
// (a Node) with every read of the board on it; the board lists its kept ones. An unkept kind is
// BAD_USER_INPUT, an expired period NOT_FOUND, each nulling that field alone.
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
  leaderboard(id: $id) {
    id
    period(of: $period) {
      kind key start end expiresAt
      totalCount
      entry(playerId: "a") { score rank }
      entries(first: 10) { nodes { playerId score rank } }
      around(playerId: "b", radius: 1) { entries { playerId } }
      aroundScore(score: 15, radius: 1) { entries { playerId } }
      topPercent(percent: 50, limit: 10) { playerId }
      countByScore(min: { value: 0 })
    }
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
  expect(current.leaderboard.period).toEqual({
    kind: 'WEEKLY', key: '2027-W10', start: '2027-03-07T23:00:00.000000Z', end: '2027-03-14T23:00:00.000000Z', expiresAt: '2027-03-21T23:00:00.000000Z',
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
  expect(past.leaderboard.period.entries.nodes.map((e: { playerId: string }) => e.playerId)).toEqual(['c', 'b', 'a']);
  const byMoment = await server.data(READ, { id, period: { kind: 'WEEKLY', at: '2027-03-03T00:00:00Z' } });
  expect(byMoment.leaderboard.period.key).toBe('2027-W09');

  const allTime = await server.data(READ, { id });
  expect(allTime.leaderboard.period).toMatchObject({ kind: 'ALL_TIME', key: 'all', start: '1970-01-01T00:00:00.000000Z', end: null, expiresAt: null });
  expect(allTime.leaderboard.period.entries.nodes).toEqual([
    { playerId: 'b', score: 40, rank: 1 }, { playerId: 'c', score: 30, rank: 2 }, { playerId: 'a', score: 10, rank: 3 },
  ]);

  const LIST = 'query ($id: ID!) { leaderboard(id: $id) { timeZone periods { kind key totalCount } weekly: periods(kind: WEEKLY) { key entries { nodes { playerId } } } } }';
  const listed = await server.data(LIST, { id });
  expect(listed.leaderboard).toEqual({
    timeZone: 'Europe/Berlin',
    periods: [{ kind: 'ALL_TIME', key: 'all', totalCount: 3 }, { kind: 'WEEKLY', key: '2027-W10', totalCount: 2 }, { kind: 'WEEKLY', key: '2027-W09', totalCount: 3 }],
    weekly: [{ key: '2027-W10', entries: { nodes: [{ playerId: 'b' }, { playerId: 'a' }] } }, { key: '2027-W09', entries: { nodes: [{ playerId: 'c' }, { playerId: 'b' }, { playerId: 'a' }] } }],
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
  expect((await server.data(READ, { id, period: { kind: 'WEEKLY', key: '2027-W09' } })).leaderboard.period.totalCount).toBe(1);
  at('2027-03-14T23:00:00Z');
  const { body } = await server.post(READ, { id, period: { kind: 'WEEKLY', key: '2027-W09' } });
  expectFieldErrors(body, 'NOT_FOUND', id);
});

/** A refused period nulls `period` (and `entries`) alone, each with its error; the board still answers. */
function expectFieldErrors(body: { data?: any; errors?: { path?: unknown; extensions?: { code?: unknown } }[] }, code: string, id: string) {
  expect(body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual(
    expect.arrayContaining([[['leaderboard', 'period'], code], [['entries'], code]]),
  );
  expect(body.data).toEqual({ leaderboard: { id, period: null }, entries: null });
}

it('refuses a kind the board does not keep, and a key that names no period, with BAD_USER_INPUT', async () => {
  const id = await weeklyBoard();
  for (const period of [{ kind: 'DAILY' }, { kind: 'WEEKLY', key: '2027-W60' }, { kind: 'WEEKLY', key: '2027-W09', at: '2027-03-03T00:00:00Z' }]) {
    const { body } = await server.post(READ, { id, period });
    expectFieldErrors(body, 'BAD_USER_INPUT', id);
  }
});

it("gives a player's entry on a period its own Node id, which node() reads on that period, and the period as its ranking", async () => {
  const id = await weeklyBoard();
  at('2027-03-02T10:00:00Z'); // 2027-W09
  await submit(id, [['a', 10], ['b', 20]]);
  at('2027-03-09T10:00:00Z'); // 2027-W10
  await submit(id, [['a', 5]]);
  const ENTRY = `query ($id: ID!, $period: PeriodInput) {
    leaderboard(id: $id) {
      period(of: $period) {
        id
        entry(playerId: "a") {
          id score denseRank
          leaderboard { id period { key } }
          ranking { __typename totalCount ... on Period { id key } ... on Leaderboard { id } }
        }
        around(playerId: "a", radius: 1) { id }
      }
    }
  }`;
  const weekly = (await server.data(ENTRY, { id, period: { kind: 'WEEKLY' } })).leaderboard.period;
  const allTime = (await server.data(ENTRY, { id })).leaderboard.period;
  // Entry.leaderboard is the board as itself (its default period); the entry's ranking is the period it is in.
  expect(weekly.entry).toMatchObject({
    score: 5, denseRank: null, leaderboard: { id, period: { key: 'all' } }, ranking: { __typename: 'Period', id: weekly.id, key: '2027-W10', totalCount: 1 },
  });
  // An all-time entry is the board's own: its ranking is the Leaderboard.
  expect(allTime.entry).toMatchObject({ score: 10, ranking: { __typename: 'Leaderboard', id, totalCount: 2 } });
  // Two objects for a client cache: the week's entry never overwrites the all-time one.
  expect(weekly.entry.id).not.toBe(allTime.entry.id);
  expect(weekly.around.id).not.toBe(allTime.around.id);

  const NODE = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Entry { score } ... on RankWindow { entries { playerId } } ... on Period { key totalCount } } }';
  const { nodes } = await server.data(NODE, { ids: [weekly.entry.id, allTime.entry.id, weekly.around.id, weekly.id] });
  expect(nodes).toEqual([
    { id: weekly.entry.id, score: 5 },
    { id: allTime.entry.id, score: 10 },
    { id: weekly.around.id, entries: [{ playerId: 'a' }] },
    { id: weekly.id, key: '2027-W10', totalCount: 1 },
  ]);

  // Past its retention the week is no longer kept, and its objects read as null.
  at('2027-03-30T10:00:00Z');
  expect((await server.data(NODE, { ids: [weekly.entry.id, weekly.id] })).nodes).toEqual([null, null]);
});

it('gives each period of a board its own id, the same however it is reached', async () => {
  at('2027-03-02T10:00:00Z'); // 2027-W09: the boards exist in both weeks read
  const id = await weeklyBoard();
  const other = await weeklyBoard();
  at('2027-03-09T10:00:00Z'); // 2027-W10
  await submit(id, [['a', 5]]);
  const IDS = `query ($id: ID!, $other: ID!) {
    leaderboard(id: $id) {
      default: period { id kind leaderboard { id } }
      allTime: period(of: { kind: ALL_TIME }) { id }
      week: period(of: { kind: WEEKLY }) { id }
      byKey: period(of: { kind: WEEKLY, key: "2027-W10" }) { id }
      lastWeek: period(of: { kind: WEEKLY, key: "2027-W09" }) { id }
      periods { id }
      entry(playerId: "a") { ranking { ... on Leaderboard { id } } }
    }
    other: leaderboard(id: $other) { week: period(of: { kind: WEEKLY }) { id } }
  }`;
  const { leaderboard: board, other: otherBoard } = await server.data(IDS, { id, other });
  expect(board.default).toEqual({ id: board.allTime.id, kind: 'ALL_TIME', leaderboard: { id } });
  expect(board.byKey.id).toBe(board.week.id);
  expect(board.periods.map((period: { id: string }) => period.id)).toEqual([board.allTime.id, board.week.id, board.lastWeek.id]);
  expect(new Set([board.allTime.id, board.week.id, board.lastWeek.id, otherBoard.week.id]).size).toBe(4);
  const { nodes } = await server.data('query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Period { id kind key leaderboard { id } } } }', {
    ids: [board.allTime.id, board.lastWeek.id, otherBoard.week.id],
  });
  expect(nodes).toEqual([
    { id: board.allTime.id, kind: 'ALL_TIME', key: 'all', leaderboard: { id } },
    { id: board.lastWeek.id, kind: 'WEEKLY', key: '2027-W09', leaderboard: { id } },
    { id: otherBoard.week.id, kind: 'WEEKLY', key: '2027-W10', leaderboard: { id: other } },
  ]);
});

it("reads a board that does not keep ALL_TIME on its current period, whose entries' ranking is that Period", async () => {
  const id = uniqueId('period-reads-daily');
  await server.data(CREATE_BOARD, { input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'DAILY' }] } } });
  at('2027-03-09T10:00:00Z');
  await submit(id, [['a', 5], ['b', 7]]);
  const READ_DEFAULT = `query ($id: ID!) {
    leaderboard(id: $id) {
      totalCount
      period { id key totalCount }
      entries { nodes { playerId ranking { ... on Period { id } } } }
    }
  }`;
  const { leaderboard } = await server.data(READ_DEFAULT, { id });
  expect(leaderboard.period).toMatchObject({ key: '2027-03-09', totalCount: 2 });
  expect(leaderboard.totalCount).toBe(2);
  expect(leaderboard.entries.nodes).toEqual([
    { playerId: 'b', ranking: { id: leaderboard.period.id } }, { playerId: 'a', ranking: { id: leaderboard.period.id } },
  ]);
});

it("answers a submission to a board that does not keep ALL_TIME with the entry of the period it ranks on, as reads name it", async () => {
  const id = uniqueId('period-submit-daily');
  await server.data(CREATE_BOARD, { input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'DAILY' }] } } });
  at('2027-03-09T10:00:00Z');
  const SUBMIT_ONE = `mutation ($input: SubmitScoreInput!) {
    submitScore(input: $input) { entry { id rank ranking { __typename ... on Period { id key } } } userErrors { code } }
  }`;
  const key = { leaderboardId: id, playerId: 'a', score: 5, idempotencyKey: uniqueId('once') };
  const submitted = (await server.data(SUBMIT_ONE, { input: key })).submitScore;
  const READ = `query ($id: ID!) { leaderboard(id: $id) { period { id entry(playerId: "a") { id } } } }`;
  const { period } = (await server.data(READ, { id })).leaderboard;
  expect(submitted).toEqual({ entry: { id: period.entry.id, rank: 1, ranking: { __typename: 'Period', id: period.id, key: '2027-03-09' } }, userErrors: [] });
  // A replay of the same key, after the day rolled over, answers as the first time did.
  at('2027-03-10T10:00:00Z');
  expect((await server.data(SUBMIT_ONE, { input: key })).submitScore).toEqual(submitted);
});

it('answers one fragment on Ranking for a board and a period alike', async () => {
  const id = await weeklyBoard();
  at('2027-03-09T10:00:00Z');
  await submit(id, [['a', 5], ['b', 7]]);
  const FRAGMENT = `query ($id: ID!) {
    leaderboard(id: $id) { ...Reads period(of: { kind: WEEKLY }) { ...Reads } }
  }
  fragment Reads on Ranking { totalCount scoreAtRank(rank: 1) entriesByScore(min: { value: 6 }) { nodes { playerId } } }`;
  const { leaderboard } = await server.data(FRAGMENT, { id });
  const reads = { totalCount: 2, scoreAtRank: 7, entriesByScore: { nodes: [{ playerId: 'b' }] } };
  expect(leaderboard).toEqual({ ...reads, period: reads });
});

describe('between seasons, and before a board existed', () => {
  const SEASONS = `query ($id: ID!, $at: DateTime) {
    leaderboard(id: $id) {
      current: period(of: { kind: SEASON }) { key }
      atMoment: period(of: { kind: SEASON, at: $at }) { key }
      nextSeason { key start totalCount }
    }
  }`;

  it('answers the current season null between two seasons, before the first and after the last, and names the next', async () => {
    at('2027-01-10T00:00:00Z');
    const id = uniqueId('between-seasons');
    await server.data(CREATE_BOARD, {
      input: {
        id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: {
          timeZone: 'UTC', kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON' }],
          seasons: [{ id: 's1', start: '2027-02-01T00:00:00Z', end: '2027-03-01T00:00:00Z' }, { id: 's2', start: '2027-04-01T00:00:00Z', end: '2027-05-01T00:00:00Z' }],
        },
      },
    });
    const read = async (moment: string) => {
      at(moment);
      return server.post(SEASONS, { id, at: moment });
    };
    // Before the first season: no current one, s1 next; a moment no season holds is still NOT_FOUND, naming `at`.
    let { body } = await read('2027-01-15T00:00:00Z');
    expect(body.data?.leaderboard).toEqual({ current: null, atMoment: null, nextSeason: { key: 's1', start: '2027-02-01T00:00:00.000000Z', totalCount: 0 } });
    expect(body.errors?.map((error) => [error.path, error.extensions.code, error.extensions.details?.field])).toEqual([[['leaderboard', 'atMoment'], 'NOT_FOUND', 'of.at']]);
    ({ body } = await read('2027-02-15T00:00:00Z'));
    expect(body).toEqual({ data: { leaderboard: { current: { key: 's1' }, atMoment: { key: 's1' }, nextSeason: { key: 's2', start: '2027-04-01T00:00:00.000000Z', totalCount: 0 } } } });
    // Between the two, and after the last.
    ({ body } = await read('2027-03-15T00:00:00Z'));
    expect(body.data?.leaderboard).toMatchObject({ current: null, nextSeason: { key: 's2' } });
    ({ body } = await read('2027-06-01T00:00:00Z'));
    expect(body.data?.leaderboard).toMatchObject({ current: null, nextSeason: null });
    // A read that needs a period names the kind it was given, not a moment it was not.
    at('2027-03-15T00:00:00Z');
    const entries = await server.post('query ($id: ID!) { entries(leaderboardId: $id, playerIds: ["a"], period: { kind: SEASON }) { playerId } }', { id });
    expect(entries.body.errors?.map((error) => [error.extensions.code, error.extensions.details?.field])).toEqual([['NOT_FOUND', 'period.kind']]);
    expect(entries.body.errors?.[0].message).toMatch(/no season is running now: the next, s2, starts at 2027-04-01T00:00:00.000Z/);
  });

  it('lists periods from the board\'s creation, and one from before it only when an import filled it', async () => {
    at('2027-05-10T12:00:00Z');
    const id = uniqueId('listed-periods');
    await server.data(CREATE_BOARD, {
      input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { timeZone: 'UTC', kinds: [{ kind: 'DAILY', retention: 3 }] } },
    });
    const listed = async () => (await server.data('query ($id: ID!) { leaderboard(id: $id) { periods { key } } }', { id })).leaderboard.periods.map((p: { key: string }) => p.key);
    expect(await listed()).toEqual(['2027-05-10']);
    at('2027-05-11T12:00:00Z');
    expect(await listed()).toEqual(['2027-05-11', '2027-05-10']);
    // A score dated the day before the board existed lands in that day, which is then listed.
    await server.data('mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { changed } }', {
      input: { leaderboardId: id, playerId: 'a', score: 5, reachedAt: '2027-05-09T08:00:00Z' },
    });
    expect(await listed()).toEqual(['2027-05-11', '2027-05-10', '2027-05-09']);
  });
});
