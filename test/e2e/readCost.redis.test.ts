// What a read may cost (issue 30). Node ids count as the arguments they hold, in the query or in
// variables. A combined view's build is priced by the entries it reads, bounded per request
// (VIEW_ENTRIES_PER_REQUEST) and per client over the rate-limit window (RATE_LIMIT_VIEW_ENTRIES); a
// view already built, or being built for another request, is free, so crafted variants of one
// view (other weights, Node ids) pay and the shared one does not.
import { encodeNodeId } from '../../src/graphql/nodeIds';
import { CREATE_BOARD, TEST_KEYS, TestServer } from '../support/harness';
import { uniqueId } from '../support/redis';

const PLAYERS = 300;
let viewMs = 0;
let address = 0;
/** A client address of its own for each test, so that one test's spending is not another's. */
const newAddress = () => ({ 'x-forwarded-for': `10.30.0.${++address}` });
let server: TestServer;
let limited: TestServer;
beforeAll(async () => {
  [server, limited] = await Promise.all([
    // Two sources of PLAYERS entries a view, so one request may build two views, not three.
    TestServer.start(undefined, { viewClock: () => viewMs, viewEntriesPerRequest: 5 * PLAYERS }),
    TestServer.start(undefined, {
      viewClock: () => viewMs, trustProxyHops: 1,
      rateLimits: { perKey: 0, perIp: 0, windowMs: 60_000, viewEntries: 3 * 2 * PLAYERS },
    }),
  ]);
});
afterAll(() => Promise.all([server.stop(), limited.stop()]));

/** A board of PLAYERS entries that keeps ALL_TIME and DAILY (both written by each submission). */
async function board(): Promise<string> {
  const id = uniqueId('view-cost');
  await server.data(CREATE_BOARD, { input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 2 }] } } });
  const inputs = Array.from({ length: PLAYERS }, (_, i) => ({ leaderboardId: id, playerId: `p${i}`, score: i }));
  await server.data('mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { userErrors { code } } }', { inputs });
  return id;
}

describe('Node ids', () => {
  const WINDOWS = 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on RankWindow { totalCount entries { playerId score rank } } } }';
  const windows = (id: string, count: number) =>
    Array.from({ length: count }, (_, n) => encodeNodeId({ type: 'RankWindow', boardId: id, playerId: `p${n}`, radius: 500 }));

  it('in variables cost what they name: windows of radius 500 past the cost limit are refused before any read', async () => {
    const id = await board();
    for (const attempt of [1, 2]) {
      // The second time the operation is a known one, served without Apollo: the same refusal.
      const { body } = await server.post(WINDOWS, { ids: windows(id, 300) }, { key: TEST_KEYS.reader });
      expect({ attempt, data: body.data ?? null }).toEqual({ attempt, data: null });
      expect(body.errors).toEqual([expect.objectContaining({
        extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED', details: { limit: 'cost', maximum: 20_000, found: 1 + 300 * 1001 * 5 } }),
      })]);
    }
    const { body } = await server.post(WINDOWS, { ids: windows(id, 3) }, { key: TEST_KEYS.reader });
    expect(body.data.nodes.map((window: { totalCount: number; entries: unknown[] }) => [window.totalCount, window.entries.length])).toEqual(Array(3).fill([PLAYERS, PLAYERS]));
  });
});

const sources = (id: string, weight: number) => `[{ leaderboardId: "${id}", period: { kind: ALL_TIME } }, { leaderboardId: "${id}", period: { kind: DAILY }, weight: ${weight} }]`;

it('refuses the views one request builds past VIEW_ENTRIES_PER_REQUEST, naming the limit, and builds the others', async () => {
  const id = await board();
  viewMs += 60_000;
  const { body } = await server.post(`{
    a: combined(sources: ${sources(id, 1)}) { totalCount }
    b: combined(sources: ${sources(id, 2)}) { totalCount }
    c: combined(sources: ${sources(id, 3)}) { totalCount }
  }`);
  const built = Object.values(body.data ?? {}).filter((view) => view !== null);
  expect(built).toEqual([{ totalCount: PLAYERS }, { totalCount: PLAYERS }]);
  expect(body.errors).toHaveLength(1);
  expect(body.errors![0].extensions).toMatchObject({
    code: 'BAD_REQUEST', details: { limit: 'viewEntries', maximum: 5 * PLAYERS, found: 6 * PLAYERS },
  });
});

it('prices views that Node ids name as the same views named by `combined`', async () => {
  const id = await board();
  viewMs += 60_000;
  const today = (await server.data(`{ leaderboard(id: "${id}") { periods(kind: DAILY) { key } } }`)).leaderboard.periods[0].key;
  const ids = [1, 2, 3, 4].map((weight) => encodeNodeId({
    type: 'CombinedView',
    view: { aggregate: 'SUM', sources: [{ boardId: id, kind: 'ALL_TIME', key: 'all', weight: 1 }, { boardId: id, kind: 'DAILY', key: today, weight }] },
  }));
  const { body } = await server.post('query ($ids: [ID!]!) { nodes(ids: $ids) { ... on CombinedView { totalCount } } }', { ids });
  expect(body.data.nodes.filter((view: unknown) => view !== null)).toHaveLength(2);
  expect(body.errors!.map((error) => error.extensions.details?.limit)).toEqual(['viewEntries', 'viewEntries']);
});

it('charges a build to the client that started it, and a view already built to nobody', async () => {
  const id = await board();
  viewMs += 60_000;
  const reader = newAddress();
  const read = (weight: number, headers = reader) =>
    limited.post(`{ combined(sources: ${sources(id, weight)}) { totalCount } }`, undefined, { key: TEST_KEYS.reader, headers });
  // Three builds of 2 x PLAYERS entries use up the window's allowance...
  for (const weight of [1, 2, 3]) expect((await read(weight)).body.data.combined).toEqual({ totalCount: PLAYERS });
  // ...while reading a view that is still fresh costs nothing.
  expect((await read(1)).body.data.combined).toEqual({ totalCount: PLAYERS });
  const refused = await read(4);
  expect(refused.status).toBe(200);
  expect(refused.body.data.combined).toBeNull();
  expect(refused.body.errors![0].extensions).toMatchObject({
    code: 'RATE_LIMITED', details: { limit: 'view-ip', entriesPerWindow: 6 * PLAYERS },
  });
  expect(refused.body.errors![0].extensions.retryAfterSeconds).toBeGreaterThan(0);
  // Another address has its own allowance, and the view this one could not build is not there.
  expect((await read(4, newAddress())).body.data.combined).toEqual({ totalCount: PLAYERS });
});

it('lets many requests share one build of a view, however many ask at once', async () => {
  const id = await board();
  viewMs += 60_000;
  const reader = newAddress();
  const answers = await Promise.all(Array.from({ length: 8 }, () =>
    limited.post(`{ combined(sources: ${sources(id, 7)}) { totalCount } }`, undefined, { key: TEST_KEYS.reader, headers: reader })));
  expect(answers.map(({ body }) => body.data.combined)).toEqual(Array(8).fill({ totalCount: PLAYERS }));
  // One build charged: two more fit in the allowance of three.
  for (const weight of [8, 9]) {
    const { body } = await limited.post(`{ combined(sources: ${sources(id, weight)}) { totalCount } }`, undefined, { key: TEST_KEYS.reader, headers: reader });
    expect(body.data.combined).toEqual({ totalCount: PLAYERS });
  }
});
