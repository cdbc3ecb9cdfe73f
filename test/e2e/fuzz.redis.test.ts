// Property-based fuzzing of the API over HTTP and WebSocket: random invalid ids, scores, sizes,
// deep or malformed documents. Every one must get an error with a stable code (never an internal
// one), the server must keep serving, and the board must be exactly as it was.
import fc from 'fast-check';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ID_PATTERN, MAX_BATCH_SIZE, MAX_PAGE_SIZE, MAX_RADIUS, MAX_UPDATE_EVERY_MS, UPDATE_INTERVAL_MS } from '../../src/domain/limits';
import { uniqueId } from '../support/redis';
import {
  authorization, createBoard, type GraphQLError, type GraphQLResponse, submitAll, TestServer, USER_ERRORS, userErrorsIn,
} from '../support/harness';

/** The codes a bad request may get; INTERNAL_SERVER_ERROR would be a bug. */
const STABLE_CODES = ['BAD_USER_INPUT', 'BAD_REQUEST', 'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED'];
const RUNS = { numRuns: 60 };

let server: TestServer;
let ws: Client;
const boardId = uniqueId('fuzz');
let snapshot: unknown;
const SNAPSHOT = `{
  leaderboard(id: "${boardId}") { totalCount title entries(first: 1000) { nodes { playerId score rank reachedAt player { displayName } } } }
  leaderboards(first: 1000) { nodes { id } }
}`;

beforeAll(async () => {
  server = await TestServer.start();
  await createBoard(server, boardId);
  await submitAll(server, boardId, [['amy', 30], ['bo', 20], ['cy', 20], ['dee', 10]]);
  snapshot = await server.data(SNAPSHOT);
  ws = createClient({
    url: server.graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: authorization(),
    retryAttempts: 0,
  });
});
afterEach(async () => {
  // Still serving, and nothing about the board changed (other files' boards may come and go).
  expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  const now = await server.data(SNAPSHOT);
  expect(now.leaderboard).toEqual((snapshot as typeof now).leaderboard);
  expect(now.leaderboards.nodes).toContainEqual({ id: boardId });
});
afterAll(async () => {
  await ws.dispose();
  await server.stop();
});

/** GraphQL errors or, of mutations, `userErrors`: at least one, each with a stable code. */
function expectStableErrors(response: GraphQLResponse | undefined, expected?: string): void {
  const refusals = [
    ...(response?.errors ?? []).map((error) => ({ code: error.extensions.code, message: error.message })),
    ...userErrorsIn(response?.data),
  ];
  expect(refusals.length).toBeGreaterThan(0);
  for (const { code, message } of refusals) {
    expect(STABLE_CODES).toContain(code);
    if (expected) expect(code).toBe(expected);
    expect(typeof message).toBe('string');
  }
}

/** The first thing a subscription gets: its errors (as a result or as graphql-ws' error message), or data. */
function firstOutcome(query: string, variables?: Record<string, unknown>): Promise<{ data?: unknown; errors?: GraphQLError[] }> {
  return new Promise((resolve, reject) => {
    const unsubscribe = ws.subscribe({ query, variables }, {
      next: (result) => {
        unsubscribe();
        resolve(result as { data?: unknown; errors?: GraphQLError[] });
      },
      error: (error) => (Array.isArray(error) ? resolve({ errors: error as GraphQLError[] }) : reject(error)),
      complete: () => {},
    });
  });
}

// ---- generators ----------------------------------------------------------------------------

const badId = fc.oneof(
  fc.constant(''),
  fc.constant('x'.repeat(10_240)),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.string({ maxLength: 20 }).map((s) => `{${s}}`),
  fc.constant('\uD800lone-surrogate'), // what a non-UTF-8 byte sequence becomes in a JS string
  fc.string({ maxLength: 200, unit: 'grapheme' }).filter((s) => !ID_PATTERN.test(s)),
);

/** Values that are not a finite score with |score| <= 2^53 - 1, as JSON variables carry them. */
const badScore = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 1, -(2 ** 53), 1e300, -1e300),
  fc.double({ noNaN: true }).filter((x) => Math.abs(x) > Number.MAX_SAFE_INTEGER),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

/** Not an Int from `smallest` to `largest` (which may be the top of GraphQL's 32-bit Int). */
const badSize = (largest: number, smallest: number) =>
  fc.oneof(
    ...(largest < 2 ** 31 - 1 ? [fc.integer({ min: largest + 1, max: 2 ** 31 - 1 })] : []),
    fc.integer({ min: -(2 ** 31), max: smallest - 1 }),
    fc.constantFrom(2 ** 31, 2 ** 53, 1.5, -0.5),
    fc.string(),
  );

// ---- HTTP ----------------------------------------------------------------------------------

describe('over HTTP', () => {
  const writes = (id: string): [string, Record<string, unknown>][] => [
    [`mutation ($i: SubmitScoreInput!) { submitScore(input: $i) { changed ${USER_ERRORS} } }`, { i: { leaderboardId: id, playerId: 'p', score: 1 } }],
    [`mutation ($i: SubmitScoreInput!) { submitScore(input: $i) { changed ${USER_ERRORS} } }`, { i: { leaderboardId: boardId, playerId: id, score: 1 } }],
    [`mutation ($i: SubmitScoreInput!) { submitScore(input: $i) { changed ${USER_ERRORS} } }`, { i: { leaderboardId: boardId, playerId: 'p', score: 1, idempotencyKey: id } }],
    [`mutation ($b: ID!, $p: ID!) { removeEntry(leaderboardId: $b, playerId: $p) { removed ${USER_ERRORS} } }`, { b: boardId, p: id }],
    [`mutation ($b: ID!, $p: ID!) { removeEntry(leaderboardId: $b, playerId: $p) { removed ${USER_ERRORS} } }`, { b: id, p: 'amy' }],
    [`mutation ($id: ID!) { deleteLeaderboard(id: $id) { deleted ${USER_ERRORS} } }`, { id }],
    [`mutation ($id: ID!) { createLeaderboard(input: { id: $id, sortOrder: DESCENDING, updatePolicy: BEST }) { leaderboard { id } ${USER_ERRORS} } }`, { id }],
    [`mutation ($id: ID!) { upsertPlayer(input: { id: $id, displayName: "x" }) { player { id } ${USER_ERRORS} } }`, { id }],
    [`mutation ($id: ID!) { deletePlayer(id: $id) { deleted ${USER_ERRORS} } }`, { id }],
    [`mutation ($id: ID!) { updateLeaderboard(input: { id: $id, title: "x" }) { changed ${USER_ERRORS} } }`, { id }],
    [`mutation ($id: ID!) { addSeasons(input: { leaderboardId: $id, seasons: [{ id: "s", start: "2100-01-01T00:00:00Z", end: "2100-02-01T00:00:00Z" }] }) { changed ${USER_ERRORS} } }`, { id }],
    [`mutation ($id: ID!) { keepTopEntries(input: { leaderboardId: $id, count: 1 }) { removedCount ${USER_ERRORS} } }`, { id }],
    [`mutation ($b: ID!, $p: ID!) { removeEntries(input: { leaderboardId: $b, playerIds: ["amy", $p] }) { removedCount ${USER_ERRORS} } }`, { b: boardId, p: id }],
    ['query ($id: ID!) { leaderboard(id: $id) { id } }', { id }],
    ['query ($b: ID!, $p: ID!) { leaderboard(id: $b) { entry(playerId: $p) { rank } around(playerId: $p) { totalCount } } }', { b: boardId, p: id }],
    ['query ($b: ID!, $p: [ID!]!) { entries(leaderboardId: $b, playerIds: $p) { rank } }', { b: boardId, p: ['amy', id] }],
    ['query ($id: ID!) { player(id: $id) { id } }', { id }],
  ];

  it('refuses every malformed id with BAD_USER_INPUT, in every argument that takes one', async () => {
    await fc.assert(
      fc.asyncProperty(badId, fc.nat(16), async (id, which) => {
        const [query, variables] = writes(id)[which];
        const { status, body } = await server.post(query, variables);
        expect(status).toBeLessThan(500);
        expectStableErrors(body, 'BAD_USER_INPUT');
      }),
      RUNS,
    );
  });

  it('refuses ids that are not UTF-8 at all (raw bytes in the body)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => Buffer.from([0xff, ...bytes, 0xc3])), async (bytes) => {
        const body = Buffer.concat([Buffer.from(`{"query":"{ leaderboard(id: \\"`), bytes, Buffer.from('\\") { id } }"}')]);
        const response = await fetch(server.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...authorization() }, body });
        expect(response.status).toBeLessThan(500);
        expectStableErrors((await response.json()) as GraphQLResponse);
      }),
      RUNS,
    );
  });

  it('refuses every score that is not finite and within 2^53 - 1, writing nothing, alone or in a batch', async () => {
    await fc.assert(
      fc.asyncProperty(badScore, fc.boolean(), async (score, batch) => {
        const good = { leaderboardId: boardId, playerId: 'newcomer', score: 5 };
        const bad = { leaderboardId: boardId, playerId: 'amy', score };
        const { body } = batch
          ? await server.post(`mutation ($i: [SubmitScoreInput!]!) { submitScores(inputs: $i) { results { changed } ${USER_ERRORS} } }`, { i: [good, bad] })
          : await server.post('query ($s: Float!) { leaderboard(id: "' + boardId + '") { aroundScore(score: $s) { totalCount } } }', { s: score });
        expectStableErrors(body, 'BAD_USER_INPUT');
      }),
      RUNS,
    );
    // The same as literals in the document, and as a JSON number too large for a double.
    for (const literal of ['1e400', '-1e400', '9007199254740992', '"12"', 'true', 'null', '[1]']) {
      const { body } = await server.post(`mutation { submitScore(input: { leaderboardId: "${boardId}", playerId: "amy", score: ${literal} }) { changed ${USER_ERRORS} } }`);
      expectStableErrors(body, 'BAD_USER_INPUT');
    }
    const raw = await fetch(server.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authorization() },
      body: `{"query":"mutation ($s: Float!) { submitScore(input: { leaderboardId: \\"${boardId}\\", playerId: \\"amy\\", score: $s }) { changed userErrors { code message } } }","variables":{"s":1e400}}`,
    });
    expectStableErrors((await raw.json()) as GraphQLResponse, 'BAD_USER_INPUT');
  });

  it('refuses every page, window, percent and batch size out of range', async () => {
    const page = (arg: string) => `query ($n: Int) { leaderboard(id: "${boardId}") { ${arg} } }`;
    const cases = fc.oneof(
      badSize(MAX_PAGE_SIZE, 1).map((n) => [page('entries(first: $n) { totalCount }'), n] as const),
      // Any Int is a valid offset (beyond the board, a page is empty); negatives and non-Ints are not.
      badSize(2 ** 31 - 1, 0).map((n) => [page('entries(offset: $n) { totalCount }'), n] as const),
      badSize(MAX_RADIUS, 0).map((n) => [page('around(playerId: "amy", radius: $n) { totalCount }'), n] as const),
      badSize(MAX_PAGE_SIZE, 1).map((n) => [page('topPercent(percent: 10, limit: $n) { rank }'), n] as const),
      badSize(MAX_PAGE_SIZE, 1).map((n) => ['query ($n: Int) { leaderboards(first: $n) { nodes { id } } }', n] as const),
    );
    await fc.assert(
      fc.asyncProperty(cases, fc.boolean(), async ([query, n], literal) => {
        // As a variable, and written into the document where it can be written as a literal.
        const asLiteral = literal && typeof n === 'number' && Number.isFinite(n);
        const { body } = asLiteral
          ? await server.post(query.replace('query ($n: Int) ', '').replace('$n', String(n)))
          : await server.post(query, { n });
        expectStableErrors(body, 'BAD_USER_INPUT');
      }),
      RUNS,
    );
    for (const percent of [0, -1, 100.5, NaN]) {
      const { body } = await server.post(`query ($p: Float!) { leaderboard(id: "${boardId}") { topPercent(percent: $p) { rank } } }`, { p: percent });
      expectStableErrors(body, 'BAD_USER_INPUT');
    }
    const tooMany = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => ({ leaderboardId: boardId, playerId: `p${i}`, score: i }));
    expectStableErrors((await server.post(`mutation ($i: [SubmitScoreInput!]!) { submitScores(inputs: $i) { results { changed } ${USER_ERRORS} } }`, { i: tooMany })).body, 'BAD_USER_INPUT');
    const ids = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => `p${i}`);
    expectStableErrors((await server.post(`query ($p: [ID!]!) { entries(leaderboardId: "${boardId}", playerIds: $p) { rank } }`, { p: ids })).body, 'BAD_USER_INPUT');
  });

  it('refuses documents too deep, too wide or too costly, and ones too long to parse', async () => {
    const deep = (levels: number) =>
      `{ leaderboard(id: "${boardId}") { ${'entries { nodes { leaderboard { '.repeat(levels)} id ${'} } } '.repeat(levels)} } }`;
    const aliased = (count: number) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: leaderboard(id: "${boardId}") { id }`).join(' ')} }`;
    const costly = (first: number) =>
      `{ leaderboard(id: "${boardId}") { entries(first: ${first}) { nodes { leaderboard { entries(first: ${first}) { nodes { playerId } } } } } } }`;
    const documents = fc.oneof(
      fc.integer({ min: 4, max: 400 }).map(deep),
      fc.integer({ min: 101, max: 300 }).map(aliased),
      fc.integer({ min: 150, max: 1000 }).map(costly),
      fc.integer({ min: 5_000, max: 200_000 }).map((levels) => `{${'a{'.repeat(levels)}b${'}'.repeat(levels)}}`),
      fc.integer({ min: 1_000, max: 100_000 }).map((depth) => `{ entries(leaderboardId: "b", playerIds: ${'['.repeat(depth)}"a"${']'.repeat(depth)}) { rank } }`),
    );
    await fc.assert(
      fc.asyncProperty(documents, async (query) => {
        const { status, body } = await server.post(query);
        expect(status).toBe(400);
        expectStableErrors(body);
      }),
      { numRuns: 40 },
    );
  });

  it('answers malformed documents and request bodies with a GraphQL or request error', async () => {
    const valid = `{ leaderboard(id: "${boardId}") { totalCount entries(first: 2) { nodes { playerId rank } } } }`;
    const documents = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 300, unit: 'binary' }),
      // A valid document, cut short or with a character spliced in.
      fc.nat(valid.length - 2).map((end) => valid.slice(0, end)),
      fc.tuple(fc.nat(valid.length), fc.constantFrom('{', '}', '(', '"', '$', '@', '!', ':', '\u0000')).map(([at, c]) => valid.slice(0, at) + c + valid.slice(at)),
    );
    await fc.assert(
      fc.asyncProperty(documents, async (query) => {
        const { status, body } = await server.post(query);
        expect(status).toBeLessThan(500);
        // A splice may leave the document valid (a brace inside a string): then it must read.
        if (body.errors) expectStableErrors(body);
        else expect(body.data).toBeDefined();
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ query: fc.jsonValue(), variables: fc.jsonValue() })), async (json) => {
        const response = await fetch(server.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...authorization() }, body: JSON.stringify(json) });
        expect(response.status).toBe(400);
        expectStableErrors((await response.json()) as GraphQLResponse);
      }),
      RUNS,
    );
  });
});

// ---- WebSocket -----------------------------------------------------------------------------

describe('over WebSocket', () => {
  it('refuses bad ids, sizes and documents in subscriptions, and the connection keeps serving', async () => {
    const operations = fc.oneof(
      badId.map((id) => [`subscription ($b: ID!) { topChanged(leaderboardId: $b) { version } }`, { b: id }, 'BAD_USER_INPUT'] as const),
      badId.map((id) => [`subscription ($p: ID!) { rankChanged(leaderboardId: "${boardId}", playerId: $p) { cause } }`, { p: id }, 'BAD_USER_INPUT'] as const),
      badSize(MAX_PAGE_SIZE, 1).map((n) => [`subscription ($n: Int) { topChanged(leaderboardId: "${boardId}", first: $n) { version } }`, { n }, 'BAD_USER_INPUT'] as const),
      badSize(MAX_RADIUS, 0).map((n) => [`subscription ($n: Int) { aroundChanged(leaderboardId: "${boardId}", playerId: "amy", radius: $n) { totalCount } }`, { n }, 'BAD_USER_INPUT'] as const),
      badSize(MAX_UPDATE_EVERY_MS, UPDATE_INTERVAL_MS).map((n) => [`subscription ($n: Int) { rankChanged(leaderboardId: "${boardId}", playerId: "amy", every: $n) { cause } }`, { n }, 'BAD_USER_INPUT'] as const),
      badSize(MAX_UPDATE_EVERY_MS, UPDATE_INTERVAL_MS).map((n) => [`subscription ($n: Int) { aroundChanged(leaderboardId: "${boardId}", playerId: "amy", every: $n) { totalCount } }`, { n }, 'BAD_USER_INPUT'] as const),
      fc.integer({ min: 4, max: 400 }).map((levels) => [
        `subscription { topChanged(leaderboardId: "${boardId}") { entries { ${'leaderboard { entries { nodes { '.repeat(levels)} playerId ${'} } } '.repeat(levels)} } } }`,
        {}, undefined,
      ] as const),
      fc.string({ maxLength: 200 }).map((query) => [query, {}, undefined] as const),
    );
    await fc.assert(
      fc.asyncProperty(operations, async ([query, variables, code]) => {
        const outcome = await firstOutcome(query, variables);
        expectStableErrors(outcome, code);
      }),
      RUNS,
    );
    const top = await firstOutcome(`subscription { topChanged(leaderboardId: "${boardId}", first: 2) { entries { playerId } } }`);
    expect(top).toEqual({ data: { topChanged: { entries: [{ playerId: 'amy' }, { playerId: 'bo' }] } } });
  });

  it('answers ids that are not UTF-8 at all (raw bytes in a frame) with an error or a protocol close', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => Buffer.from([0xff, ...bytes, 0xc3])), async (bytes) => {
        const socket = new WebSocket(server.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
        const messages: { type: string; payload?: GraphQLError[] | { errors?: GraphQLError[] } }[] = [];
        const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
        const next = () => new Promise<void>((resolve) => socket.once('message', (data) => {
          messages.push(JSON.parse(String(data)));
          resolve();
        }));
        await new Promise((resolve) => socket.once('open', resolve));
        socket.send(JSON.stringify({ type: 'connection_init', payload: authorization() }));
        await next();
        expect(messages[0].type).toBe('connection_ack');
        const subscribe = Buffer.concat([
          Buffer.from(`{"id":"1","type":"subscribe","payload":{"query":"subscription { topChanged(leaderboardId: \\"`),
          bytes,
          Buffer.from(`\\") { version } }"}}`),
        ]);
        socket.send(subscribe, { binary: true });
        const outcome = await Promise.race([next().then(() => 'message' as const), closed]);
        if (outcome === 'message') {
          // graphql-ws reports refused operations as `error`, failed subscribe resolvers as `next` with errors.
          const { type, payload } = messages[1];
          expect(['error', 'next']).toContain(type);
          expectStableErrors(type === 'error' ? { errors: payload as GraphQLError[] } : (payload as GraphQLResponse));
        } else {
          expect([4400, 1007]).toContain(outcome);
        }
        socket.close();
        await closed;
      }),
      { numRuns: 20 },
    );
  });
});
