/**
 * STANDINGS_WORKERS measured: the service as it ships (src/server/main.ts, production settings)
 * with one worker against more, side by side: the same operations as bench:service, one cell
 * (operation x worker count) at a time, interleaved round by round with the order rotated, and
 * the ratio taken within each round. The load generator, Redis and the workers share the
 * machine's cores, so more workers can only gain what the cores left over allow. bench:service
 * ends with it; bench:workers runs it alone.
 */
import { formatCount } from './cli';
import { type LoadResult, loadTest } from './load';
import { startServer, stopServer, type MainProcess } from './mainProcess';
import { around, entries100, entry, type Operation, requestBodies, submitScore, top10 } from './operations';
import { BENCH_API_KEY } from './peers/launch';
import { median } from './report';

export interface WorkerCountOptions {
  rounds: number;
  seconds: number;
  connections: number;
  warmup: number;
  /** The worker count measured against one. */
  workers: number;
}

const OPERATIONS = [submitScore, entry, entries100, top10, around];

/** Production, as bench:service's peers run, with the per-key rate limit off for the load. */
const ENV = { STANDINGS_API_KEYS: `writer:${BENCH_API_KEY}`, RATE_LIMIT_PER_KEY: '0' };

/** The shipped entry point at 1 and `options.workers` workers on this Redis, for `measure`; stopped after. */
export async function withWorkerCounts<T>(
  redisUrl: string, options: WorkerCountOptions, measure: (servers: Map<number, MainProcess>) => Promise<T>,
): Promise<T> {
  const servers = new Map<number, MainProcess>();
  try {
    for (const workers of [1, options.workers]) servers.set(workers, await startServer(redisUrl, { ...ENV, STANDINGS_WORKERS: String(workers) }));
    return await measure(servers);
  } finally {
    await Promise.all([...servers.values()].map(stopServer));
  }
}

/** One table row per operation for a board of `members`: each count's req/s, p50, p99, and the ratio per round. */
export async function measureWorkerCounts(members: number, servers: Map<number, MainProcess>, options: WorkerCountOptions): Promise<string[]> {
  const counts = [1, options.workers];
  const bodies = new Map(OPERATIONS.map((operation) => [operation, requestBodies(operation, members)]));
  const run = (operation: Operation, workers: number, seconds: number) =>
    loadTest(servers.get(workers)!.url, bodies.get(operation)!, { connections: options.connections, seconds });
  for (const operation of OPERATIONS) for (const workers of counts) await run(operation, workers, options.warmup);

  const rows: string[] = [];
  for (const operation of OPERATIONS) {
    const results = new Map<number, LoadResult[]>(counts.map((workers) => [workers, []]));
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? counts : [...counts].reverse();
      for (const workers of order) {
        const result = await run(operation, workers, options.seconds);
        results.get(workers)!.push(result);
        console.log(`${formatCount(members)} round ${round + 1} ${operation.name}, ${workers} worker(s): ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms`);
      }
    }
    const [one, many] = counts.map((workers) => results.get(workers)!);
    const perRound = many.map((result, round) => result.requestsPerSecond / one[round].requestsPerSecond);
    const cell = (runs: LoadResult[]) =>
      `${formatCount(Math.round(median(runs.map((r) => r.requestsPerSecond))))} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)}`;
    rows.push(`| ${formatCount(members)} | ${operation.name} | ${cell(one)} | ${cell(many)} | ${median(perRound).toFixed(2)} (${perRound.map((r) => r.toFixed(2)).join(', ')}) |`);
  }
  return rows;
}

/** The report of `measureWorkerCounts`' rows. */
export function workerCountsTable(options: WorkerCountOptions, rows: string[]): string {
  const many = options.workers;
  return [
    `autocannon on loopback, ${options.connections} connections, ${options.seconds} s per cell after a ${options.warmup} s warm-up, median of`,
    `${options.rounds} rounds; 1 and ${many} workers (STANDINGS_WORKERS) of the shipped entry point, each started once, interleaved`,
    '(order alternating each round); one throwaway Redis. Everything, the load generator included, shares the machine\'s cores:',
    'the figures are noisy, the ratio (same round) is what to read.',
    '',
    `| members | operation | 1 worker req/s | p50 ms | p99 ms | ${many} workers req/s | p50 ms | p99 ms | ${many} / 1 (median, per round) |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
