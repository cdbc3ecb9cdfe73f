// Browsers on other origins: a preflight and a request from an allowed origin get the CORS
// headers that let the page read the answer, others get none; a WebSocket opened by a page on a
// disallowed origin is refused, while the server's own pages and non-browser clients are not concerned.
import { once } from 'node:events';
import WebSocket from 'ws';
import { authorization, TestServer } from '../support/harness';

const ALLOWED = 'https://game.example.com';
const OTHER = 'https://elsewhere.example.net';
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start(undefined, { corsOrigins: [ALLOWED, 'http://localhost:3000'] });
});
afterAll(() => server.stop());

const preflight = (origin: string) =>
  fetch(server.graphqlUrl, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

const corsHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'));

it('answers a preflight from an allowed origin with what it may send', async () => {
  const response = await preflight(ALLOWED);
  expect(response.status).toBe(204);
  expect(corsHeaders(response)).toEqual({
    'access-control-allow-origin': ALLOWED,
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': expect.stringContaining('authorization'),
    'access-control-expose-headers': expect.stringContaining('x-request-id'),
    'access-control-max-age': '600',
    vary: 'Origin',
  });
});

it('lets an allowed origin read the answer of a request with a key', async () => {
  const response = await fetch(server.graphqlUrl, {
    method: 'POST',
    headers: { origin: ALLOWED, 'content-type': 'application/json', ...authorization() },
    body: JSON.stringify({ query: '{ player(id: "a") { id } }' }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
});

it('gives another origin no CORS headers, so its browser keeps the answer from the page', async () => {
  const refused = await preflight(OTHER);
  expect(corsHeaders(refused)).toEqual({ vary: 'Origin' });
  const response = await fetch(server.graphqlUrl, {
    method: 'POST',
    headers: { origin: OTHER, 'content-type': 'application/json', ...authorization() },
    body: JSON.stringify({ query: '{ player(id: "a") { id } }' }),
  });
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
});

async function upgrade(origin?: string): Promise<'open' | number> {
  const socket = new WebSocket(server.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', origin ? { origin } : {});
  const outcome = await Promise.race([
    once(socket, 'open').then(() => 'open' as const),
    once(socket, 'unexpected-response').then(([, response]) => (response as { statusCode: number }).statusCode),
  ]);
  socket.terminate();
  return outcome;
}

it('refuses a WebSocket from a page on a disallowed origin, and admits allowed, own-origin and non-browser ones', async () => {
  expect(await upgrade(OTHER)).toBe(401);
  expect(await upgrade(ALLOWED)).toBe('open');
  expect(await upgrade(server.baseUrl)).toBe('open');
  expect(await upgrade(undefined)).toBe('open');
});
