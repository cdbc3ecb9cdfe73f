// The real entry point in a child process: configuration, the Redis wait, listening, signals.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Redis from 'ioredis';
import WebSocket from 'ws';
import { testRedisUrl, uniqueId } from '../support/redis';
import { runMain as run } from '../support/mainProcess';
import { freePort } from '../../src/dev/managedRedis';

/** A port nothing listens on: the OS hands it out, and it is closed again at once. */
const deadPort = freePort;

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});
const started = (env: Record<string, string>) => {
  const launched = run(env);
  running.add(launched.child);
  return launched;
};

it('starts on REDIS_URL, prints its URL, serves, and stops cleanly on SIGTERM', async () => {
  const server = started({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'test' });
  const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ leaderboard(id: "none") { id } }' }),
  });
  expect(await response.json()).toEqual({ data: { leaderboard: null } });
  expect((await fetch(url.replace('/graphql', '/readyz'))).status).toBe(200);

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  expect(server.messages().slice(-2)).toEqual(['SIGTERM: finishing in-flight requests, then stopping', 'Stopped']);
});

const post = (url: string, query: string, key?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query }),
  }).then((response) => response.json());

it('on SIGTERM, closes WebSockets with 1001 Going away', async () => {
  const key = 'main-test-reader-key-1';
  const server = started({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'test', STANDINGS_API_KEYS: `reader:${key}` });
  const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
  const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws');
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } }));
  expect(JSON.parse(String((await once(socket, 'message'))[0])).type).toBe('connection_ack');
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `subscription { topChanged(leaderboardId: "${uniqueId('ws')}") { version } }` } }));
  expect(JSON.parse(String((await once(socket, 'message'))[0]))).toMatchObject({ id: '1', type: 'next' });

  const closed = once(socket, 'close');
  server.child.kill('SIGTERM');
  const [code, reason] = await closed;
  expect([code, String(reason)]).toEqual([1001, 'Going away']);
  expect(await server.exited).toBe(0);
});

it('in development without keys, prints an admin key for this run instead of running open', async () => {
  const server = started({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'development' });
  const [, key] = await server.waitFor(/this run's admin key is (\S+) /);
  const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
  const create = `mutation { createLeaderboard(input: { id: "${uniqueId('dev-key')}", sortOrder: DESCENDING, updatePolicy: BEST }) { leaderboard { id } } }`;

  expect(await post(url, create)).toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' } }] });
  expect(await post(url, create, key)).toMatchObject({ data: { createLeaderboard: { leaderboard: { id: expect.any(String) } } } });
});

it('on SIGTERM, cuts a request that outlives SHUTDOWN_GRACE_MS and exits within it', async () => {
  const server = started({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'test', SHUTDOWN_GRACE_MS: '1000' });
  const [, port] = await server.waitFor(/ready at http:\/\/127\.0\.0\.1:(\d+)\/graphql/);
  // A request whose body never finishes arriving stays in flight until the server gives up on it.
  const socket = net.connect(Number(port), '127.0.0.1');
  const closed = once(socket, 'close');
  socket.on('error', () => {}); // the reset is what this test expects
  await once(socket, 'connect');
  socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":');
  await delay(200); // loopback: time enough for the server to have read the headers

  const signalled = Date.now();
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  // It waited for the request (3/4 of the grace period; the rest is for closing Redis), then no longer.
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(700);
  expect(Date.now() - signalled).toBeLessThan(1_500);
  await closed;
  expect(server.messages().slice(-1)).toEqual(['Stopped']);
});

it('starts its own Redis when REDIS_URL is unset, and stops it again', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-main-'));
  try {
    const key = 'main-test-admin-key-1';
    const server = started({
      PORT: '0', NODE_ENV: 'test', REDIS_DATA_DIR: dataDir, REDIS_APPENDFSYNC: 'always', STANDINGS_API_KEYS: `admin:${key}`,
    });
    const [, redisUrl] = await server.waitFor(/started redis-server at (redis:\/\/\S+) with data in /);
    const redis = new Redis(redisUrl);
    expect(await redis.config('GET', 'appendfsync')).toEqual(['appendfsync', 'always']);
    await redis.quit();
    const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
    const created = await post(url, 'mutation { createLeaderboard(input: { id: "dev", sortOrder: DESCENDING, updatePolicy: BEST }) { leaderboard { id } } }', key);
    expect(created).toEqual({ data: { createLeaderboard: { leaderboard: { id: 'dev' } } } });

    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    // The data survives in the append-only file; the server recorded in the data dir is gone.
    expect(fs.readdirSync(dataDir)).toContain('appendonlydir');
    expect(fs.existsSync(path.join(dataDir, 'managed-redis.json'))).toBe(false);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('stops the Redis it started when a SIGTERM comes while it is still starting', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-main-'));
  try {
    const server = started({ PORT: '0', NODE_ENV: 'test', REDIS_DATA_DIR: dataDir, STANDINGS_API_KEYS: 'admin:main-test-admin-key-2' });
    const [, redisUrl] = await server.waitFor(/started redis-server at (redis:\/\/\S+) with data in /);
    const { pid } = JSON.parse(fs.readFileSync(path.join(dataDir, 'managed-redis.json'), 'utf8')) as { pid: number };
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(128 + os.constants.signals.SIGTERM);
    expect(server.messages()).toContain('SIGTERM while starting: stopping');
    expect(server.output()).not.toMatch(/ready at/);
    // SIGTERM is Redis' graceful stop: wait for it to finish, then nothing answers on its port.
    for (let alive = true; alive; await delay(20)) {
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
    }
    const socket = net.connect(Number(new URL(redisUrl).port), '127.0.0.1');
    const [error] = (await once(socket, 'error')) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('fails start-up with a clear message when Redis does not answer, without listening', async () => {
  const server = started({ REDIS_URL: `redis://127.0.0.1:${await deadPort()}`, REDIS_READY_TIMEOUT_MS: '300', PORT: '0' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toMatch(/Standings failed to start: Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer PING within 300 ms/);
  expect(server.output()).not.toMatch(/ready at/);
});

it('fails start-up on a Redis Cluster that does not answer, naming it without its password', async () => {
  const server = started({
    REDIS_CLUSTER_NODES: `127.0.0.1:${await deadPort()}`, REDIS_PASSWORD: 'never-printed', REDIS_READY_TIMEOUT_MS: '300', PORT: '0',
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toMatch(/Standings failed to start: Redis Cluster at 127\.0\.0\.1:\d+ did not answer PING within 300 ms/);
  // Nor did it start a Redis of its own instead.
  expect(server.output()).not.toMatch(/never-printed|started redis-server|ready at/);
});

it('refuses invalid configuration before doing anything', async () => {
  const server = started({ PORT: 'eighty', NODE_ENV: 'staging' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toBe(
    'Invalid configuration:\n' +
      '  - NODE_ENV must be one of development, production, test, got "staging"\n' +
      '  - PORT must be an integer from 0 to 65535, got "eighty"\n',
  );
});

it('refuses production without a Redis rather than starting one of its own', async () => {
  const server = started({ NODE_ENV: 'production', STANDINGS_API_KEYS: 'admin:main-test-admin-key-1', PORT: '0' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toBe(
    'Invalid configuration:\n' +
      '  - NODE_ENV=production needs a Redis: set REDIS_URL (one server), REDIS_CLUSTER_NODES (a Redis Cluster) or REDIS_SENTINELS (Sentinel)\n',
  );
});
