/**
 * How single-request latency grows with the board: p50 of `entry` and `around` (radius 5) on
 * one board as it grows, measured at three depths so the report can say where time goes:
 *   - service: one HTTP request at a time to Standings (its own process), over loopback;
 *   - store: the same read as one store call from this process (ioredis round trip + decoding);
 *   - Redis: the script's own run time inside Redis, from SLOWLOG (threshold 0) of those calls.
 *
 *   npm run bench:scaling                           # 10,000, 100,000 and 1,000,000 members
 *   npm run bench:scaling -- 10000 100000 1000000 10000000 --requests 2000 --rounds 3
 *
 * Each size is measured in rounds (both operations in each round); the report gives the median
 * of the rounds' figures, and each round's service p50.
 *
 * The board grows in place (batches of 1000 through the store, about 45 s per million), so
 * sizes run in increasing order and cannot be interleaved. Results go to BENCHMARKS.md
 * (section "scaling").
 */
import type { Cluster, Redis } from 'ioredis';
import type { LeaderboardStore } from '../src/store/leaderboardStore';
import { formatCount, parseArgs, runBench } from './cli';
import { BOARD_ID, growBoard, withBenchBoard } from './fixtures';
import { percentile, post, sequentialLatencies } from './load';
import { around, entry, type Operation, requestBodies } from './operations';
import { launchPeer } from './peers/launch';
import { median, type Verdict, verdictTable } from './report';

const { options, sizes } = parseArgs({ requests: 2000, rounds: 3 }, [10_000, 100_000, 1_000_000]);
/** Issue 6: the service's p50 at the larger size within this many times its p50 at the smaller. */
const TARGET = { ratio: 1.5, from: 10_000, to: 10_000_000 };
/** Unmeasured requests first in each cell: the server's code must be optimised before it is timed. */
const WARM_UP = 1000;

/** The store call each operation makes for the field it reads (the service adds a board read). */
const READS: { operation: Operation; callStore(store: LeaderboardStore, playerId: string): Promise<unknown> }[] = [
  { operation: entry, callStore: (store, playerId) => store.entries(BOARD_ID, [playerId]) },
  { operation: around, callStore: (store, playerId) => store.around(BOARD_ID, playerId, 5) },
];

type SlowlogEntry = [number, number, number, Buffer[]];

/** Runs `calls` with every command logged, and returns the Redis-side µs of each script call. */
async function scriptMicros(redis: Redis | Cluster, calls: () => Promise<unknown>): Promise<number[]> {
  await redis.config('SET', 'slowlog-max-len', String(options.requests * 2));
  await redis.config('SET', 'slowlog-log-slower-than', '0');
  await redis.slowlog('RESET');
  try {
    await calls();
  } finally {
    await redis.config('SET', 'slowlog-log-slower-than', '10000');
  }
  const log = (await redis.callBuffer('SLOWLOG', 'GET', '-1')) as SlowlogEntry[];
  return log.filter(([, , , args]) => /^EVAL/i.test(String(args[0]))).map(([, , micros]) => Number(micros));
}

async function main(): Promise<string> {
  const rows: string[] = [];
  const p50s = new Map<Operation, number[]>();
  await withBenchBoard(sizes[sizes.length - 1], async (redisUrl, store) => {
    const standings = await launchPeer('standings', redisUrl);
    try {
      let loaded = 0;
      for (const members of sizes) {
        console.log(`loading ${formatCount(members)} members`);
        await growBoard(store, loaded, members, false);
        loaded = members;
        const rounds = new Map<Operation, { service: number[]; p99: number[]; store: number[]; script: number[] }>(
          READS.map(({ operation }) => [operation, { service: [], p99: [], store: [], script: [] }]),
        );
        const requests = READS.map(({ operation }) => {
          const bodies = requestBodies(operation, members, options.requests);
          return { bodies, players: bodies.map((body) => (JSON.parse(body) as { variables: { playerId: string } }).variables.playerId) };
        });
        for (let round = 0; round < options.rounds; round++) {
          for (const [r, { operation, callStore }] of READS.entries()) {
            const { bodies, players } = requests[r];
            const service = await sequentialLatencies((i) => post(standings.url, bodies[i % bodies.length]), bodies.length, WARM_UP);
            let storeCalls: number[] = [];
            const script = await scriptMicros(store.redis, async () => {
              storeCalls = await sequentialLatencies((i) => callStore(store, players[i % players.length]), players.length, WARM_UP);
            });
            const measured = rounds.get(operation)!;
            const p50 = median(service);
            measured.service.push(p50);
            measured.p99.push(percentile(service, 0.99));
            measured.store.push(median(storeCalls));
            measured.script.push(median(script));
            console.log(`${formatCount(members)} round ${round + 1} ${operation.name}: service p50 ${p50.toFixed(3)} ms`);
          }
        }
        for (const { operation } of READS) {
          const { service, p99, store: storeCalls, script } = rounds.get(operation)!;
          p50s.set(operation, [...(p50s.get(operation) ?? []), median(service)]);
          rows.push(`| ${formatCount(members)} | ${operation.name} | ${median(service).toFixed(3)} | ${service.map((p) => p.toFixed(3)).join(', ')} | ${median(p99).toFixed(3)} | ${median(storeCalls).toFixed(3)} | ${median(script)} |`);
          console.log(rows[rows.length - 1]);
        }
      }
    } finally {
      await standings.stop();
    }
  });
  const verdicts = READS.map(({ operation }): Verdict => {
    const p50At = (members: number) => (sizes.includes(members) ? p50s.get(operation)![sizes.indexOf(members)] : undefined);
    const [from, to] = [p50At(TARGET.from), p50At(TARGET.to)];
    const target = `${operation.name}: service p50 at ${formatCount(TARGET.to)} members within ${TARGET.ratio}x that at ${formatCount(TARGET.from)} (issue 6)`;
    if (from === undefined || to === undefined) return { target, result: 'not both sizes in this run', met: undefined };
    return { target, result: `${(to / from).toFixed(2)}x (${to.toFixed(3)} against ${from.toFixed(3)} ms)`, met: to / from <= TARGET.ratio };
  });
  const body = [
    verdictTable(verdicts),
    '',
    `One board grown in place (DESCENDING, LATEST, scores 0..3000); ${options.rounds} rounds per size, each with ${formatCount(options.requests)} requests`,
    `per operation, one at a time after ${formatCount(WARM_UP)} unmeasured ones, random existing players; figures are medians of the`,
    'rounds. Service: HTTP POST to Standings in its own process',
    '(query `leaderboard(id) { entry | around }`: the board\'s settings, kept in memory after the first read, and one script call). Store: the same script call',
    'from the bench process. Redis: the script\'s run time inside Redis (SLOWLOG, threshold 0).',
    '',
    '| members | operation | service p50 ms | rounds | service p99 ms | store call p50 ms | Redis script p50 µs |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  return body;
}

runBench('scaling', 'bench:scaling', main);
