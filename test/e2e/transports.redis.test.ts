// One corpus of operations (valid, invalid, erroring, with and without variables, each role) sent
// through Apollo's pipeline, the known-operation lane and the WebSocket: all three must give the
// same data and the same errors (message, path, code, details, outcome).
import { encodeNodeId } from '../../src/graphql/nodeIds';
import { createBrokenBoard, createBoard, submitAll, TEST_KEYS, TestServer } from '../support/harness';
import { connect, type LiveConnection } from '../support/liveClient';
import { startDedicatedRedis, uniqueId } from '../support/redis';

type Role = keyof typeof TEST_KEYS;

interface Case {
  name: string;
  /** `$board` is replaced with the board of the transport under test: mutations change it. */
  query: string;
  variables?: Record<string, unknown>;
  role: Role;
}

const PAGE = 'query ($b: ID!, $n: Int!) { leaderboard(id: $b) { id totalCount entries(first: $n) { edges { node { playerId score rank sharedRank } } } } }';

const CASES: Case[] = [
  { name: 'a read with variables', query: PAGE, variables: { b: '$board', n: 2 }, role: 'reader' },
  { name: 'a read of a missing board', query: PAGE, variables: { b: 'no-such-board', n: 2 }, role: 'reader' },
  { name: 'a read without variables', query: '{ leaderboard(id: "$board") { around(playerId: "b", radius: 1) { rank playerId } } }', role: 'reader' },
  { name: 'a bad variable', query: PAGE, variables: { b: '$board', n: 'two' }, role: 'reader' },
  { name: 'a page size out of range', query: PAGE, variables: { b: '$board', n: 5000 }, role: 'reader' },
  { name: 'an unknown field', query: '{ leaderboard(id: "$board") { nope } }', role: 'reader' },
  { name: 'a parse error', query: '{ leaderboard(', role: 'reader' },
  { name: 'two operations and no name', query: 'query A { player(id: "a") { id } } query B { player(id: "b") { id } }', role: 'reader' },
  { name: 'too many aliases', query: `{ ${Array.from({ length: 101 }, (_, i) => `a${i}: __typename`).join(' ')} }`, role: 'reader' },
  {
    name: 'a write',
    query: 'mutation ($i: SubmitScoreInput!) { submitScore(input: $i) { entry { playerId score rank } previousScore previousRank changed replayed } }',
    variables: { i: { leaderboardId: '$board', playerId: 'd', score: 25 } },
    role: 'writer',
  },
  { name: 'a write a reader may not make', query: 'mutation { removeEntry(leaderboardId: "$board", playerId: "a") { removed } }', role: 'reader' },
  { name: 'a write to a missing board', query: 'mutation { submitScore(input: { leaderboardId: "no-such-board", playerId: "a", score: 1 }) { changed } }', role: 'writer' },
  { name: 'a write with a score out of range', query: 'mutation { submitScore(input: { leaderboardId: "$board", playerId: "a", score: 1e400 }) { changed } }', role: 'writer' },
  { name: 'a profile a prefixed writer may not write', query: 'mutation { upsertPlayer(input: { id: "a", displayName: "A" }) { player { id } } }', role: 'prefixedWriter' },
  {
    name: 'Node ids in a variable that name more entries than the cost limit allows',
    query: 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on RankWindow { totalCount entries { playerId } } } }',
    variables: { ids: Array.from({ length: 300 }, (_, n) => encodeNodeId({ type: 'RankWindow', boardId: 'any-board', playerId: `p${n}`, radius: 500 })) },
    role: 'reader',
  },
  // Texts the document cache does not keep: Apollo parses them itself, the core executes them once without compiling.
  { name: 'a long text', query: `${PAGE} # ${'x'.repeat(9000)}`, variables: { b: '$board', n: 2 }, role: 'reader' },
  { name: 'a long text with a bad variable', query: `${PAGE} # ${'x'.repeat(9000)}`, variables: { b: '$board' }, role: 'reader' },
];

/** What must be the same whichever way a request came. */
function normalise(body: { data?: unknown; errors?: { message: string; path?: unknown; extensions?: Record<string, unknown> }[] }, board: string) {
  const text = JSON.stringify({
    data: body.data ?? null,
    errors: body.errors?.map(({ message, path, extensions }) => ({
      message, path, code: extensions?.code, details: extensions?.details, outcome: extensions?.outcome,
    })),
  });
  return JSON.parse(text.split(board).join('$board'));
}

const withBoard = (value: unknown, board: string) => JSON.parse(JSON.stringify(value ?? null).split('$board').join(board));

let apolloOnly: TestServer;
let known: TestServer;
const sockets: LiveConnection[] = [];

beforeAll(async () => {
  [apolloOnly, known] = await Promise.all([TestServer.start(undefined, { fastLane: false }), TestServer.start()]);
});
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await Promise.all([apolloOnly.stop(), known.stop()]);
});

/** A board in the same state for each transport, since writes change it. */
async function freshBoard(): Promise<string> {
  const board = uniqueId('transports');
  await createBoard(apolloOnly, board);
  await submitAll(apolloOnly, board, [['a', 30], ['b', 20], ['c', 20]]);
  return board;
}

async function overHttp(server: TestServer, { query, variables, role }: Case, board: string) {
  return normalise((await server.post(withBoard(query, board), withBoard(variables, board), { key: TEST_KEYS[role] })).body, board);
}

async function overWebSocket({ query, variables, role }: Case, board: string) {
  const socket = connect(known.graphqlUrl, TEST_KEYS[role]);
  sockets.push(socket);
  const message = await socket.subscribe(withBoard(query, board), withBoard(variables, board) ?? undefined).next();
  return normalise(message, board);
}

describe.each(CASES)('$name', (testCase) => {
  it('is answered alike by Apollo, by the known lane and over WebSocket', async () => {
    const [viaApollo, viaKnownFirst, viaKnownAgain, viaSocket] = [await freshBoard(), await freshBoard(), await freshBoard(), await freshBoard()];
    const expected = await overHttp(apolloOnly, testCase, viaApollo);
    // The first time through Apollo, which makes the operation known; the second on the known lane.
    expect(await overHttp(known, testCase, viaKnownFirst)).toEqual(expected);
    expect(await overHttp(known, testCase, viaKnownAgain)).toEqual(expected);
    expect(await overWebSocket(testCase, viaSocket)).toEqual(expected);
  });
});

it('masks an internal error alike on every transport', async () => {
  const broken = await createBrokenBoard(apolloOnly);
  const query = `{ leaderboard(id: "${broken}") { entries(first: 1) { edges { node { playerId } } } } }`;
  const testCase: Case = { name: 'internal', query, role: 'reader' };
  const expected = await overHttp(apolloOnly, testCase, broken);
  expect(expected.errors).toEqual([expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' })]);
  expect(await overHttp(known, testCase, broken)).toEqual(expected);
  expect(await overWebSocket(testCase, broken)).toEqual(expected);
});

describe('over WebSocket, a query or mutation', () => {
  it('is answered with one result and completed', async () => {
    const board = await freshBoard();
    const socket = connect(known.graphqlUrl, TEST_KEYS.writer);
    sockets.push(socket);
    const write = socket.subscribe('mutation ($b: ID!) { submitScore(input: { leaderboardId: $b, playerId: "z", score: 99 }) { entry { rank } } }', { b: board });
    expect(await write.nextData()).toEqual({ submitScore: { entry: { rank: 1 } } });
    await write.completion();
    expect(write.unread).toBe(0);
  });

  it('is rate-limited as an HTTP request is', async () => {
    // A Redis of its own: the shared one counts the same keys for other test files.
    const redis = await startDedicatedRedis();
    const limited = await TestServer.start(redis.url, { rateLimits: { perKey: 2, perIp: 0, windowMs: 60_000 } });
    const socket = connect(limited.graphqlUrl, TEST_KEYS.writer);
    try {
      // A subscription keeps the socket open (graphql-ws clients close an idle one, and reopening counts).
      const board = uniqueId('limited');
      await createBoard(limited, board);
      await socket.subscribe(`subscription { topChanged(leaderboardId: "${board}") { version } }`).nextData();
      // Opening the socket counted once; one query is left in the window.
      expect((await socket.subscribe('{ player(id: "a") { id } }').next()).errors).toBeUndefined();
      const refused = await socket.subscribe('{ player(id: "a") { id } }').next();
      expect(refused.errors?.[0].extensions).toEqual({
        code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number), details: { limit: 'key', requestsPerWindow: 2, windowMs: 60_000 },
      });
    } finally {
      await socket.close();
      await limited.stop();
      await redis.stop();
    }
  });
});
