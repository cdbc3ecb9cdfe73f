// addSeasons end to end (schema/seasons.graphql): its payload, a retry that changes nothing,
// userErrors naming the input field, and the admin role. What it does to submissions and expiry
// is in test/redis/domain/seasons.redis.test.ts, with the scripts' clock driven.
import { createBoard, TEST_KEYS, TestServer, USER_ERRORS } from '../support/harness';
import { uniqueId } from '../support/redis';

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

const ADD = `mutation ($input: AddSeasonsInput!) { addSeasons(input: $input) { leaderboard { id } changed ${USER_ERRORS} } }`;
// Seasons added must start after Redis' clock: these are well after it.
const S1 = { id: 's1', start: '2100-01-01T00:00:00Z', end: '2100-04-01T00:00:00Z' };
const S2 = { id: 's2', start: '2100-04-01T00:00:00Z', end: '2100-07-01T00:00:00Z' };

async function board(): Promise<string> {
  const id = uniqueId('seasons');
  await createBoard(server, id);
  return id;
}

it('adds seasons to a board that kept none; the same call again changes nothing', async () => {
  const id = await board();
  const added = await server.data(ADD, { input: { leaderboardId: id, seasons: [S1, S2], retention: 1 } });
  expect(added.addSeasons).toEqual({ leaderboard: { id }, changed: true, userErrors: [] });
  const again = await server.data(ADD, { input: { leaderboardId: id, seasons: [S1, S2], retention: 1 } });
  expect(again.addSeasons).toEqual({ leaderboard: { id }, changed: false, userErrors: [] });
});

it('refuses bad seasons in userErrors naming the field, and adds nothing', async () => {
  const id = await board();
  await server.data(ADD, { input: { leaderboardId: id, seasons: [S1] } });
  const cases: [Record<string, unknown>, string, string[]][] = [
    [{ seasons: [S2, { id: 'x', start: '2100-03-01T00:00:00Z', end: '2100-05-01T00:00:00Z' }] }, 'BAD_USER_INPUT', ['seasons', '1']],
    [{ seasons: [{ ...S2, end: S2.start }] }, 'BAD_USER_INPUT', ['seasons', '0', 'end']],
    [{ seasons: [{ ...S2, id: 'a:b' }] }, 'BAD_USER_INPUT', ['seasons', '0', 'id']],
    [{ seasons: [{ id: 'past', start: '2020-01-01T00:00:00Z', end: '2099-01-01T00:00:00Z' }] }, 'BAD_USER_INPUT', ['seasons', '0', 'start']],
    [{ seasons: [] }, 'BAD_USER_INPUT', ['seasons']],
    [{ seasons: [S2, { ...S1, end: S2.end }] }, 'CONFLICT', ['seasons', '1']],
    [{ seasons: [S2], retention: 3 }, 'CONFLICT', ['retention']],
  ];
  for (const [input, code, field] of cases) {
    const { body } = await server.post(ADD, { input: { leaderboardId: id, ...input } });
    expect(body.data!.addSeasons).toEqual({ leaderboard: null, changed: false, userErrors: [{ code, field: ['input', ...field], message: expect.any(String) }] });
  }
  // S2 was in most of them: it was never added.
  expect((await server.data(ADD, { input: { leaderboardId: id, seasons: [S2] } })).addSeasons.changed).toBe(true);
  expect(await server.userErrors(ADD, { input: { leaderboardId: id, seasons: [S1], retention: 0 } }))
    .toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', field: ['input', 'retention'] })]);
  expect(await server.userErrors(ADD, { input: { leaderboardId: uniqueId('no-such-board'), seasons: [S1] } }))
    .toEqual([expect.objectContaining({ code: 'NOT_FOUND', field: ['input', 'leaderboardId'] })]);
});

it('needs the admin role', async () => {
  const id = await board();
  for (const key of [TEST_KEYS.reader, TEST_KEYS.writer]) {
    const { body } = await server.post(ADD, { input: { leaderboardId: id, seasons: [S1] } }, { key });
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN', outcome: 'NOT_APPLIED' }) })]);
  }
  expect((await server.data(ADD, { input: { leaderboardId: id, seasons: [S1] } })).addSeasons.changed).toBe(true);
});
