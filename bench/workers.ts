/**
 * STANDINGS_WORKERS: the service as it ships (src/server/main.ts, production settings) with one
 * worker against two, side by side: the same operations as bench:service, one cell (operation x
 * worker count) at a time, interleaved round by round with the order rotated, and the ratio
 * taken within each round. The load generator, Redis and the workers share the machine's cores,
 * so two workers can only gain what the cores left over allow: read the ratio with the
 * machine's core count (printed) in mind.
 *
 *   npm run bench:workers                    # 10,000 members, 3 rounds of 5 s, 1 and 2 workers
 *   npm run bench:workers -- 100000 --rounds 5 --seconds 10 --connections 40 --workers 4
 *
 * Results go to BENCHMARKS.md (section "workers").
 */
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { type LoadResult, loadTest } from './load';
import { startServer, stopServer, type MainProcess } from './mainProcess';
import { around, entries100, entry, type Operation, requestBodies, submitScore, top10 } from './operations';
import { BENCH_API_KEY } from './peers/launch';
import { median } from './report';

const { options, sizes } = parseArgs({ rounds: 3, seconds: 5, connections: 40, warmup: 2, workers: 2 }, [10_000]);
const OPERATIONS = [submitScore, entry, entries100, top10, around];
const COUNTS = [1, options.workers];

/** Production, as bench:service's peers run, with the per-key rate limit off for the load. */
const ENV = { STANDINGS_API_KEYS: `writer:${BENCH_API_KEY}`, RATE_LIMIT_PER_KEY: '0' };

async function measureSize(members: number, servers: Map<number, MainProcess>): Promise<string[]> {
  const bodies = new Map(OPERATIONS.map((operation) => [operation, requestBodies(operation, members)]));
  const run = (operation: Operation, workers: number, seconds: number) =>
    loadTest(servers.get(workers)!.url, bodies.get(operation)!, { connections: options.connections, seconds });
  for (const operation of OPERATIONS) for (const workers of COUNTS) await run(operation, workers, options.warmup);

  const rows: string[] = [];
  for (const operation of OPERATIONS) {
    const results = new Map<number, LoadResult[]>(COUNTS.map((workers) => [workers, []]));
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? COUNTS : [...COUNTS].reverse();
      for (const workers of order) {
        const result = await run(operation, workers, options.seconds);
        results.get(workers)!.push(result);
        console.log(`${formatCount(members)} round ${round + 1} ${operation.name}, ${workers} worker(s): ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms`);
      }
    }
    const [one, many] = COUNTS.map((workers) => results.get(workers)!);
    const perRound = many.map((result, round) => result.requestsPerSecond / one[round].requestsPerSecond);
    const cell = (runs: LoadResult[]) =>
      `${formatCount(Math.round(median(runs.map((r) => r.requestsPerSecond))))} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)}`;
    rows.push(`| ${formatCount(members)} | ${operation.name} | ${cell(one)} | ${cell(many)} | ${median(perRound).toFixed(2)} (${perRound.map((r) => r.toFixed(2)).join(', ')}) |`);
  }
  return rows;
}

runBench('workers', 'bench:workers', async () => {
  const rows: string[] = [];
  await withBenchBoard(sizes[sizes.length - 1], async (redisUrl, store) => {
    const servers = new Map<number, MainProcess>();
    try {
      for (const workers of COUNTS) servers.set(workers, await startServer(redisUrl, { ...ENV, STANDINGS_WORKERS: String(workers) }));
      let loaded = 0;
      for (const members of sizes) {
        console.log(`loading ${formatCount(members)} members`);
        await growBoard(store, loaded, members, false);
        loaded = members;
        rows.push(...(await measureSize(members, servers)));
      }
    } finally {
      await Promise.all([...servers.values()].map(stopServer));
    }
  });
  const many = options.workers;
  return [
    `autocannon on loopback, ${options.connections} connections, ${options.seconds} s per cell after a ${options.warmup} s warm-up, median of`,
    `${options.rounds} rounds; 1 and ${many} workers (STANDINGS_WORKERS) of the shipped entry point, each started once, interleaved`,
    '(order alternating each round); one throwaway Redis. Everything, the load generator included, shares the machine\'s cores,',
    'which other engineers\' tests were also using: the figures are noisy, the ratio (same round) is what to read.',
    '',
    `| members | operation | 1 worker req/s | p50 ms | p99 ms | ${many} workers req/s | p50 ms | p99 ms | ${many} / 1 (median, per round) |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
});
