import { uniqueId } from '../support/redis';
import { CREATE_BOARD, createBoard, SUBMIT, submitAll, TEST_KEYS, TestServer, USER_ERRORS } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

const SUBMIT_MANY = `mutation ($inputs: [SubmitScoreInput!]!) {
  submitScores(inputs: $inputs) { results { entry { playerId score rank leaderboard { id } } previousScore changed } ${USER_ERRORS} }
}`;
const sizeOf = async (id: string) => (await server.data(`{ leaderboard(id: "${id}") { totalCount } }`)).leaderboard.totalCount;

describe('submitScore', () => {
  it('reports the previous score and rank, and whether anything changed', async () => {
    const id = uniqueId('submit');
    await createBoard(server, id, 'DESCENDING', 'BEST');
    await submitAll(server, id, [['leader', 500]]);
    const submit = async (score: number) =>
      (await server.data(SUBMIT, { input: { leaderboardId: id, playerId: 'me', score } })).submitScore;

    expect(await submit(100)).toMatchObject({
      entry: { playerId: 'me', score: 100, rank: 2, sharedRank: 2, percentile: 50 },
      previousScore: null, previousRank: null, changed: true, replayed: false,
    });
    expect(await submit(50)).toMatchObject({ entry: { score: 100, rank: 2 }, previousScore: 100, previousRank: 2, changed: false });
    expect(await submit(900)).toMatchObject({ entry: { score: 900, rank: 1 }, previousScore: 100, previousRank: 2, changed: true });
  });

  it('replays a retried submission with the same idempotency key instead of applying it twice', async () => {
    const id = uniqueId('idem');
    await createBoard(server, id, 'DESCENDING', 'INCREMENT');
    const input = { leaderboardId: id, playerId: 'p', score: 5, idempotencyKey: 'match-42' };
    const first = (await server.data(SUBMIT, { input })).submitScore;
    const retry = (await server.data(SUBMIT, { input })).submitScore;
    expect(first).toMatchObject({ entry: { score: 5 }, replayed: false });
    expect(retry).toMatchObject({ entry: { score: 5 }, replayed: true });
    const { entry } = (await server.data(`{ leaderboard(id: "${id}") { entry(playerId: "p") { score } } }`)).leaderboard;
    expect(entry.score).toBe(5);
  });

  it('reports a refused submission in userErrors, naming the input field and no batch position', async () => {
    const id = uniqueId('refused');
    await createBoard(server, id);
    const [error] = await server.userErrors(SUBMIT, { input: { leaderboardId: id, playerId: 'p', score: 2 ** 53 } });
    expect(error).toEqual({ code: 'BAD_USER_INPUT', field: ['input', 'score'], message: expect.stringMatching(/^score must be/) });
    const missing = uniqueId('missing');
    const { body } = await server.post(SUBMIT, { input: { leaderboardId: missing, playerId: 'p', score: 1 } });
    expect(body).toEqual({
      data: {
        submitScore: {
          entry: null, previousScore: null, previousRank: null, changed: false, replayed: false,
          userErrors: [{ code: 'NOT_FOUND', field: ['input', 'leaderboardId'], message: `leaderboard ${missing} does not exist` }],
        },
      },
    });
  });

  it('keeps the other results of a request when one mutation fails, expectedly or not', async () => {
    const id = uniqueId('partial');
    await createBoard(server, id);
    const { body } = await server.post(`mutation {
      ok: submitScore(input: { leaderboardId: "${id}", playerId: "a", score: 1 }) { entry { score } ${USER_ERRORS} }
      refused: submitScore(input: { leaderboardId: "${id}", playerId: "b", score: 1e300 }) { entry { score } ${USER_ERRORS} }
      forbidden: deleteLeaderboard(id: "${id}") { deleted }
      after: submitScore(input: { leaderboardId: "${id}", playerId: "c", score: 2 }) { entry { rank } }
    }`, undefined, { key: TEST_KEYS.writer });
    expect(body.data).toEqual({
      ok: { entry: { score: 1 }, userErrors: [] },
      refused: { entry: null, userErrors: [expect.objectContaining({ code: 'BAD_USER_INPUT', field: ['input', 'score'] })] },
      forbidden: null,
      after: { entry: { rank: 1 } },
    });
    expect(body.errors).toEqual([expect.objectContaining({ path: ['forbidden'], extensions: expect.objectContaining({ code: 'FORBIDDEN', outcome: 'NOT_APPLIED' }) })]);
  });

  it('keeps an imported reachedAt to the microsecond, whatever offset it was written with', async () => {
    const id = uniqueId('reached');
    await createBoard(server, id, 'DESCENDING', 'LATEST');
    const { submitScore } = await server.data(SUBMIT, {
      input: { leaderboardId: id, playerId: 'p', score: 1, reachedAt: '2026-11-03T17:02:44.123456+02:00' },
    });
    expect(submitScore.entry.reachedAt).toBe('2026-11-03T15:02:44.123456Z');
    const literal = await server.data(`mutation {
      submitScore(input: { leaderboardId: "${id}", playerId: "q", score: 1, reachedAt: "2026-11-03T15:02:44Z" }) { entry { reachedAt rank } }
    }`);
    // Equal scores: q reached it earlier, so q ranks first.
    expect(literal.submitScore.entry).toEqual({ reachedAt: '2026-11-03T15:02:44.000000Z', rank: 1 });
  });
});

describe('submitScores', () => {
  it('writes many players on many boards in one request, results in input order', async () => {
    const a = uniqueId('many-a');
    const b = uniqueId('many-b');
    await createBoard(server, a);
    await createBoard(server, b, 'ASCENDING');
    const { submitScores } = await server.data(SUBMIT_MANY, {
      inputs: [
        { leaderboardId: a, playerId: 'x', score: 10 },
        { leaderboardId: b, playerId: 'x', score: 10 },
        { leaderboardId: a, playerId: 'y', score: 20 },
        { leaderboardId: b, playerId: 'y', score: 20 },
        { leaderboardId: a, playerId: 'x', score: 30 },
      ],
    });
    expect(submitScores.results.map((p: { entry: object }) => p.entry)).toEqual([
      { playerId: 'x', score: 10, rank: 1, leaderboard: { id: a } },
      { playerId: 'x', score: 10, rank: 1, leaderboard: { id: b } },
      { playerId: 'y', score: 20, rank: 1, leaderboard: { id: a } },
      { playerId: 'y', score: 20, rank: 2, leaderboard: { id: b } },
      { playerId: 'x', score: 30, rank: 1, leaderboard: { id: a } },
    ]);
    expect(submitScores.results[4]).toMatchObject({ previousScore: 10, changed: true });
    expect(submitScores.userErrors).toEqual([]);
  });

  it('writes nothing when one item is invalid, and names the item', async () => {
    const a = uniqueId('atomic-a');
    const b = uniqueId('atomic-b');
    await createBoard(server, a);
    await createBoard(server, b);
    const [error] = await server.userErrors(SUBMIT_MANY, {
      inputs: [
        { leaderboardId: a, playerId: 'ok1', score: 1 },
        { leaderboardId: b, playerId: 'ok2', score: 2 },
        { leaderboardId: a, playerId: 'bad', score: 2 ** 53 },
      ],
    });
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: ['inputs', '2', 'score'], message: expect.stringMatching(/^item 2: score/) });
    expect([await sizeOf(a), await sizeOf(b)]).toEqual([0, 0]);
  });

  it('writes nothing when one item names a board that does not exist (NOT_FOUND)', async () => {
    const a = uniqueId('nf-a');
    const missing = uniqueId('nf-missing');
    await createBoard(server, a);
    const [error] = await server.userErrors(SUBMIT_MANY, {
      inputs: [{ leaderboardId: a, playerId: 'ok', score: 1 }, { leaderboardId: missing, playerId: 'x', score: 1 }],
    });
    expect(error).toMatchObject({ code: 'NOT_FOUND', field: ['inputs', '1', 'leaderboardId'] });
    expect(await sizeOf(a)).toBe(0);
  });
});

describe('removeEntry', () => {
  it('removes a player, says false when there was none, and NOT_FOUND for an unknown board', async () => {
    const id = uniqueId('remove');
    await createBoard(server, id);
    await submitAll(server, id, [['a', 3], ['b', 2], ['c', 1]]);
    const REMOVE = `mutation ($board: ID!, $player: ID!) { removeEntry(leaderboardId: $board, playerId: $player) { removed ${USER_ERRORS} } }`;
    expect((await server.data(REMOVE, { board: id, player: 'a' })).removeEntry).toEqual({ removed: true, userErrors: [] });
    expect((await server.data(REMOVE, { board: id, player: 'a' })).removeEntry).toEqual({ removed: false, userErrors: [] });
    const { entries } = await server.data(`{ entries(leaderboardId: "${id}", playerIds: ["a", "b", "c"]) { rank } }`);
    expect(entries).toEqual([null, { rank: 1 }, { rank: 2 }]);

    const gone = uniqueId('gone');
    const { removeEntry } = (await server.post(REMOVE, { board: gone, player: 'a' })).body.data;
    expect(removeEntry).toEqual({
      removed: false, userErrors: [{ code: 'NOT_FOUND', field: ['leaderboardId'], message: `leaderboard ${gone} does not exist` }],
    });
  });

  it('is seen by later fields of the same request', async () => {
    const id = uniqueId('remove-read');
    await createBoard(server, id);
    await submitAll(server, id, [['a', 3]]);
    const data = await server.data(`mutation {
      before: submitScore(input: { leaderboardId: "${id}", playerId: "b", score: 1 }) { entry { leaderboard { entry(playerId: "a") { rank } } } }
      removeEntry(leaderboardId: "${id}", playerId: "a") { removed }
      after: submitScore(input: { leaderboardId: "${id}", playerId: "b", score: 1 }) { entry { leaderboard { totalCount entry(playerId: "a") { rank } } } }
    }`);
    expect(data.before.entry.leaderboard.entry).toEqual({ rank: 1 });
    expect(data.after.entry.leaderboard).toEqual({ totalCount: 1, entry: null });
  });
});

describe('players', () => {
  it('resolves profiles on entries, and an id-only player for those without one', async () => {
    const id = uniqueId('players');
    const known = uniqueId('known');
    await createBoard(server, id);
    await submitAll(server, id, [[known, 2], ['anonymous', 1]]);
    const UPSERT = `mutation ($input: UpsertPlayerInput!) { upsertPlayer(input: $input) { player { id displayName country avatarUrl } ${USER_ERRORS} } }`;
    const profile = { id: known, displayName: 'Märta «the Rook»', country: 'SE', avatarUrl: 'https://example.com/a.png' };
    expect((await server.data(UPSERT, { input: profile })).upsertPlayer).toEqual({ player: profile, userErrors: [] });

    const { leaderboard, player } = await server.data(`{
      leaderboard(id: "${id}") { entries { nodes { player { id displayName country avatarUrl } } } }
      player(id: "${known}") { displayName }
    }`);
    expect(leaderboard.entries.nodes.map((n: { player: object }) => n.player)).toEqual([
      profile,
      { id: 'anonymous', displayName: null, country: null, avatarUrl: null },
    ]);
    expect(player).toEqual({ displayName: profile.displayName });

    // Upsert replaces the whole profile.
    const replaced = (await server.data(UPSERT, { input: { id: known, country: 'NO' } })).upsertPlayer.player;
    expect(replaced).toEqual({ id: known, displayName: null, country: 'NO', avatarUrl: null });
    expect((await server.data(`{ player(id: "${uniqueId('nobody')}") { id } }`)).player).toBeNull();
  });

  it('refuses malformed profiles with BAD_USER_INPUT naming the field', async () => {
    const UPSERT = `mutation ($input: UpsertPlayerInput!) { upsertPlayer(input: $input) { player { id } ${USER_ERRORS} } }`;
    for (const [field, value] of [['country', 'Sweden'], ['avatarUrl', 'javascript:alert(1)'], ['displayName', ''], ['id', 'has space']]) {
      const [error] = await server.userErrors(UPSERT, { input: { id: 'p', [field]: value } });
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: ['input', field] });
    }
  });

  it('refuses names and titles holding invisible characters (bidirectional overrides, isolates, controls)', async () => {
    const player = uniqueId('bidi');
    const UPSERT = `mutation ($input: UpsertPlayerInput!) { upsertPlayer(input: $input) { player { id } ${USER_ERRORS} } }`;
    for (const displayName of ['Ann\u202E', '\u2066Ann\u2069', 'Ann\u0007']) {
      const [error] = await server.userErrors(UPSERT, { input: { id: player, displayName } });
      expect(error.message).toMatch(/^displayName must be visible text on one line: U\+\w+ at index \d+/);
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: ['input', 'displayName'] });
    }
    expect((await server.data(`{ player(id: "${player}") { id } }`)).player).toBeNull();

    const board = uniqueId('bidi');
    const [title] = await server.userErrors(CREATE_BOARD, { input: { id: board, title: 'Blitz\u202Dweekly', sortOrder: 'DESCENDING', updatePolicy: 'BEST' } });
    expect(title).toMatchObject({ code: 'BAD_USER_INPUT', field: ['input', 'title'] });
    expect((await server.data(`{ leaderboard(id: "${board}") { id } }`)).leaderboard).toBeNull();
  });
});
