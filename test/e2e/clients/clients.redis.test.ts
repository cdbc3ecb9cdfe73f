// Apollo Client and urql against a real server, set up as docs/clients.md shows: cache identity,
// merged pages, subscription updates landing in watched queries, and partial mutation results.
import type { ApolloClient } from '@apollo/client';
import type { Client as UrqlClient } from '@urql/core';
import { type DocumentNode, parse } from 'graphql';
import { apolloClient, type ClientApp, Recorder, urqlClient } from '../../support/clients';
import { CREATE_BOARD, createBoard, SUBMIT, submitAll, TestServer } from '../../support/harness';
import { uniqueId } from '../../support/redis';

/** What the scenarios need of a client, so that each runs against both libraries alike. */
interface ClientUnderTest {
  /** Asks the server (the answer is written to the cache). */
  query(document: DocumentNode, variables: Record<string, unknown>): Promise<any>;
  /** Answers from the cache alone. */
  cached(document: DocumentNode, variables: Record<string, unknown>): Promise<any>;
  watch(document: DocumentNode, variables: Record<string, unknown>): { results: Recorder<any>; stop(): void };
  subscribe(document: DocumentNode, variables: Record<string, unknown>): { results: Recorder<any>; stop(): void };
  /** The whole response: data and errors. */
  mutate(document: DocumentNode, variables: Record<string, unknown>): Promise<{ data: any; errors: unknown }>;
  close(): Promise<void>;
}

function apollo(url: string): ClientUnderTest {
  const { client, close }: ClientApp<ApolloClient> = apolloClient(url);
  return {
    query: async (query, variables) => (await client.query({ query, variables, fetchPolicy: 'network-only' })).data,
    cached: async (query, variables) => client.readQuery({ query, variables }),
    watch(query, variables) {
      const results = new Recorder<any>();
      const subscription = client.watchQuery({ query, variables }).subscribe((result) => result.data && results.push(result.data));
      return { results, stop: () => subscription.unsubscribe() };
    },
    subscribe(query, variables) {
      const results = new Recorder<any>();
      const subscription = client.subscribe({ query, variables }).subscribe((result) => results.push(result.data));
      return { results, stop: () => subscription.unsubscribe() };
    },
    async mutate(mutation, variables) {
      const { data, error } = await client.mutate({ mutation, variables });
      return { data, errors: error };
    },
    close,
  };
}

function urql(url: string): ClientUnderTest {
  const { client, close }: ClientApp<UrqlClient> = urqlClient(url);
  const data = async (result: Promise<{ data?: any; error?: unknown }>) => {
    const { data: answer, error } = await result;
    if (error) throw error;
    return answer;
  };
  return {
    query: (query, variables) => data(client.query(query, variables, { requestPolicy: 'network-only' }).toPromise()),
    cached: (query, variables) => data(client.query(query, variables, { requestPolicy: 'cache-only' }).toPromise()),
    watch(query, variables) {
      const results = new Recorder<any>();
      const { unsubscribe } = client.query(query, variables).subscribe((result) => result.data && results.push(result.data));
      return { results, stop: unsubscribe };
    },
    subscribe(query, variables) {
      const results = new Recorder<any>();
      const { unsubscribe } = client.subscription(query, variables).subscribe((result) => result.data && results.push(result.data));
      return { results, stop: unsubscribe };
    },
    async mutate(mutation, variables) {
      const { data: answer, error } = await client.mutation(mutation, variables).toPromise();
      return { data: answer, errors: error };
    },
    close,
  };
}

const ENTRY_ON_BOARDS = parse(`
  query ($a: ID!, $b: ID!, $player: ID!) {
    a: leaderboard(id: $a) { id entry(playerId: $player) { id playerId score rank } }
    b: leaderboard(id: $b) { id entry(playerId: $player) { id playerId score rank } }
  }
`);
const ENTRY_ON_BOARD = parse(`
  query ($board: ID!, $player: ID!) { leaderboard(id: $board) { id entry(playerId: $player) { id playerId score rank } } }
`);
const PAGE = parse(`
  query ($board: ID!, $after: String) {
    leaderboard(id: $board) {
      id
      entries(first: 3, after: $after) { edges { cursor node { id playerId score rank } } pageInfo { hasNextPage endCursor } }
    }
  }
`);
const WINDOW = 'id center { id playerId score rank } entries { id playerId score rank } totalCount';
const AROUND = parse(`query ($board: ID!, $player: ID!) { leaderboard(id: $board) { id around(playerId: $player, radius: 1) { ${WINDOW} } } }`);
const AROUND_CHANGED = parse(`
  subscription ($board: ID!, $player: ID!) { aroundChanged(leaderboardId: $board, playerId: $player, radius: 1) { ${WINDOW} } }
`);
const PAGE_FIELDS = 'totalCount entries(first: 10) { edges { cursor node { id playerId score rank } } pageInfo { hasNextPage endCursor } }';
const BOARD_PAGE = parse(`query ($board: ID!) { leaderboard(id: $board) { id ${PAGE_FIELDS} } }`);
const PERIOD_PAGE = parse(`query ($board: ID!, $of: PeriodInput) { leaderboard(id: $board) { id period(of: $of) { id kind key ${PAGE_FIELDS} } } }`);
const PERIOD_NODE = parse('query ($id: ID!) { node(id: $id) { id ... on Period { key totalCount leaderboard { id } } } }');
const DAY_MS = 24 * 3600 * 1000;
const TWO_SUBMISSIONS = parse(`
  mutation ($ok: SubmitScoreInput!, $unknown: SubmitScoreInput!) {
    ok: submitScore(input: $ok) { entry { id playerId score } changed userErrors { code field message } }
    refused: submitScore(input: $unknown) { entry { id playerId score } changed userErrors { code field message } }
  }
`);

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe.each([
  ['Apollo Client (InMemoryCache, GraphQLWsLink)', apollo],
  ['urql (graphcache, graphql-ws)', urql],
])('%s', (_name, connect) => {
  let client: ClientUnderTest;
  beforeEach(() => {
    client = connect(server.graphqlUrl);
  });
  afterEach(async () => {
    await client.close();
  });

  it('keeps one player on two boards apart', async () => {
    const [a, b] = [uniqueId('client-a'), uniqueId('client-b')];
    await createBoard(server, a);
    await createBoard(server, b);
    await submitAll(server, a, [['p3', 10], ['p1', 30]]);
    await submitAll(server, b, [['p3', 20]]);

    const both = await client.query(ENTRY_ON_BOARDS, { a, b, player: 'p3' });
    expect(both.a.entry).toMatchObject({ playerId: 'p3', score: 10, rank: 2 });
    expect(both.b.entry).toMatchObject({ playerId: 'p3', score: 20, rank: 1 });
    expect(both.a.entry.id).not.toBe(both.b.entry.id);
    // Reading board B on its own writes p3's entry there; board A's, read again from the cache, is untouched.
    await client.query(ENTRY_ON_BOARD, { board: b, player: 'p3' });
    expect((await client.cached(ENTRY_ON_BOARD, { board: a, player: 'p3' })).leaderboard.entry).toMatchObject({ score: 10, rank: 2 });
  });

  it('merges pages with the pagination policy of docs/clients.md into the board', async () => {
    const board = uniqueId('client-pages');
    await createBoard(server, board);
    await submitAll(server, board, Array.from({ length: 8 }, (_, i): [string, number] => [`p${i}`, (i * 37) % 11]));

    let after: string | null = null;
    for (;;) {
      const { leaderboard } = await client.query(PAGE, { board, after });
      if (!leaderboard.entries.pageInfo.hasNextPage) break;
      after = leaderboard.entries.pageInfo.endCursor;
    }
    const merged = (await client.cached(PAGE, { board, after: null })).leaderboard.entries.edges.map(
      (edge: { node: { playerId: string; rank: number } }) => [edge.node.playerId, edge.node.rank],
    );
    const whole = await server.data('query ($board: ID!) { leaderboard(id: $board) { entries(first: 100) { nodes { playerId rank } } } }', { board });
    expect(merged).toEqual(whole.leaderboard.entries.nodes.map((node: { playerId: string; rank: number }) => [node.playerId, node.rank]));
    expect(merged).toHaveLength(8);
  });

  it('shows a subscription update in a watched query', async () => {
    const board = uniqueId('client-live');
    await createBoard(server, board);
    await submitAll(server, board, [['a', 30], ['b', 20], ['c', 10]]);
    const watched = client.watch(AROUND, { board, player: 'b' });
    const live = client.subscribe(AROUND_CHANGED, { board, player: 'b' });
    try {
      await watched.results.until((data) => data.leaderboard?.around?.center?.score === 20);
      await live.results.until((data) => data.aroundChanged.center?.score === 20); // the snapshot: the subscription is on
      await submitAll(server, board, [['b', 40]]);
      const updated = await watched.results.until((data) => data.leaderboard.around.center.score === 40);
      expect(updated.leaderboard.around.center).toMatchObject({ playerId: 'b', rank: 1 });
      expect(updated.leaderboard.around.entries.map((entry: { playerId: string }) => entry.playerId)).toEqual(['b', 'a', 'c']);
    } finally {
      live.stop();
      watched.stop();
    }
  });

  it("keeps two periods of a board and the board itself apart, and finds a period by its Node id", async () => {
    const board = uniqueId('client-periods');
    // Seasons, so that the two periods are fixed whatever day the test runs; imports land in them.
    const now = Date.now();
    const moment = (days: number) => new Date(now + days * DAY_MS).toISOString();
    const seasons = [{ id: 's1', start: moment(-30), end: moment(-10) }, { id: 's2', start: moment(-10), end: moment(30) }];
    await server.data(CREATE_BOARD, {
      input: { id: board, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON' }], seasons } },
    });
    const imported: [string, number, number][] = [['a', 10, -20], ['b', 20, -20], ['a', 30, -5]];
    for (const [playerId, score, days] of imported) {
      await server.data(SUBMIT, { input: { leaderboardId: board, playerId, score, reachedAt: moment(days) } });
    }
    const s1 = { board, of: { kind: 'SEASON', key: 's1' } };
    const s2 = { board, of: { kind: 'SEASON', key: 's2' } };
    // Three requests, each written to the cache over the one before.
    const first = (await client.query(PERIOD_PAGE, s1)).leaderboard.period;
    const second = (await client.query(PERIOD_PAGE, s2)).leaderboard.period;
    await client.query(BOARD_PAGE, { board });
    expect(new Set([first.id, second.id, board]).size).toBe(3);

    const scores = (ranking: { totalCount: number; entries: { edges: { node: { playerId: string; score: number } }[] } }) =>
      [ranking.totalCount, ranking.entries.edges.map(({ node }) => [node.playerId, node.score])];
    expect(scores((await client.cached(PERIOD_PAGE, s1)).leaderboard.period)).toEqual([2, [['b', 20], ['a', 10]]]);
    expect(scores((await client.cached(PERIOD_PAGE, s2)).leaderboard.period)).toEqual([1, [['a', 30]]]);
    expect(scores((await client.cached(BOARD_PAGE, { board })).leaderboard)).toEqual([2, [['a', 30], ['b', 20]]]);

    const { node } = await client.query(PERIOD_NODE, { id: first.id });
    expect(node).toMatchObject({ id: first.id, key: 's1', totalCount: 2, leaderboard: { id: board } });
  });

  it('keeps the result of a mutation next to one that failed', async () => {
    const board = uniqueId('client-writes');
    await createBoard(server, board);
    const { data, errors } = await client.mutate(TWO_SUBMISSIONS, {
      ok: { leaderboardId: board, playerId: 'p', score: 5 },
      unknown: { leaderboardId: uniqueId('nowhere'), playerId: 'p', score: 5 },
    });
    expect(errors).toBeUndefined();
    expect(data.ok).toMatchObject({ entry: { playerId: 'p', score: 5 }, changed: true, userErrors: [] });
    expect(data.refused).toMatchObject({
      entry: null, changed: false, userErrors: [{ code: 'NOT_FOUND', field: ['input', 'leaderboardId'] }],
    });
  });
});
