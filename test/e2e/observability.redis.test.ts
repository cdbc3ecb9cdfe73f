// Prometheus metrics at /metrics, and JSON logs that carry the request id (x-request-id in and out).
import { once } from 'node:events';
import * as net from 'node:net';
import { Writable } from 'node:stream';
import type pino from 'pino';
import { createLogger } from '../../src/server/logger';
import { uniqueId } from '../support/redis';
import { createBoard, createBrokenBoard, SUBMIT, TestServer } from '../support/harness';
import { connect } from '../support/liveClient';

/** The JSON lines the server's pino logger wrote. */
class LogLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
    done();
  }
}

let server: TestServer<pino.Logger>;
const log = new LogLines();
const boardId = uniqueId('observed');
beforeAll(async () => {
  server = await TestServer.start(undefined, { logger: createLogger('debug', log) });
  await createBoard(server, boardId);
});
afterAll(() => server.stop());

/** One sample of /metrics, e.g. value('standings_graphql_errors_total', { code: 'UNAUTHENTICATED' }). */
async function metric(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match && match[1] === name && wanted.every((pair) => (match[2] ?? '').split(',').includes(pair))) return Number(match[3]);
  }
  return undefined;
}

/** Polls until `done` (the server notices a closed subscription asynchronously); fails after 5 s. */
async function waitUntil(done: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await done()); ) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('/metrics', () => {
  it('serves Prometheus text with the process metrics', async () => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await metric('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts and times operations by type and root field', async () => {
    const labels = { type: 'mutation', field: 'submitScore' };
    const before = (await metric('standings_graphql_operation_duration_seconds_count', labels)) ?? 0;
    await server.data(SUBMIT, { input: { leaderboardId: boardId, playerId: 'p', score: 1 } });
    await server.data(SUBMIT, { input: { leaderboardId: boardId, playerId: 'q', score: 2 } });
    expect(await metric('standings_graphql_operation_duration_seconds_count', labels)).toBe(before + 2);
    expect(await metric('standings_graphql_operation_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 2);
    // Several root fields are one series, whatever the client names the operation.
    await server.data(`query Anything { a: leaderboard(id: "${boardId}") { id } leaderboards { nodes { id } } }`);
    expect(await metric('standings_graphql_operation_duration_seconds_count', { type: 'query', field: 'multiple' })).toBeGreaterThanOrEqual(1);
  });

  it('counts errors by code, including requests refused as a whole', async () => {
    const count = async (code: string) => (await metric('standings_graphql_errors_total', { code })) ?? 0;
    const before = { auth: await count('UNAUTHENTICATED'), input: await count('BAD_USER_INPUT'), body: await count('BAD_REQUEST') };
    await server.post('{ leaderboards { nodes { id } } }', undefined, { key: null });
    await server.post('{ leaderboard(id: "has space") { id } }');
    await fetch(server.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect({ auth: await count('UNAUTHENTICATED'), input: await count('BAD_USER_INPUT'), body: await count('BAD_REQUEST') })
      .toEqual({ auth: before.auth + 1, input: before.input + 1, body: before.body + 1 });
  });

  it('counts userErrors by mutation field and code, apart from GraphQL errors', async () => {
    const labels = { field: 'submitScore', code: 'NOT_FOUND' };
    const before = (await metric('standings_graphql_user_errors_total', labels)) ?? 0;
    const errorsBefore = (await metric('standings_graphql_errors_total', { code: 'NOT_FOUND' })) ?? 0;
    const missing = uniqueId('missing');
    const refused = await server.userErrors(SUBMIT, { input: { leaderboardId: missing, playerId: 'p', score: 1 } });
    expect(refused.map((error) => error.code)).toEqual(['NOT_FOUND']);
    expect(await metric('standings_graphql_user_errors_total', labels)).toBe(before + 1);
    expect((await metric('standings_graphql_errors_total', { code: 'NOT_FOUND' })) ?? 0).toBe(errorsBefore);
  });

  it('counts a client that goes away in the middle of its body as a bad request, and logs no error', async () => {
    const count = async () => (await metric('standings_graphql_errors_total', { code: 'BAD_REQUEST' })) ?? 0;
    const before = await count();
    const linesBefore = log.lines.length;
    const { hostname, port } = new URL(server.baseUrl);
    const socket = net.connect(Number(port), hostname);
    await once(socket, 'connect');
    const arrived = once(server.server.httpServer, 'request');
    socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":');
    await arrived; // the server has the headers and is reading the body
    socket.destroy();
    await waitUntil(async () => (await count()) === before + 1);
    expect(log.lines.slice(linesBefore).filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
  });

  it('times Redis commands', async () => {
    await server.data(`{ leaderboard(id: "${boardId}") { totalCount } }`);
    expect(await metric('standings_redis_command_duration_seconds_count', { command: 'zcard', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(await metric('standings_redis_command_duration_seconds_count', { command: 'evalsha', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  });

  it('gauges the subscriptions open over WebSocket', async () => {
    const live = connect(server.graphqlUrl);
    try {
      const subscriptions = [1, 2].map(() => live.subscribe(`subscription { topChanged(leaderboardId: "${boardId}") { version } }`));
      await Promise.all(subscriptions.map((subscription) => subscription.nextData()));
      expect(await metric('standings_active_subscriptions')).toBe(2);
      subscriptions[0].stop();
      await waitUntil(async () => (await metric('standings_active_subscriptions')) === 1);
    } finally {
      await live.close();
    }
    await waitUntil(async () => (await metric('standings_active_subscriptions')) === 0);
  });
});

describe('request ids and logs', () => {
  const idOf = async (headers: Record<string, string> = {}) =>
    (await server.post(`{ leaderboard(id: "${boardId}") { id } }`, undefined, { headers })).headers.get('x-request-id');

  it('returns the caller\'s x-request-id, or a new one when there is none or it is not a plausible id', async () => {
    expect(await idOf({ 'x-request-id': 'edge-7f3a:42' })).toBe('edge-7f3a:42');
    const fresh = [
      await idOf(), await idOf({ 'x-request-id': 'x'.repeat(129) }), await idOf({ 'x-request-id': 'two words' }),
      (await fetch(`${server.baseUrl}/healthz`)).headers.get('x-request-id'),
    ];
    // This process' prefix and a counter: each new one differs, and is itself a plausible id.
    for (const id of fresh) expect(id).toMatch(/^[0-9a-f]{16}-[0-9a-f]+$/);
    expect(new Set(fresh).size).toBe(fresh.length);
    expect(await idOf({ 'x-request-id': fresh[0]! })).toBe(fresh[0]);
  });

  it('writes JSON lines, and every line logged while handling a request carries its id', async () => {
    // An unexpected failure inside a resolver is logged from deep within the request.
    const broken = await createBrokenBoard(server);
    await server.post(`{ leaderboard(id: "${broken}") { entries { totalCount } } }`, undefined, { headers: { 'x-request-id': 'trace-broken-1' } });

    const lines = log.lines.filter((line) => line.requestId === 'trace-broken-1');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', service: 'standings', msg: expect.stringMatching(/^Internal error at leaderboard\.entries: .*WRONGTYPE/s) }),
      expect.objectContaining({ level: 'debug', msg: 'request', method: 'POST', path: '/graphql', status: 200, durationMs: expect.any(Number) }),
    ]);
    expect(lines[0].time).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });
});
