// STANDINGS_WORKERS: the real entry point with two workers sharing one port.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/dev/managedRedis';
import { WORKER_HEADER } from '../../src/server/workers';
import { runMain, type Run } from '../support/mainProcess';
import { testRedisUrl, uniqueId } from '../support/redis';

// Each worker compiles the server through ts-node on its own, on a machine whose cores others share.
jest.setTimeout(180_000);

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});
const started = (env: Record<string, string>): Run => {
  const launched = runMain({ STANDINGS_WORKERS: '2', PORT: '0', NODE_ENV: 'test', ...env });
  running.add(launched.child);
  return launched;
};

interface Reply {
  worker: string;
  status: number;
  body: string;
}

/** One request on a connection of its own, so that the primary hands each to the next worker. */
function request(url: string, options: { method?: string; body?: string; key?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'GET',
      agent: false,
      headers: {
        connection: 'close',
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      },
    }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ worker: String(res.headers[WORKER_HEADER]), status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Requests until `wanted` workers have answered, bounded; resolves with every reply. */
async function untilServedBy(wanted: (seen: Set<string>) => boolean, send: () => Promise<Reply>): Promise<Reply[]> {
  const replies: Reply[] = [];
  while (!wanted(new Set(replies.map(({ worker }) => worker)))) {
    if (replies.length === 50) throw new Error(`50 requests, served by ${[...new Set(replies.map(({ worker }) => worker))]} only`);
    replies.push(await send());
  }
  return replies;
}

/** The processes whose parent is `pid` (Linux' /proc: pgrep is not on every CI image). */
function childrenOf(pid: number): number[] {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false; // exited meanwhile
    }
  }).map(Number);
}

const metric = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);

it('serves the port from two workers, adds their metrics up, replaces a crashed worker and stops all of them on SIGTERM', async () => {
  const server = started({ REDIS_URL: testRedisUrl() });
  const [, base] = await server.waitFor(/ready at (http:\/\/\S+)\/graphql \(NODE_ENV=test, 2 workers\)/);

  // Each 404 counts one NOT_FOUND error in the worker that answered it.
  const misses = await untilServedBy((seen) => seen.has('1') && seen.has('2'), () => request(`${base}/nowhere`));
  expect(misses.every(({ status }) => status === 404)).toBe(true);
  const metrics = await request(`${base}/metrics`);
  expect(metric(metrics.body, 'standings_graphql_errors_total{code="NOT_FOUND"}')).toBe(misses.length);

  const query = JSON.stringify({ query: `{ leaderboard(id: "${uniqueId('workers')}") { id } }` });
  const answers = await untilServedBy((seen) => seen.size === 2, () => request(`${base}/graphql`, { method: 'POST', body: query }));
  expect(answers.map(({ body }) => JSON.parse(body))).toEqual(answers.map(() => ({ data: { leaderboard: null } })));
  // The series src/server/metrics.ts makes itself (BoundMetric) add up across workers as prom-client's do.
  const timed = await request(`${base}/metrics`);
  expect(metric(timed.body, 'standings_graphql_operation_duration_seconds_count{type="query",field="leaderboard"}')).toBe(answers.length);
  expect(metric(timed.body, 'standings_graphql_operation_duration_seconds_bucket{le="5",type="query",field="leaderboard"}')).toBe(answers.length);

  const [victim] = childrenOf(server.child.pid!);
  process.kill(victim, 'SIGKILL');
  await server.waitFor(/Worker \d \(pid \d+\) exited \(SIGKILL\): starting another/);
  await server.waitFor(/Worker 3 \(pid \d+\) is serving/);
  await untilServedBy((seen) => seen.has('3'), () => request(`${base}/healthz`));

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  expect(server.messages().filter((message) => message === 'Stopped')).toHaveLength(2);
});

it('exits 1 when the workers cannot start', async () => {
  const server = started({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_READY_TIMEOUT_MS: '200' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toMatch(/did not answer PING within 200 ms/);
  expect(server.output()).toMatch(/before it listened .*Standings failed to start/);
});

it('in development, starts one Redis and one admin key for all workers, and stops that Redis after them', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-workers-'));
  try {
    const server = started({ NODE_ENV: 'development', REDIS_DATA_DIR: dataDir });
    const [, key] = await server.waitFor(/this run's admin key is (\S+) /);
    const [, base] = await server.waitFor(/ready at (http:\/\/\S+)\/graphql .*2 workers/);
    const create = () => JSON.stringify({
      query: `mutation { createLeaderboard(input: { id: "${uniqueId('dev')}", sortOrder: DESCENDING, updatePolicy: BEST }) { leaderboard { id } userErrors { code } } }`,
    });
    const created = await untilServedBy((seen) => seen.size === 2, () => request(`${base}/graphql`, { method: 'POST', body: create(), key }));
    expect(created.map(({ body }) => JSON.parse(body).errors)).toEqual(created.map(() => undefined));
    expect(created.map(({ body }) => JSON.parse(body).data.createLeaderboard.userErrors)).toEqual(created.map(() => []));
    expect(server.output().match(/started redis-server/g)).toHaveLength(1);

    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'managed-redis.json'))).toBe(false);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
