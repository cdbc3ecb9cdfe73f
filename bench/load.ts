/**
 * How the service benches measure a server over HTTP on loopback: autocannon for throughput
 * under concurrent load, and one keep-alive connection for the latency of single requests.
 * A response carrying GraphQL `errors` counts as a failure, so no contender wins by failing fast.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import autocannon from 'autocannon';
import { BENCH_API_KEY } from './peers/launch';

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Requests per second over all connections; none: as fast as the server answers. */
  rate?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
}

const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_API_KEY}` };
const hasErrors = (body: string) => body.includes('"errors"');

/** Posts `bodies` in turn over `connections` connections for `seconds` (at `rate`, if given); throws if any request failed. */
export async function loadTest(url: string, bodies: string[], { connections, seconds, rate }: LoadOptions): Promise<LoadResult> {
  let next = 0;
  // autocannon's own histogram keeps whole milliseconds; the response events carry fractions.
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url,
      connections,
      duration: seconds,
      ...(rate === undefined ? {} : { overallRate: rate }),
      requests: [{
        method: 'POST',
        headers: HEADERS,
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
      }],
      verifyBody: (body) => !hasErrors(String(body)),
    }, (err, done) => (err ? reject(err) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const failed = result.errors + result.non2xx + result.mismatches;
  if (failed > 0) {
    throw new Error(`${url}: ${failed} of ${result.requests.total} requests failed (errors ${result.errors}, non-2xx ${result.non2xx}, GraphQL errors ${result.mismatches})`);
  }
  return { requestsPerSecond: result.requests.total / result.duration, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One POST on a kept-alive connection; resolves with the response body. */
export function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: HEADERS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (response.statusCode !== 200 || hasErrors(text)) reject(new Error(`${url}: HTTP ${response.statusCode} ${text.slice(0, 500)}`));
        else resolve(text);
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Milliseconds per call of `call`, run `count` times one after another, after `warmUp` unmeasured calls. */
export async function sequentialLatencies(call: (i: number) => Promise<unknown>, count: number, warmUp: number): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await call(i);
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call(i);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return latencies;
}

/**
 * One scrape of the /metrics of the server whose GraphQL endpoint is `graphqlUrl`: a lookup of an
 * unlabelled sample by name (NaN when there is none).
 */
export async function scrapeMetrics(graphqlUrl: string): Promise<(name: string) => number> {
  const text = await (await fetch(graphqlUrl.replace('/graphql', '/metrics'))).text();
  return (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** The value below which `share` (0..1) of `values` fall. */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

/** Nanoseconds a task has run on a CPU, from its schedstat file (Linux /proc). */
const schedstatNs = (path: string): number => Number(readFileSync(path, 'utf8').split(' ')[0]);

/** Nanoseconds process `pid`'s main thread has run on a CPU. */
export const processCpuNs = (pid: number): number => schedstatNs(`/proc/${pid}/schedstat`);

/** Nanoseconds every thread of process `pid` has run on a CPU (V8's helpers and libuv's pool included). */
export const allThreadsCpuNs = (pid: number): number =>
  readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + schedstatNs(`/proc/${pid}/task/${tid}/schedstat`), 0);

/** Calls and µs in each command so far, by lower-case name (INFO commandstats; a script's inner commands count under their own names too). */
export async function commandStats(redis: { info(section: string): Promise<string> }): Promise<Map<string, { calls: number; usec: number }>> {
  const lines = (await redis.info('commandstats')).matchAll(/cmdstat_([^:]+):calls=(\d+),usec=(\d+)/g);
  return new Map([...lines].map(([, name, calls, usec]) => [name, { calls: Number(calls), usec: Number(usec) }]));
}

/** Seconds of CPU the Redis server has used (INFO cpu: user and system, all its threads). */
export async function redisCpuSeconds(redis: { info(section: string): Promise<string> }): Promise<number> {
  const cpu = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)![1]);
  return seconds('used_cpu_user') + seconds('used_cpu_sys');
}
