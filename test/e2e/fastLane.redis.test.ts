// Known operations (src/server/fastLane.ts): once Apollo has accepted an operation, later
// requests for it skip Apollo's pipeline. They must be answered exactly as Apollo answers them:
// each case is sent to a server with known operations and to one where Apollo serves everything,
// and the answers (status, headers, bytes) must match.
import fc from 'fast-check';
import { createBoard, createBrokenBoard, type GraphQLResponse, SUBMIT, TEST_KEYS, TestServer } from '../support/harness';
import { uniqueId } from '../support/redis';

let known: TestServer;
let apolloOnly: TestServer;
const boards = { known: uniqueId('known'), apolloOnly: uniqueId('apollo-only') };

beforeAll(async () => {
  [known, apolloOnly] = await Promise.all([TestServer.start(), TestServer.start(undefined, { fastLane: false })]);
  for (const [server, id] of [[known, boards.known], [apolloOnly, boards.apolloOnly]] as const) {
    await createBoard(server, id, 'DESCENDING', 'LATEST');
    // Explicit times, so both boards answer alike to the byte.
    for (const [playerId, score, second] of [['ann', 30, 1], ['bob', 20, 2], ['cy', 20, 3], ['dee', 10, 4]] as const) {
      await server.data(SUBMIT, { input: { leaderboardId: id, playerId, score, reachedAt: `2026-11-30T00:00:0${second}.000001Z` } });
    }
  }
});
afterAll(() => Promise.all([known.stop(), apolloOnly.stop()]));

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that differ between any two responses. */
const VARYING = new Set(['date', 'x-request-id']);

async function send(server: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(server.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEYS.admin}`, ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: Object.fromEntries([...response.headers].filter(([name]) => !VARYING.has(name))),
    body: await response.text(),
  };
}

async function knownLaneCount(): Promise<number> {
  const text = await (await fetch(`${known.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('standings_graphql_http_requests_total{lane="known"}'));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** The answer `server` gives, with `board` standing for its own board's id in the body. */
const sendFor = (server: TestServer, board: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  send(server, JSON.parse(JSON.stringify(body).replaceAll('BOARD', board)), headers);

/**
 * Sends `body` to the known-operations server twice (the first teaches it the operation, if Apollo
 * accepts it) and to the Apollo-only server once; the answers must be alike. Returns the second
 * answer and whether the known lane took it.
 */
async function compare(body: Record<string, unknown>, headers?: Record<string, string>): Promise<{ answer: Answer; knownLane: boolean }> {
  const first = await sendFor(known, boards.known, body, headers);
  const before = await knownLaneCount();
  const second = await sendFor(known, boards.known, body, headers);
  const knownLane = (await knownLaneCount()) - before === 1;
  const reference = await sendFor(apolloOnly, boards.apolloOnly, body, headers);
  expect(second).toEqual(reference);
  expect(first).toEqual(reference);
  return { answer: second, knownLane };
}

const TOP = 'query Top($id: ID!) { leaderboard(id: $id) { entries(first: 3) { nodes { playerId score rank sharedRank } } } }';
const ENTRY = 'query ($id: ID!, $playerId: ID!) { leaderboard(id: $id) { entry(playerId: $playerId) { playerId score rank reachedAt } } }';

describe('a known operation', () => {
  it('is executed without Apollo and answered byte for byte as Apollo answers it', async () => {
    const { answer, knownLane } = await compare({ query: TOP, variables: { id: 'BOARD' } });
    expect(knownLane).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body).data.leaderboard.entries.nodes.map((n: { playerId: string }) => n.playerId)).toEqual(['ann', 'bob', 'cy']);
  });

  it('answers with the content type Apollo negotiated for the same Accept header', async () => {
    const headers = { accept: 'application/graphql-response+json, application/json;q=0.9' };
    const { answer, knownLane } = await compare({ query: ENTRY, variables: { id: 'BOARD', playerId: 'cy' } }, headers);
    expect(knownLane).toBe(true);
    expect(answer.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    // A custom scalar (DateTime) in the answer: written with JSON.stringify instead of the compiled serialiser.
    expect(JSON.parse(answer.body).data.leaderboard.entry).toMatchObject({ playerId: 'cy', rank: 3 });
  });

  it('runs the operation the request names, in a document holding several', async () => {
    const query = `${TOP} query Cy($id: ID!) { leaderboard(id: $id) { entry(playerId: "cy") { rank } } }`;
    const top = await compare({ query, operationName: 'Top', variables: { id: 'BOARD' } });
    const cy = await compare({ query, operationName: 'Cy', variables: { id: 'BOARD' } });
    expect([top.knownLane, cy.knownLane]).toEqual([true, true]);
    expect(JSON.parse(cy.answer.body).data).toEqual({ leaderboard: { entry: { rank: 3 } } });
    // A name the document does not hold, or none, is Apollo's to refuse.
    for (const operationName of ['Nobody', undefined]) {
      const nobody = await compare({ query, operationName, variables: { id: 'BOARD' } });
      expect(nobody.knownLane).toBe(false);
      expect([nobody.answer.status, JSON.parse(nobody.answer.body).errors[0].extensions.code]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE']);
    }
  });

  it('takes bodies with null fields, empty extensions and fields Apollo ignores', async () => {
    await compare({ query: TOP, variables: { id: 'BOARD' } });
    const { knownLane } = await compare({ query: TOP, operationName: null, variables: { id: 'BOARD' }, extensions: {}, client: 'x' });
    expect(knownLane).toBe(true);
  });

  it('runs a mutation once and answers as Apollo does', async () => {
    const submit = (score: number) => ({ query: SUBMIT.replace('reachedAt', ''), variables: { input: { leaderboardId: 'BOARD', playerId: `p${score}`, score, reachedAt: `2026-11-30T00:00:${score}.000001Z` } } });
    // The first submission teaches the operation (through Apollo), the second takes the known lane.
    expect(await sendFor(known, boards.known, submit(25))).toEqual(await sendFor(apolloOnly, boards.apolloOnly, submit(25)));
    const before = await knownLaneCount();
    const [fast, reference] = [await sendFor(known, boards.known, submit(26)), await sendFor(apolloOnly, boards.apolloOnly, submit(26))];
    expect((await knownLaneCount()) - before).toBe(1);
    expect(fast).toEqual(reference);
    expect(JSON.parse(fast.body).data.submitScore).toMatchObject({ entry: { playerId: 'p26', rank: 2 }, changed: true });
  });
});

describe('random reads', () => {
  const READS = [
    'query ($id: ID!, $first: Int, $last: Int, $offset: Int) { leaderboard(id: $id) { totalCount entries(first: $first, last: $last, offset: $offset) { nodes { playerId score rank sharedRank percentile reachedAt } edges { cursor } pageInfo { hasNextPage endCursor } } } }',
    'query ($id: ID!, $playerId: ID!, $radius: Int) { leaderboard(id: $id) { around(playerId: $playerId, radius: $radius) { center { rank } entries { playerId rank } } } }',
    'query ($id: ID!, $score: Float!, $radius: Int) { leaderboard(id: $id) { aroundScore(score: $score, radius: $radius) { entries { playerId score } } } }',
    'query ($id: ID!, $percent: Float!, $first: Int) { leaderboard(id: $id) { topPercent(percent: $percent, limit: $first) { playerId percentile } } }',
    'query ($id: ID!, $ids: [ID!]!) { entries(leaderboardId: $id, playerIds: $ids) { playerId score rank } }',
  ];
  const player = fc.oneof(fc.constantFrom('ann', 'bob', 'cy', 'dee', 'nobody'), fc.string({ maxLength: 3 }));
  const variables = fc.record({
    first: fc.oneof(fc.integer({ min: -2, max: 1002 }), fc.constant(null)),
    offset: fc.oneof(fc.integer({ min: -1, max: 6 }), fc.constant(null)),
    last: fc.oneof(fc.integer({ min: -2, max: 1002 }), fc.constant(null), fc.constant(null)),
    playerId: player,
    radius: fc.integer({ min: -1, max: 12 }),
    score: fc.oneof(fc.integer({ min: -5, max: 40 }), fc.double({ noNaN: true })),
    percent: fc.oneof(fc.double({ min: -1, max: 101, noNaN: true }), fc.constant(0)),
    ids: fc.array(player, { maxLength: 4 }),
  });

  it('are answered by the known lane exactly as by Apollo, valid or not', async () => {
    const before = await knownLaneCount();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...READS), variables, async (query, values) => {
        const body = { query, variables: { id: 'BOARD', ...values } };
        expect(await sendFor(known, boards.known, body)).toEqual(await sendFor(apolloOnly, boards.apolloOnly, body));
      }),
      { numRuns: 150 },
    );
    // Most of them took the known lane (all but each query's first).
    expect((await knownLaneCount()) - before).toBeGreaterThan(100);
  });
});

describe('errors of a known operation are answered by Apollo', () => {
  it('errors from resolvers, with their codes', async () => {
    const { answer, knownLane } = await compare({ query: TOP, variables: { id: 'nowhere' } });
    expect(knownLane).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({ data: { leaderboard: null } });
    const refused = await compare({ query: 'query ($id: ID!) { leaderboard(id: $id) { entries(first: 0) { totalCount } } }', variables: { id: 'BOARD' } });
    expect(refused.knownLane).toBe(true);
    expect(JSON.parse(refused.answer.body)).toMatchObject({
      data: { leaderboard: { entries: null } }, errors: [{ extensions: { code: 'BAD_USER_INPUT' } }],
    });
  });

  it('a mutation that partly failed, whose writes are not made twice', async () => {
    // A writer may not delete boards: that field fails (FORBIDDEN), the submission is written.
    const query = `mutation ($input: SubmitScoreInput!, $missing: ID!) {
      submitScore(input: $input) { changed }
      deleteLeaderboard(id: $missing) { deleted }
    }`;
    const added = uniqueId('added');
    await createBoard(known, added, 'DESCENDING', 'INCREMENT');
    const body = { query, variables: { input: { leaderboardId: added, playerId: 'p', score: 5 }, missing: uniqueId('nowhere') } };
    const before = await knownLaneCount();
    for (let i = 0; i < 2; i++) {
      const { body: text } = await send(known, body, { authorization: `Bearer ${TEST_KEYS.writer}` });
      expect(JSON.parse(text)).toMatchObject({
        data: { submitScore: { changed: true }, deleteLeaderboard: null }, errors: [{ extensions: { code: 'FORBIDDEN' } }],
      });
    }
    expect((await knownLaneCount()) - before).toBe(1);
    // Added twice, once per request: Apollo answered the second from its known-lane execution.
    expect((await known.data(ENTRY, { id: added, playerId: 'p' })).leaderboard.entry.score).toBe(10);
  });

  it('variables that do not fit: HTTP 400, BAD_USER_INPUT', async () => {
    await compare({ query: TOP, variables: { id: 'BOARD' } });
    const { answer, knownLane } = await compare({ query: TOP, variables: { id: null } });
    expect(knownLane).toBe(true);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('a refused write, which writes nothing', async () => {
    const tooBig = { query: SUBMIT, variables: { input: { leaderboardId: 'BOARD', playerId: 'huge', score: 2 ** 53 } } };
    const { answer, knownLane } = await compare(tooBig);
    expect(knownLane).toBe(true);
    expect(JSON.parse(answer.body).data.submitScore.userErrors[0]).toMatchObject({ code: 'BAD_USER_INPUT', field: ['input', 'score'] });
    const huge = await known.data(ENTRY, { id: boards.known, playerId: 'huge' });
    expect(huge.leaderboard.entry).toBeNull();
  });

  it('a key that is refused, or that may not write', async () => {
    const top = { query: TOP, variables: { id: 'BOARD' } };
    const unknownKey = await compare(top, { authorization: 'Bearer not-a-key' });
    expect(unknownKey.answer.status).toBe(401);
    const reader = await compare({ query: SUBMIT, variables: { input: { leaderboardId: 'BOARD', playerId: 'r', score: 1 } } }, { authorization: `Bearer ${TEST_KEYS.reader}` });
    expect(reader.knownLane).toBe(true);
    expect(JSON.parse(reader.answer.body).errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('an internal error, logged once with its request id', async () => {
    const broken = await createBrokenBoard(known);
    const body = { query: TOP, variables: { id: broken } };
    await send(known, body);
    const logged = known.logger.lines.length;
    const response = await fetch(known.graphqlUrl, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEYS.admin}` }, body: JSON.stringify(body),
    });
    expect(((await response.json()) as GraphQLResponse).errors![0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    const lines = known.logger.lines.slice(logged).filter((l) => l.level === 'error');
    expect(lines.map((l) => l.fields?.requestId)).toEqual([response.headers.get('x-request-id')]);
  });
});

describe('Apollo still serves', () => {
  it.each([
    ['an Accept header it refuses', { query: TOP, variables: { id: 'BOARD' } }, { accept: 'text/plain' }, 406],
    ['variables that are not an object', { query: TOP, variables: ['BOARD'] }, {}, 400],
    ['a persisted query whose hash is not its text\'s', { query: TOP, variables: { id: 'BOARD' }, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } }, {}, 400],
    ['a persisted query of another version', { query: TOP, variables: { id: 'BOARD' }, extensions: { persistedQuery: { version: 2, sha256Hash: 'x' } } }, {}, 400],
    ['an operation name of the wrong type', { query: TOP, operationName: 7, variables: { id: 'BOARD' } }, {}, 400],
    ['a subscription (WebSocket only)', { query: 'subscription ($id: ID!) { topChanged(leaderboardId: $id) { version } }', variables: { id: 'BOARD' } }, {}, 400],
  ])('%s: BAD_REQUEST', async (_case, body, headers, status) => {
    await compare({ query: TOP, variables: { id: 'BOARD' } });
    const logged = known.logger.lines.length;
    const { answer, knownLane } = await compare(body, headers);
    expect(knownLane).toBe(false);
    expect([answer.status, JSON.parse(answer.body).errors[0].extensions.code]).toEqual([status, 'BAD_REQUEST']);
    expect(known.logger.lines.slice(logged).filter((line) => line.level === 'error')).toEqual([]);
  });
});

describe('what is kept is bounded', () => {
  it('a long query text is never kept', async () => {
    const long = { query: `${TOP} # ${'x'.repeat(9000)}`, variables: { id: 'BOARD' } };
    const { answer, knownLane } = await compare(long);
    expect(knownLane).toBe(false);
    expect(answer.status).toBe(200);
  });

  it('past 500 query texts, the oldest is forgotten', async () => {
    const numbered = (i: number) => ({ query: `${TOP} # ${i}`, variables: { id: boards.known } });
    for (let i = 0; i <= 500; i++) await send(known, numbered(i));
    const before = await knownLaneCount();
    await send(known, numbered(500));
    await send(known, numbered(0));
    expect((await knownLaneCount()) - before).toBe(1);
  });

  it('past 32 Accept headers, the oldest is forgotten and new ones are still learned', async () => {
    const top = { query: TOP, variables: { id: boards.known } };
    const accept = (i: number) => ({ accept: `application/json, application/x-standings-${i}` });
    for (let i = 0; i <= 32; i++) await send(known, top, accept(i));
    const lane = async (headers: Record<string, string>) => {
      const before = await knownLaneCount();
      await send(known, top, headers);
      return (await knownLaneCount()) - before === 1 ? 'known' : 'apollo';
    };
    expect(await lane(accept(32))).toBe('known');
    expect(await lane(accept(0))).toBe('apollo');
  });
});
