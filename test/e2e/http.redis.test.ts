import { authorization, createBoard, type GraphQLResponse, TestServer } from '../support/harness';
import { uniqueId } from '../support/redis';

let server: TestServer;
const boardId = uniqueId('http');
beforeAll(async () => {
  server = await TestServer.start();
  await createBoard(server, boardId);
});
afterAll(() => server.stop());

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${server.graphqlUrl}?query=${encodeURIComponent(query)}`, { headers: { ...authorization(), ...headers } });

describe('HTTP surface', () => {
  it('serves /healthz and /readyz', async () => {
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
  });

  it('answers queries over GET when the request cannot be a cross-site one', async () => {
    const response = await get(`{ leaderboard(id: "${boardId}") { id } }`, { 'apollo-require-preflight': 'true' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { leaderboard: { id: boardId } } });
    // A GET with a key, as urql sends it (no content type, no other header): a browser would
    // have preflighted it, so it cannot be a cross-site one.
    expect((await get(`{ leaderboard(id: "${boardId}") { id } }`)).status).toBe(200);
    // Apollo's CSRF prevention: a "simple" GET (no key, no preflight header) could come from any
    // web page, and is refused before anything else is looked at.
    const simple = await fetch(`${server.graphqlUrl}?query=${encodeURIComponent(`{ leaderboard(id: "${boardId}") { id } }`)}`);
    expect([simple.status, ((await simple.json()) as GraphQLResponse).errors?.[0].message]).toEqual([400, expect.stringMatching(/Cross-Site Request Forgery/)]);
  });

  it('refuses a POST that a plain web page could send (CSRF), before looking at its key', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await fetch(server.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': contentType, ...authorization() },
        body: JSON.stringify({ query: `mutation { deleteLeaderboard(id: "${boardId}") { deleted } }` }),
      });
      expect([response.status, ((await response.json()) as GraphQLResponse).errors?.[0].extensions.code]).toEqual([400, 'BAD_REQUEST']);
    }
    expect((await server.data(`{ leaderboard(id: "${boardId}") { id } }`)).leaderboard).toEqual({ id: boardId });
  });

  it('answers a body that is not JSON, or too large, with BAD_REQUEST in JSON', async () => {
    const send = (body: string) =>
      fetch(server.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...authorization() }, body });
    for (const [body, status] of [['{"query": ', 400], ['"just a string"', 400], [JSON.stringify({ query: 'x'.repeat(1_100_000) }), 413]] as const) {
      const response = await send(body);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await response.json()) as GraphQLResponse).errors).toEqual([
        { message: expect.stringMatching(/^Invalid request body: /), extensions: { code: 'BAD_REQUEST' } },
      ]);
    }
  });

  it('refuses mutations over GET', async () => {
    const response = await get(`mutation { deleteLeaderboard(id: "${boardId}") { deleted } }`, { 'apollo-require-preflight': 'true' });
    expect(response.status).toBe(405);
    expect((await server.data(`{ leaderboard(id: "${boardId}") { id } }`)).leaderboard).toEqual({ id: boardId });
  });

  it('shows the explorer, served by Standings itself, to a browser outside production', async () => {
    const response = await fetch(server.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    // Its own page (built, or saying how to build it): nothing from Apollo's CDN.
    const page = await response.text();
    expect(page).toMatch(/explorer/);
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('allows introspection outside production', async () => {
    const data = await server.data('{ __type(name: "Entry") { fields { name } } }');
    expect(data.__type.fields.map((field: { name: string }) => field.name)).toEqual(
      expect.arrayContaining(['playerId', 'score', 'rank', 'sharedRank', 'percentile', 'reachedAt', 'leaderboard', 'player']),
    );
  });
});

describe('in production', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await TestServer.start(undefined, { nodeEnv: 'production' });
  });
  afterAll(() => production.stop());

  it('turns introspection off', async () => {
    const [error] = await production.errors('{ __schema { types { name } } }');
    expect(error.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await production.data(`{ leaderboard(id: "${boardId}") { id } }`)).leaderboard).toEqual({ id: boardId });
  });

  it('shows no landing page: a browser gets a GraphQL error, not HTML', async () => {
    const response = await fetch(production.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).not.toMatch(/<html/i);
  });

  it('shows the explorer, with introspection for its docs, only where EXPLORER turns it on', async () => {
    const withExplorer = await TestServer.start(undefined, { nodeEnv: 'production', explorer: true });
    try {
      const response = await fetch(withExplorer.graphqlUrl, { headers: { accept: 'text/html' } });
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect((await withExplorer.data('{ __type(name: "Entry") { name } }')).__type).toEqual({ name: 'Entry' });
    } finally {
      await withExplorer.stop();
    }
  });

  it('keeps CSRF prevention on for requests a web page could send (no key, no preflight header)', async () => {
    const response = await fetch(`${production.graphqlUrl}?query=${encodeURIComponent('{ leaderboards { nodes { id } } }')}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as GraphQLResponse).errors?.[0].message).toMatch(/Cross-Site Request Forgery/);
  });
});

describe('stop()', () => {
  it('finishes the request in flight, then closes the listener', async () => {
    const stopping = await TestServer.start();
    const inFlight = stopping.post(`{ leaderboard(id: "${boardId}") { id totalCount } }`);
    // The request has reached the server before stop() begins: stop waits for it.
    await new Promise<void>((resolve) => stopping.server.httpServer.once('request', () => resolve()));
    await stopping.stop();
    expect((await inFlight).body).toEqual({ data: { leaderboard: { id: boardId, totalCount: 0 } } });
    await expect(fetch(`${stopping.baseUrl}/healthz`)).rejects.toThrow();
  });
});
