// Apollo Client and urql against a real server, set up as the README shows: cache identity,
// merged pages, subscription updates landing in watched queries, and partial mutation results.
import type { ApolloClient } from '@apollo/client';
import type { Client as UrqlClient } from '@urql/core';
import { type DocumentNode, parse } from 'graphql';
import { apolloClient, type ClientApp, Recorder, urqlClient } from '../../support/clients';
import { createBoard, submitAll, TestServer } from '../../support/harness';
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

  it('merges pages with the README pagination policy into the board', async () => {
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
