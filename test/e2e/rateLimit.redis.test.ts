// Rate limits per key and per client address, counted in Redis: they hold across instances.
import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { CloseCode } from 'graphql-ws';
import type Redis from 'ioredis';
import WebSocket from 'ws';
import { hashKey } from '../../src/server/auth/apiKeys';
import { CLOSE_RATE_LIMITED } from '../../src/server/websocket';
import { rateLimitKey } from '../../src/store/keys';
import { newTestClient, uniqueId } from '../support/redis';
import { createBoard, type GraphQLResponse, SUBMIT, TEST_KEYS, TestServer } from '../support/harness';

const LIMITS = { perKey: 5, perIp: 3, windowMs: 60_000 };
let instanceA: TestServer;
let instanceB: TestServer;
let redis: Redis;
const boardId = uniqueId('limits');
// Addresses from TEST-NET-3 (RFC 5737), only ever written into X-Forwarded-For: each test counts its own.
let nextAddress = 1;
const address = () => `203.0.113.${nextAddress++}`;

beforeAll(async () => {
  redis = newTestClient();
  // Both instances believe one proxy hop, so tests choose the client address with X-Forwarded-For.
  [instanceA, instanceB] = await Promise.all([
    TestServer.start(undefined, { rateLimits: LIMITS, trustProxyHops: 1 }),
    TestServer.start(undefined, { rateLimits: LIMITS, trustProxyHops: 1, anonymousReads: true }),
  ]);
  await createBoard(instanceA, boardId);
});
afterAll(async () => {
  await Promise.all([instanceA.stop(), instanceB.stop()]);
  await redis.quit();
});

const keyCounter = (key: string) => rateLimitKey('key', hashKey(key).toString('hex').slice(0, 12));
// Every test starts the keys' windows afresh (the harness' keys are the same in every test file,
// but only this file's servers count requests).
beforeEach(() => redis.del(...Object.values(TEST_KEYS).map(keyCounter)));

const READ = `{ leaderboard(id: "${boardId}") { id } }`;

it('counts a key across instances and answers 429 with a retry hint once it is used up', async () => {
  const from = { 'x-forwarded-for': address() };
  for (let i = 0; i < LIMITS.perKey; i++) {
    const server = i % 2 ? instanceB : instanceA;
    const { status } = await server.post(SUBMIT, { input: { leaderboardId: boardId, playerId: `p${i}`, score: i } }, { key: TEST_KEYS.writer, headers: from });
    expect(status).toBe(200);
  }
  const { status, body, headers } = await instanceB.post(
    SUBMIT, { input: { leaderboardId: boardId, playerId: 'late', score: 1 } }, { key: TEST_KEYS.writer, headers: from },
  );
  expect(status).toBe(429);
  const [error] = body.errors!;
  expect(error.extensions).toEqual({
    code: 'RATE_LIMITED',
    retryAfterSeconds: expect.any(Number),
    details: { limit: 'key', requestsPerWindow: LIMITS.perKey, windowMs: LIMITS.windowMs },
  });
  expect(error.extensions.retryAfterSeconds).toBeGreaterThan(0);
  expect(error.extensions.retryAfterSeconds).toBeLessThanOrEqual(60);
  expect(headers.get('retry-after')).toBe(String(error.extensions.retryAfterSeconds));
  // The refused write did not happen; other keys are not affected.
  expect((await instanceA.data(`{ leaderboard(id: "${boardId}") { entry(playerId: "late") { score } } }`)).leaderboard.entry).toBeNull();
  expect((await instanceA.post(READ, undefined, { key: TEST_KEYS.reader, headers: { 'x-forwarded-for': address() } })).status).toBe(200);
});

it('counts readers and anonymous clients per address too, but not writers', async () => {
  const crowded = { 'x-forwarded-for': address() };
  const statuses: number[] = [];
  for (let i = 0; i <= LIMITS.perIp; i++) {
    // Anonymous (instance B allows it) and keyed reads from one address share its count.
    const key = i % 2 ? TEST_KEYS.reader : null;
    statuses.push((await instanceB.post(READ, undefined, { key, headers: crowded })).status);
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
  const { body } = await instanceA.post(READ, undefined, { key: TEST_KEYS.reader, headers: crowded });
  expect(body.errors?.[0].extensions.details).toEqual({ limit: 'ip', requestsPerWindow: LIMITS.perIp, windowMs: LIMITS.windowMs });

  // Another address is unaffected, and so is a writer from the crowded one (limited per key only).
  expect((await instanceA.post(READ, undefined, { key: TEST_KEYS.reader, headers: { 'x-forwarded-for': address() } })).status).toBe(200);
  expect((await instanceA.post(READ, undefined, { key: TEST_KEYS.writer, headers: crowded })).status).toBe(200);
});

it('counts requests refused for their key against their address, so guessing keys is limited too', async () => {
  const guesser = { 'x-forwarded-for': address() };
  const statuses: number[] = [];
  for (let i = 0; i <= LIMITS.perIp; i++) {
    // Instance A wants a key: no key and a wrong one are refused (401) until the address is used up.
    const key = i % 2 ? `wrong-key-${'x'.repeat(16)}-${i}` : null;
    statuses.push((await instanceA.post(READ, undefined, { key, headers: guesser })).status);
  }
  expect(statuses).toEqual([401, 401, 401, 429]);
  // A right key from that address is limited by the same count: it is a reader's.
  expect((await instanceA.post(READ, undefined, { key: TEST_KEYS.reader, headers: guesser })).status).toBe(429);
});

it('takes the client address from the hop the proxy wrote, not from what the client claims', async () => {
  const real = address();
  const statuses: number[] = [];
  for (let i = 0; i <= LIMITS.perIp; i++) {
    // A client rotating a forged first entry still arrives from the same address.
    const headers = { 'x-forwarded-for': `${address()}, ${real}` };
    statuses.push((await instanceA.post(READ, undefined, { key: TEST_KEYS.reader, headers })).status);
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
});

it('never counts a reader key as such: one client past its address\'s limit leaves the key to every other', async () => {
  const greedy = { 'x-forwarded-for': address() };
  const statuses: number[] = [];
  for (let i = 0; i < 3 * LIMITS.perKey; i++) statuses.push((await instanceA.post(READ, undefined, { key: TEST_KEYS.reader, headers: greedy })).status);
  expect(statuses.filter((status) => status === 429)).toHaveLength(3 * LIMITS.perKey - LIMITS.perIp);
  expect(await redis.exists(keyCounter(TEST_KEYS.reader))).toBe(0);
  expect((await instanceB.post(READ, undefined, { key: TEST_KEYS.reader, headers: { 'x-forwarded-for': address() } })).status).toBe(200);
});

it('starts a new window when the old one ends', async () => {
  const short = await TestServer.start(undefined, { rateLimits: { perKey: 1, perIp: 0, windowMs: 300 } });
  try {
    expect((await short.post(READ, undefined, { key: TEST_KEYS.writer })).status).toBe(200);
    const refused = await short.post(READ, undefined, { key: TEST_KEYS.writer });
    expect([refused.status, refused.body.errors?.[0].extensions.retryAfterSeconds]).toEqual([429, 1]);
    await delay(350);
    expect((await short.post(READ, undefined, { key: TEST_KEYS.writer })).status).toBe(200);
  } finally {
    await short.stop();
  }
});

/** An upgrade to graphql-ws from `headers`: the open socket, or the HTTP answer that refused it. */
function upgrade(server: TestServer, headers: Record<string, string>): Promise<WebSocket | Refusal> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(server.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.once('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(body) }));
    });
  });
}
interface Refusal {
  status: number;
  headers: IncomingHttpHeaders;
  body: GraphQLResponse;
}

/** Sends connection_init with `key`: 'acknowledged', or the close code and reason. */
async function init(socket: WebSocket, key: string): Promise<string> {
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } }));
  return Promise.race([
    once(socket, 'close').then(([code, reason]) => `${code} ${reason}`),
    once(socket, 'message').then(([data]) => (JSON.parse(String(data)).type === 'connection_ack' ? 'acknowledged' : String(data))),
  ]);
}

const expectIpRefusal = (refusal: WebSocket | Refusal) => {
  expect(refusal).not.toBeInstanceOf(WebSocket);
  const { status, headers, body } = refusal as Refusal;
  expect(status).toBe(429);
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(body.errors).toEqual([{
    message: expect.stringMatching(/^Too many requests: retry in \d+ s$/),
    extensions: {
      code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number),
      details: { limit: 'ip', requestsPerWindow: LIMITS.perIp, windowMs: LIMITS.windowMs },
    },
  }]);
  expect(headers['retry-after']).toBe(String(body.errors![0].extensions.retryAfterSeconds));
};

/** As many upgrades from `from` as the address may make, each admitted (and into `opened`); with `key`, each sends connection_init with it. */
async function upgradeAll(from: Record<string, string>, opened: WebSocket[], key?: string): Promise<void> {
  for (let i = 0; i < LIMITS.perIp; i++) {
    const socket = await upgrade(instanceA, from);
    expect(socket).toBeInstanceOf(WebSocket);
    opened.push(socket as WebSocket);
    if (key !== undefined) expect(await init(socket as WebSocket, key)).toBe('acknowledged');
  }
}

it('counts each WebSocket connection once against its address, at its upgrade, and refuses one over the limit with 429', async () => {
  const from = { 'x-forwarded-for': address() };
  const opened: WebSocket[] = [];
  try {
    // connection_init counts the key, not the address again: every connection within the limit is admitted.
    await upgradeAll(from, opened, TEST_KEYS.reader);
    expectIpRefusal(await upgrade(instanceB, from));
  } finally {
    for (const socket of opened) socket.close();
  }
});

it('counts WebSocket upgrades that never send connection_init', async () => {
  const from = { 'x-forwarded-for': address() };
  const opened: WebSocket[] = [];
  try {
    await upgradeAll(from, opened);
    expectIpRefusal(await upgrade(instanceA, from));
    // Requests from the address share the count.
    expect((await instanceB.post(READ, undefined, { key: TEST_KEYS.reader, headers: from })).status).toBe(429);
    // A backend showing its writer key on the upgrade is counted per key only, as over HTTP.
    const writer = await upgrade(instanceA, { ...from, authorization: `Bearer ${TEST_KEYS.writer}` });
    expect(writer).toBeInstanceOf(WebSocket);
    opened.push(writer as WebSocket);
    expect(await init(writer as WebSocket, TEST_KEYS.writer)).toBe('acknowledged');
  } finally {
    for (const socket of opened) socket.close();
  }
});

it('counts a WebSocket connection against its key at connection_init, and closes one over the limit with 4029 and a retry hint', async () => {
  const outcomes = [];
  for (let i = 0; i <= LIMITS.perKey; i++) {
    // From addresses of their own: only the key's count is used up.
    const socket = (await upgrade(instanceA, { 'x-forwarded-for': address() })) as WebSocket;
    outcomes.push(await init(socket, TEST_KEYS.writer));
    socket.close();
  }
  expect(outcomes.slice(0, LIMITS.perKey)).toEqual(Array(LIMITS.perKey).fill('acknowledged'));
  expect(outcomes[LIMITS.perKey]).toMatch(/^4029 RATE_LIMITED: retry in \d+ s$/);
  // Not a code of graphql-ws' own (it closes with 4429 for a second connection_init): a client can tell them apart.
  expect(Object.values(CloseCode)).not.toContain(CLOSE_RATE_LIMITED);
});
