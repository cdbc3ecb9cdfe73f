/**
 * What keeping periods costs a write (issue 13): submitScore over HTTP on a board keeping ALL_TIME,
 * DAILY, WEEKLY and MONTHLY against a plain (ALL_TIME only) board, both in one Redis, both served
 * by one Standings server, loaded alike (same players, same scores, same requests but the board
 * id), the two boards alternating round by round with their order swapped each round. The ratio
 * is taken within each round; the target is the median's. Each round also reads Redis' own time
 * spent in the submit script (INFO commandstats, EVALSHA's usec over its calls), which the API
 * process' share of the 2 cores does not blur: the script's cost, four periods over plain.
 *
 *   npm run bench:periods                          # 100,000 members, 5 rounds of 10 s
 *   npm run bench:periods -- 1000000 --rounds 7 --seconds 5 --connections 20 --warmup 3
 *
 * Results go to BENCHMARKS.md (section "periods").
 */
import { formatCount, parseArgs, runBench } from './cli';
import { fourPeriodBoard, growBoard, withBenchBoard } from './fixtures';
import { type LoadResult, loadTest } from './load';
import { type Operation, requestBodies, submitScore } from './operations';
import { launchPeer } from './peers/launch';
import { median } from './report';
import type { LeaderboardStore } from '../src/store/leaderboardStore';

/** Redis' total time in EVALSHA so far (µs) and its calls: every submit is one. */
async function scriptTime(store: LeaderboardStore): Promise<{ usec: number; calls: number }> {
  const info = (await store.redis.info('commandstats')) as string;
  const line = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(info);
  return line ? { calls: Number(line[1]), usec: Number(line[2]) } : { calls: 0, usec: 0 };
}

const { options, sizes } = parseArgs({ rounds: 5, seconds: 10, connections: 20, warmup: 3 }, [100_000]);
const PERIODS_ID = 'bench-periods';
const TARGET = 0.7;
/**
 * Request bodies per board per round, more than either board sends in a round: a body sent twice
 * would write the score its player already has, which changes nothing and measures a read.
 */
const BODIES_PER_ROUND = options.seconds * 10_000;

/** The same requests as submitScore's (same seed, same name), sent to the four-period board. */
const submitFourPeriods: Operation = {
  ...submitScore,
  variables: (random, members) => {
    const { input } = submitScore.variables(random, members) as { input: Record<string, unknown> };
    return { input: { ...input, leaderboardId: PERIODS_ID } };
  },
};

const BOARDS = [
  { label: 'plain (ALL_TIME)', operation: submitScore },
  { label: 'ALL_TIME + DAILY + WEEKLY + MONTHLY', operation: submitFourPeriods },
];

async function main(): Promise<string> {
  const members = sizes[sizes.length - 1];
  const rows: string[] = [];
  let ratios: number[] = [];
  let redisRatios: number[] = [];
  const perWrite: number[][] = BOARDS.map(() => []);
  await withBenchBoard(members, async (redisUrl, store) => {
    console.log(`loading ${formatCount(members)} members into each board`);
    await growBoard(store, 0, members, false);
    await fourPeriodBoard(store, PERIODS_ID, 'LATEST', members);
    const server = await launchPeer('standings', redisUrl);
    try {
      const bodies = BOARDS.map(({ operation }) => requestBodies(operation, members, (options.rounds + 1) * BODIES_PER_ROUND));
      // Each round (the warm-up first) sends its own slice, the same for both boards.
      const slice = (i: number, round: number) => bodies[i].slice(round * BODIES_PER_ROUND, (round + 1) * BODIES_PER_ROUND);
      const run = async (i: number, round: number, seconds: number) => {
        const sent = slice(i, round);
        const before = await scriptTime(store);
        const result = await loadTest(server.url, sent, { connections: options.connections, seconds });
        if (result.requestsPerSecond * seconds > sent.length) throw new Error(`round ${round}: more requests than bodies; raise BODIES_PER_ROUND`);
        const after = await scriptTime(store);
        if (round > 0) perWrite[i].push((after.usec - before.usec) / Math.max(1, after.calls - before.calls));
        return result;
      };
      for (let i = 0; i < BOARDS.length; i++) await run(i, 0, options.warmup);
      const results: LoadResult[][] = BOARDS.map(() => []);
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const result = await run(i, round + 1, options.seconds);
          results[i].push(result);
          console.log(`round ${round + 1} ${BOARDS[i].label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, Redis ${perWrite[i][round].toFixed(1)} µs/write`);
        }
      }
      ratios = results[1].map((r, round) => r.requestsPerSecond / results[0][round].requestsPerSecond);
      redisRatios = perWrite[1].map((usec, round) => usec / perWrite[0][round]);
      BOARDS.forEach(({ label }, i) => {
        const runs = results[i];
        rows.push(`| ${formatCount(members)} | ${label} | ${formatCount(Math.round(median(runs.map((r) => r.requestsPerSecond))))} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)} | ${runs.map((r) => formatCount(Math.round(r.requestsPerSecond))).join(', ')} | ${median(perWrite[i]).toFixed(1)} |`);
      });
    } finally {
      await server.stop();
    }
  });
  const ratio = median(ratios);
  return [
    `submitScore over HTTP (autocannon on loopback, ${options.connections} connections, ${options.seconds} s per board per round after a`,
    `${options.warmup} s warm-up), ${options.rounds} rounds, the boards alternating (order swapped each round); one Standings server`,
    'process and one throwaway Redis (no persistence) on the same 2 cores. Both boards DESCENDING, LATEST, the same',
    'members (ids and scores 0..3000), the four-period one filled through the domain submit; each request writes a',
    'random score for a random existing player, and no request is sent twice, so nearly every write moves the entry',
    'in every period.',
    '',
    '| members | board | req/s (median) | p50 ms | p99 ms | req/s by round | Redis µs per write (median) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Four periods over plain, round by round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${ratio.toFixed(2)}`,
    `(target >= ${TARGET.toFixed(2)}: ${ratio >= TARGET ? 'met' : 'missed'}).`,
    `Redis time per write (the submit script, INFO commandstats), four periods over plain, round by round:`,
    `${redisRatios.map((r) => r.toFixed(2)).join(', ')}; median ${median(redisRatios).toFixed(2)}.`,
  ].join('\n');
}

runBench('periods', 'bench:periods', main);
