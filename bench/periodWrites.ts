/**
 * What keeping periods costs a write (issue 13): submitScore over HTTP on a board keeping ALL_TIME,
 * DAILY, WEEKLY and MONTHLY against the one-period (ALL_TIME only) bench board, both in one Redis,
 * both served by one Standings server, loaded alike (same players, same requests but the board id),
 * the two boards alternating round by round with their order swapped each round. The ratio is
 * taken within each round; the target is the median's. Each round also reads Redis' own time in
 * the submit script (INFO commandstats, EVALSHA's usec over its calls) and the CPU time the server
 * process and Redis spent per write: on a machine whose cores are busy, CPU time is what sets the
 * pace, and other processes' load blurs it far less than throughput or a script's wall time.
 *
 * bench:service runs it after its cells; bench:periods runs it alone (bench/periods.ts).
 */
import os from 'node:os';
import { BOARD_ID, fourPeriodBoard, playerId, seededRandom } from './fixtures';
import { commandStats, type LoadResult, loadTest, processCpuNs, redisCpuSeconds } from './load';
import type { Peer } from './peers/launch';
import { formatCount } from './cli';
import { median, type Verdict } from './report';
import type { LeaderboardStore } from '../src/store/leaderboardStore';

export const PERIODS_BOARD_ID = 'bench-periods';
const TARGET = 0.7;

/** The comparison's markdown and its verdict on issue 13's target, for the verdict table of the bench that runs it. */
export interface PeriodWrites {
  verdict: Verdict;
  markdown: string;
}

export interface PeriodWriteOptions {
  rounds: number;
  seconds: number;
  connections: number;
  warmup: number;
}

const QUERY = 'mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { entry { playerId score rank } changed } }';
/** Scores keep the fixture's whole part (0..3000) and add a fraction no other request has. */
const FRACTIONS = 2 ** 24;

/**
 * `count` submitScore bodies for `boardId`, the same players and scores for every board (fixed
 * seed): each score is new to the board (its fraction is the body's own), so every write moves
 * its player's entry in every period, and none measures a write that changes nothing.
 */
function distinctSubmissions(boardId: string, members: number, count: number): string[] {
  if (count >= FRACTIONS) throw new Error(`at most ${FRACTIONS - 1} distinct submissions`);
  const random = seededRandom(members);
  return Array.from({ length: count }, (_, k) => JSON.stringify({
    query: QUERY,
    variables: { input: { leaderboardId: boardId, playerId: playerId(random(members)), score: random(3001) + (k + 1) / FRACTIONS } },
  }));
}

/**
 * Counters read before and after each round: Redis' total time in EVALSHA (µs) and its calls
 * (every submit is one), the CPU µs Redis and the server process have used.
 */
async function counters(store: LeaderboardStore, server: Peer) {
  const evalsha = (await commandStats(store.redis)).get('evalsha');
  return {
    calls: evalsha?.calls ?? 0,
    scriptUsec: evalsha?.usec ?? 0,
    redisCpuUsec: (await redisCpuSeconds(store.redis)) * 1e6,
    serverCpuUsec: processCpuNs(server.pid) / 1000,
  };
}

interface PerWrite {
  script: number;
  redisCpu: number;
  serverCpu: number;
}

const BOARDS = [
  { label: 'submitScore, one period (ALL_TIME)', id: BOARD_ID },
  { label: 'submitScore, four periods (ALL_TIME + DAILY + WEEKLY + MONTHLY)', id: PERIODS_BOARD_ID },
];

/**
 * Loads the four-period board with the `members` players the one-period bench board holds, then
 * measures both through the Standings server at `url`.
 */
export async function measurePeriodWrites(
  store: LeaderboardStore, server: Peer, members: number, options: PeriodWriteOptions,
): Promise<PeriodWrites> {
  console.log(`loading ${formatCount(members)} members into the four-period board`);
  await fourPeriodBoard(store, PERIODS_BOARD_ID, 'LATEST', members);
  // More bodies per board per round than either board sends in one: none is sent twice.
  const perRound = options.seconds * 20_000;
  const bodies = BOARDS.map(({ id }) => distinctSubmissions(id, members, (options.rounds + 1) * perRound));
  const perWrite: PerWrite[][] = BOARDS.map(() => []);
  const run = async (i: number, round: number, seconds: number) => {
    const sent = bodies[i].slice(round * perRound, (round + 1) * perRound);
    const before = await counters(store, server);
    const result = await loadTest(server.url, sent, { connections: options.connections, seconds });
    if (result.requestsPerSecond * seconds > sent.length) throw new Error(`round ${round}: more requests than bodies`);
    const after = await counters(store, server);
    const writes = Math.max(1, after.calls - before.calls);
    if (round > 0) {
      perWrite[i].push({
        script: (after.scriptUsec - before.scriptUsec) / writes,
        redisCpu: (after.redisCpuUsec - before.redisCpuUsec) / writes,
        serverCpu: (after.serverCpuUsec - before.serverCpuUsec) / writes,
      });
    }
    return result;
  };
  const loadAtStart = os.loadavg()[0];
  for (let i = 0; i < BOARDS.length; i++) await run(i, 0, options.warmup);
  const results: LoadResult[][] = BOARDS.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const result = await run(i, round + 1, options.seconds);
      results[i].push(result);
      const { script, redisCpu, serverCpu } = perWrite[i][round];
      console.log(`periods round ${round + 1} ${BOARDS[i].label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, per write: script ${script.toFixed(1)} µs, Redis CPU ${redisCpu.toFixed(1)} µs, server CPU ${serverCpu.toFixed(1)} µs`);
    }
  }
  const ratios = results[1].map((r, round) => r.requestsPerSecond / results[0][round].requestsPerSecond);
  const scriptRatios = perWrite[1].map((four, round) => four.script / perWrite[0][round].script);
  // One period's CPU per write over four's: the throughput ratio CPU time alone would allow.
  const cpuRatios = perWrite[1].map((four, round) => (perWrite[0][round].redisCpu + perWrite[0][round].serverCpu) / (four.redisCpu + four.serverCpu));
  const ratio = median(ratios);
  const rows = BOARDS.map(({ label }, i) => {
    const runs = results[i];
    const of = (field: keyof PerWrite) => median(perWrite[i].map((w) => w[field])).toFixed(1);
    return `| ${formatCount(members)} | ${label} | ${formatCount(Math.round(median(runs.map((r) => r.requestsPerSecond))))} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)} | ${runs.map((r) => formatCount(Math.round(r.requestsPerSecond))).join(', ')} | ${of('script')} | ${of('redisCpu')} | ${of('serverCpu')} |`;
  });
  const byRound = (values: number[]) => `${values.map((r) => r.toFixed(2)).join(', ')}; median ${median(values).toFixed(2)}`;
  const verdict = {
    target: `submitScore on four periods >= ${TARGET.toFixed(2)}x one period's throughput (issue 13)`,
    result: `${ratio.toFixed(2)} at ${formatCount(members)} members`,
    met: ratio >= TARGET,
  };
  const markdown = [
    `submitScore on a four-period board against a one-period one (issue 13): ${options.connections} connections, ${options.seconds} s per`,
    `board per round after a ${options.warmup} s warm-up, ${options.rounds} rounds, the boards alternating (order swapped each round), one`,
    'Standings server. Both boards DESCENDING, LATEST, the same members, the four-period one filled through the domain',
    'submit; each request writes a random existing player a score of 0..3000 plus a fraction no other request has,',
    'so every write moves the entry in every period. Per write (medians of rounds): the submit script\'s time in Redis',
    '(INFO commandstats), the CPU time of Redis (INFO cpu) and of the server process (/proc).',
    `Load average (1 min, ${os.cpus().length} cores): ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
    '',
    '| members | operation | req/s (median) | p50 ms | p99 ms | req/s by round | script µs | Redis CPU µs | server CPU µs |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Throughput, four periods over one, round by round: ${byRound(ratios)}.`,
    `Submit script's time per write in Redis, four periods over one, round by round: ${byRound(scriptRatios)}.`,
    `CPU per write (Redis + server), one period over four, round by round: ${byRound(cpuRatios)}.`,
  ].join('\n');
  return { verdict, markdown };
}
