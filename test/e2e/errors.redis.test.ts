import { createHash } from 'node:crypto';
import { uniqueId } from '../support/redis';
import { connect } from '../support/liveClient';
import {
  authorization, createBoard, createBrokenBoard, SUBMIT, submitAll, TEST_KEYS, TestServer, USER_ERRORS, userErrorsIn,
} from '../support/harness';

let server: TestServer;
// Known when the tables below are built, before beforeAll runs.
const boardId = uniqueId('errors');
beforeAll(async () => {
  server = await TestServer.start();
  await createBoard(server, boardId);
  await submitAll(server, boardId, [['p1', 10], ['p2', 20]]);
});
afterAll(() => server.stop());

/** The codes of the response's errors, or of its mutations' `userErrors` (where expected failures of writes go). */
async function codeOf(query: string, variables?: Record<string, unknown>): Promise<string[]> {
  const { body } = await server.post(query, variables);
  return body.errors?.length ? body.errors.map((error) => error.extensions.code) : userErrorsIn(body.data).map((error) => error.code);
}

/** Sends a raw JSON body: JSON.stringify cannot write 1e400, but a client can. */
async function postRaw(body: string, key = TEST_KEYS.admin) {
  const response = await fetch(server.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authorization(key) },
    body,
  });
  return { status: response.status, body: (await response.json()) as { errors?: { message: string; extensions: { code: string } }[] } };
}

describe('BAD_USER_INPUT', () => {
  const submitLiteral = (score: string) =>
    `mutation { submitScore(input: { leaderboardId: "${boardId}", playerId: "x", score: ${score} }) { changed ${USER_ERRORS} } }`;

  it.each([
    ['a Float literal that overflows to Infinity', submitLiteral('1e400')],
    ['a Float literal below -(2^53 - 1)', submitLiteral('-9007199254740992')],
    ['a score of 2^53', submitLiteral('9007199254740992')],
    ['a string where a Float belongs', submitLiteral('"ten"')],
    ['an unknown enum value', 'mutation { createLeaderboard(input: { id: "e", sortOrder: SIDEWAYS, updatePolicy: BEST }) { leaderboard { id } } }'],
    ['an enum value given as a string', 'mutation { createLeaderboard(input: { id: "e", sortOrder: "DESCENDING", updatePolicy: BEST }) { leaderboard { id } } }'],
    ['an Int literal out of 32-bit range', `{ leaderboard(id: "${boardId}") { entries(first: 99999999999) { totalCount } } }`],
    ['a malformed DateTime literal', `mutation { submitScore(input: { leaderboardId: "${boardId}", playerId: "x", score: 1, reachedAt: "yesterday" }) { changed } }`],
    ['a DateTime literal that is not a string', `mutation { submitScore(input: { leaderboardId: "${boardId}", playerId: "x", score: 1, reachedAt: 1700000000 }) { changed } }`],
    ['a malformed leaderboard id', '{ leaderboard(id: "has space") { id } }'],
    ['a malformed player id', `{ leaderboard(id: "${boardId}") { entry(playerId: "{braces}") { rank } } }`],
    ['a page size of 0', `{ leaderboard(id: "${boardId}") { entries(first: 0) { totalCount } } }`],
    ['a page size of 1001', `{ leaderboard(id: "${boardId}") { entries(first: 1001) { totalCount } } }`],
    ['a negative offset', `{ leaderboard(id: "${boardId}") { entries(offset: -1) { totalCount } } }`],
    ['both first and last', `{ leaderboard(id: "${boardId}") { entries(first: 2, last: 2) { totalCount } } }`],
    ['before with first', `{ leaderboard(id: "${boardId}") { entries(first: 2, before: "bm9wZQ") { totalCount } } }`],
    ['a cursor this API did not make', `{ leaderboard(id: "${boardId}") { entries(after: "bm9wZQ") { totalCount } } }`],
    ['a radius over the limit', `{ leaderboard(id: "${boardId}") { around(playerId: "p1", radius: 501) { totalCount } } }`],
    ['a non-finite aroundScore', `{ leaderboard(id: "${boardId}") { aroundScore(score: 1e400) { totalCount } } }`],
    ['a percent of 0', `{ leaderboard(id: "${boardId}") { topPercent(percent: 0) { rank } } }`],
    ['a topPercent limit over 1000', `{ leaderboard(id: "${boardId}") { topPercent(percent: 10, limit: 1001) { rank } } }`],
    ['more than 1000 player ids', `{ entries(leaderboardId: "${boardId}", playerIds: [${Array.from({ length: 1001 }, (_, i) => `"p${i}"`).join(',')}]) { rank } }`],
    ['a reachedAt in the future', `mutation { submitScore(input: { leaderboardId: "${boardId}", playerId: "x", score: 1, reachedAt: "2100-01-01T00:00:00Z" }) { changed ${USER_ERRORS} } }`],
    ['a reachedAt past what the store can hold', `mutation { submitScore(input: { leaderboardId: "${boardId}", playerId: "x", score: 1, reachedAt: "2999-01-01T00:00:00Z" }) { changed ${USER_ERRORS} } }`],
  ])('for %s', async (_case, query) => {
    expect(await codeOf(query)).toEqual(['BAD_USER_INPUT']);
  });

  it.each([
    ['a non-finite score (1e400 in JSON)', `{"query": ${JSON.stringify(SUBMIT)}, "variables": {"input": {"leaderboardId": "b", "playerId": "x", "score": 1e400}}}`],
    ['an unknown enum value', JSON.stringify({
      query: 'mutation ($o: SortOrder!) { createLeaderboard(input: { id: "e", sortOrder: $o, updatePolicy: BEST }) { leaderboard { id } } }',
      variables: { o: 'SIDEWAYS' },
    })],
    ['a string where a Float belongs', JSON.stringify({ query: SUBMIT, variables: { input: { leaderboardId: 'b', playerId: 'x', score: '10' } } })],
    ['a DateTime with more than microsecond precision', JSON.stringify({
      query: SUBMIT,
      variables: { input: { leaderboardId: 'b', playerId: 'x', score: 1, reachedAt: '2026-01-01T00:00:00.1234567Z' } },
    })],
    ['a DateTime that does not exist', JSON.stringify({
      query: SUBMIT,
      variables: { input: { leaderboardId: 'b', playerId: 'x', score: 1, reachedAt: '2026-02-30T00:00:00Z' } },
    })],
  ])('for %s passed as a variable', async (_case, body) => {
    const { errors } = (await postRaw(body)).body;
    expect(errors?.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
  });

  it.each([
    ['after 2255 (past 2^53 - 1 µs)', '2999-01-01T00:00:00Z'],
    ['before 1970', '1969-12-31T23:59:59.999999Z'],
    ['in a year below 100', '0050-01-01T00:00:00Z'],
  ])('for a reachedAt %s, stating the range accepted', async (_case, reachedAt) => {
    const [error] = await server.userErrors(SUBMIT, { input: { leaderboardId: boardId, playerId: 'x', score: 1, reachedAt } });
    expect(error).toEqual({
      code: 'BAD_USER_INPUT', field: ['input', 'reachedAt'], message: 'reachedAt must be a moment from 1970-01-01T00:00:00Z up to now',
    });
  });

  it('keeps GraphQL codes for malformed documents', async () => {
    expect(await codeOf(`{ leaderboard(id: "${boardId}") { nope } }`)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(await codeOf('{ leaderboard(id: ')).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(await codeOf('{ leaderboard { id } }')).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('fails only the fields with a bad id when lookups are batched together', async () => {
    const boards = await server.post(`{ good: leaderboard(id: "${boardId}") { id } bad: leaderboard(id: "not valid") { id } }`);
    expect(boards.body.data).toEqual({ good: { id: boardId }, bad: null });
    expect(boards.body.errors?.map((error) => [error.path, error.extensions.code])).toEqual([[['bad'], 'BAD_USER_INPUT']]);

    const entries = await server.post(`{ leaderboard(id: "${boardId}") {
      good: entry(playerId: "p1") { rank }
      bad: entry(playerId: "not valid") { rank }
    } }`);
    expect(entries.body.data.leaderboard).toEqual({ good: { rank: 2 }, bad: null });
    expect(entries.body.errors?.map((error) => [error.path, error.extensions.code])).toEqual([
      [['leaderboard', 'bad'], 'BAD_USER_INPUT'],
    ]);
  });
});

describe('requests refused before anything runs', () => {
  const TWO = 'query A { __typename } query B { __typename }';
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it.each([
    ['several operations and no operationName', { query: TWO }, 400, 'OPERATION_RESOLUTION_FAILURE', /name the one to run/],
    ['an operationName the document does not hold', { query: TWO, operationName: 'C' }, 400, 'OPERATION_RESOLUTION_FAILURE', /no operation named "C"/],
    ['a subscription over HTTP', { query: `subscription { topChanged(leaderboardId: "${boardId}") { version } }` }, 400, 'BAD_REQUEST',
      /WebSocket.*graphql-ws.*same URL/],
    ['a persisted-query hash that is not the query\'s', {
      query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ leaderboards { nodes { id } } }') } },
    }, 400, 'BAD_REQUEST', /sha does not match/],
    ['a persisted-query version other than 1', {
      query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: sha256('{ __typename }') } },
    }, 400, 'BAD_REQUEST', /Unsupported persisted query version/],
    ['a persisted-query hash the server does not know', {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(uniqueId('never-sent')) } },
    }, 200, 'PERSISTED_QUERY_NOT_FOUND', /PersistedQueryNotFound/],
  ])('%s: a client error, not an internal one', async (_case, body, status, code, message) => {
    const logged = server.logger.lines.length;
    const answer = await postRaw(JSON.stringify(body), TEST_KEYS.reader);
    expect(answer.status).toBe(status);
    expect(answer.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code }) })]);
    expect(server.logger.lines.slice(logged).filter((line) => line.level !== 'debug')).toEqual([]);
  });
});

describe('NOT_FOUND and CONFLICT', () => {
  it('is NOT_FOUND to submit to a board that does not exist', async () => {
    const missing = uniqueId('missing');
    const [error] = await server.userErrors(SUBMIT, { input: { leaderboardId: missing, playerId: 'x', score: 1 } });
    expect(error).toEqual({ code: 'NOT_FOUND', field: ['input', 'leaderboardId'], message: `leaderboard ${missing} does not exist` });
  });

  it('is CONFLICT to create an existing board with other settings', async () => {
    expect(await codeOf(`mutation { createLeaderboard(input: { id: "${boardId}", sortOrder: ASCENDING, updatePolicy: BEST }) { leaderboard { id } ${USER_ERRORS} } }`))
      .toEqual(['CONFLICT']);
  });
});

describe('INTERNAL_SERVER_ERROR', () => {
  it('masks an unexpected failure and logs it', async () => {
    const broken = await createBrokenBoard(server);
    const { body } = await server.post(`{ leaderboard(id: "${broken}") { entries { totalCount } } }`);
    expect(body.errors).toEqual([{
      message: 'Internal server error',
      locations: [expect.any(Object)],
      path: ['leaderboard', 'entries'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    }]);
    expect(JSON.stringify(body)).not.toMatch(/WRONGTYPE/);
    expect(server.logger.lines).toContainEqual({
      level: 'error',
      message: expect.stringMatching(/^Internal error at leaderboard\.entries: .*WRONGTYPE/s),
      fields: { requestId: expect.stringMatching(/^[0-9a-f]{16}-[0-9a-f]+$/) },
    });
  });
});

describe('in production', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await TestServer.start(undefined, { nodeEnv: 'production' });
  });
  afterAll(() => production.stop());

  it.each([
    ['a misspelt field', `{ leaderboard(id: "${boardId}") { titel } }`, undefined],
    ['a misspelt enum value', 'mutation ($i: CreateLeaderboardInput!) { createLeaderboard(input: $i) { leaderboard { id } } }',
      { i: { id: uniqueId('guess'), sortOrder: 'DESCENDIN', updatePolicy: 'BEST' } }],
  ])('names nothing of the schema for %s, over HTTP and WebSocket, where development suggests names', async (_case, query, variables) => {
    const [told] = await server.errors(query, variables);
    expect(told.message).toMatch(/Did you mean/);
    const [overHttp] = await production.errors(query, variables);
    expect(overHttp.message).not.toMatch(/Did you mean/);
    expect(overHttp.extensions.code).toBe(told.extensions.code);
    const socket = connect(production.graphqlUrl);
    try {
      const [overSocket] = (await socket.subscribe(query, variables).next()).errors!;
      expect(overSocket).toMatchObject({ message: overHttp.message, extensions: { code: overHttp.extensions.code } });
    } finally {
      await socket.close();
    }
  });

  it('refuses introspection alike over HTTP and WebSocket (one rule for both)', async () => {
    const query = '{ __schema { types { name } } }';
    const overHttp = await production.errors(query);
    expect(overHttp.map((error) => error.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const socket = connect(production.graphqlUrl);
    try {
      expect((await socket.subscribe(query).next()).errors).toEqual(overHttp);
    } finally {
      await socket.close();
    }
  });
});
