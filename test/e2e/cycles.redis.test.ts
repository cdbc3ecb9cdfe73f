// Custom cycles over GraphQL (issue 34): a board keeps "every 3 hours from an anchor"; the
// server's clocks (the submit script's and Node's) are the test's.
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

const READ = `query ($id: ID!) {
  leaderboard(id: $id) {
    cycle { unit every anchor }
    period(of: { kind: CYCLE }) { key start end entries(first: 5) { nodes { playerId score } } }
    periods(kind: CYCLE) { key }
  }
}`;
const SUBMIT = 'mutation ($id: ID!, $score: Float!) { submitScore(input: { leaderboardId: $id, playerId: "p", score: $score }) { entry { score } } }';

it('keeps a three-hour event cycle: none before its anchor, then one period per cycle, each read and written by its key', async () => {
  const id = uniqueId('cycles');
  const created = await server.post(CREATE_BOARD, {
    input: {
      id, sortOrder: 'DESCENDING', updatePolicy: 'BEST',
      periods: { timeZone: 'Europe/Berlin', kinds: [{ kind: 'ALL_TIME' }, { kind: 'CYCLE', every: { hours: 3 }, anchor: '2027-05-01T18:00:00Z', retention: 2 }] },
    },
  });
  expect(created.body.errors).toBeUndefined();

  at('2027-05-01T17:00:00Z');
  await server.data(SUBMIT, { id, score: 5 });
  expect((await server.data(READ, { id })).leaderboard).toEqual({
    cycle: { unit: 'HOURS', every: 3, anchor: '2027-05-01T18:00:00.000000Z' }, period: null, periods: [],
  });

  at('2027-05-01T19:00:00Z');
  await server.data(SUBMIT, { id, score: 7 });
  at('2027-05-01T22:30:00Z');
  await server.data(SUBMIT, { id, score: 3 });
  expect((await server.data(READ, { id })).leaderboard).toMatchObject({
    period: { key: '2027-05-01T21:00Z', start: '2027-05-01T21:00:00.000000Z', end: '2027-05-02T00:00:00.000000Z', entries: { nodes: [{ playerId: 'p', score: 3 }] } },
    periods: [{ key: '2027-05-01T21:00Z' }, { key: '2027-05-01T18:00Z' }],
  });
  const first = await server.data(
    'query ($id: ID!) { leaderboard(id: $id) { period(of: { kind: CYCLE, key: "2027-05-01T18:00Z" }) { entry(playerId: "p") { score } } } }', { id },
  );
  expect(first.leaderboard.period.entry).toEqual({ score: 7 });
});

it('refuses a cycle without a length or with an anchor that is not a whole minute, naming the field', async () => {
  const create = (kind: Record<string, unknown>) => server.post(CREATE_BOARD, {
    input: { id: uniqueId('cycles-bad'), sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'CYCLE', ...kind }] } },
  });
  const refusal = async (kind: Record<string, unknown>) => ((await create(kind)).body.data!.createLeaderboard as { userErrors: unknown[] }).userErrors;
  expect(await refusal({ anchor: '2027-05-01T18:00:00Z' })).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', field: ['input', 'periods', 'kinds', '0', 'every'] })]);
  expect(await refusal({ every: { minutes: 30 }, anchor: '2027-05-01T18:00:30Z' })).toEqual([
    expect.objectContaining({ code: 'BAD_USER_INPUT', field: ['input', 'periods', 'kinds', '0', 'anchor'] }),
  ]);
});
