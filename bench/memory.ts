/**
 * Bytes per member of fair-tie layouts, all rebuilt in one throwaway Redis in the same run:
 * Standings' layout, a bare sorted set (which orders equal scores by player id, i.e. unfairly)
 * and Podium's published layout (19-digit decimal token + id as member, id -> member hash,
 * with and without its second, ascending index). A Standings board keeps one more member per
 * distinct score for dense ranks unless created with denseRanks: false, so it is also loaded with
 * every score distinct (the worst case), with and without them. A board keeping ALL_TIME, DAILY,
 * WEEKLY and MONTHLY is filled through the domain's submit (as submitScores fills it) and counted
 * per member per period, against the plain Standings board (issue 13: within 5%).
 *
 *   npm run bench:memory                      # 100,000 and 1,000,000 members, 3 rounds
 *   npm run bench:memory -- 1000000 --rounds 1
 *
 * Players have 8-digit numeric ids and integer scores 0..3000, so ties are everywhere (but in
 * the every-score-distinct row).
 * Results go to BENCHMARKS.md (section "memory").
 */
import type Redis from 'ioredis';
import { LeaderboardStore } from '../src/store/leaderboardStore';
import { formatCount, parseArgs, runBench } from './cli';
import { BOARD_ID, fourPeriodBoard, growBoard, inBatches, playerId, scoreOf, withBenchRedis } from './fixtures';
import { median, type Verdict, verdictTable } from './report';

const { options, sizes: SIZES } = parseArgs({ rounds: 3 }, [100_000, 1_000_000]);
const ROUNDS = options.rounds;
// Podium's token: 19 decimal digits in front of the id (its ordering does not matter here).
const podiumToken = (i: number) => String(9_000_000_000_000_000_000n - BigInt(i)).padStart(19, '0');

type Loader = (redis: Redis, members: number) => Promise<void>;

const PLAIN = 1;
const FOUR_PERIODS = 6;
const PERIOD_TARGET = 1.05;
/** Issues 2 and 6: Standings' layout at this size, at most this many bytes per member. */
const TARGET_MEMBERS = 1_000_000;
const BYTES_TARGET = 130;

/** Name, loader, and the number of periods each member is kept in (bytes are counted per member per period). */
const layouts: [string, Loader, number?][] = [
  ['bare sorted set (ties by player id: unfair)', (redis, members) =>
    inBatches(0, members, (from, to) => {
      const zadd: (string | number)[] = [];
      for (let i = from; i < to; i++) zadd.push(scoreOf(i), playerId(i));
      return redis.zadd('bare', ...zadd);
    })],
  ['Standings (token member + bucketed id -> token + distinct scores)', async (redis, members) => {
    await growBoard(await benchBoard(redis, members), 0, members, false);
  }],
  ['Standings, every score distinct (the worst case for distinct scores)', (redis, members) => loadDistinct(redis, members, true)],
  ['Standings, every score distinct, board created with denseRanks: false', (redis, members) => loadDistinct(redis, members, false)],
  ['Podium, one index (19-digit token + id, id -> member hash)', (redis, members) => loadPodium(redis, members, false)],
  ['Podium with its second (ascending) index', (redis, members) => loadPodium(redis, members, true)],
  ['Standings, ALL_TIME + DAILY + WEEKLY + MONTHLY (per member per period)', (redis, members) =>
    fourPeriodBoard(new LeaderboardStore(redis), BOARD_ID, 'BEST', members), 4],
];

async function benchBoard(redis: Redis, members: number, denseRanks = true): Promise<LeaderboardStore> {
  const store = new LeaderboardStore(redis);
  await store.createBoard({ id: BOARD_ID, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: members, denseRanks });
  return store;
}

async function loadDistinct(redis: Redis, members: number, denseRanks: boolean): Promise<void> {
  const store = await benchBoard(redis, members, denseRanks);
  await inBatches(0, members, (from, to) =>
    store.submit(BOARD_ID, Array.from({ length: to - from }, (_, k) => ({ playerId: playerId(from + k), score: from + k }))));
}

function loadPodium(redis: Redis, members: number, secondIndex: boolean) {
  return inBatches(0, members, (from, to) => {
    const zadd: (string | number)[] = [];
    const asc: (string | number)[] = [];
    const hset: string[] = [];
    for (let i = from; i < to; i++) {
      const member = `${podiumToken(i)}${playerId(i)}`;
      zadd.push(scoreOf(i), member);
      asc.push(-scoreOf(i), member);
      hset.push(playerId(i), member);
    }
    const pipeline = redis.pipeline().zadd('podium:desc', ...zadd).hset('podium:ids', ...hset);
    if (secondIndex) pipeline.zadd('podium:asc', ...asc);
    return pipeline.exec();
  });
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
}

async function bytesPerMember(redis: Redis, load: Loader, members: number, periods = 1): Promise<number> {
  await redis.flushall();
  const before = await usedMemory(redis);
  await load(redis, members);
  return ((await usedMemory(redis)) - before) / members / periods;
}

/** The targets, judged on the layouts' bytes per member at TARGET_MEMBERS (in `layouts`' order), when the run loaded that size. */
function verdicts(atTarget: number[] | undefined): Verdict[] {
  const size = formatCount(TARGET_MEMBERS);
  const bytes = `Standings' bytes per member at ${size} members <= ${BYTES_TARGET} (issues 2 and 6)`;
  const periods = `four periods' bytes per member per period at ${size} members <= ${PERIOD_TARGET.toFixed(2)}x a plain board's (issue 13)`;
  if (!atTarget) {
    const result = `not loaded (largest: ${formatCount(SIZES[SIZES.length - 1])} members)`;
    return [bytes, periods].map((target) => ({ target, result, met: undefined }));
  }
  const ratio = atTarget[FOUR_PERIODS] / atTarget[PLAIN];
  return [
    { target: bytes, result: atTarget[PLAIN].toFixed(1), met: atTarget[PLAIN] <= BYTES_TARGET },
    {
      target: periods,
      result: `${ratio.toFixed(3)} (${atTarget[FOUR_PERIODS].toFixed(1)} against ${atTarget[PLAIN].toFixed(1)})`,
      met: ratio <= PERIOD_TARGET,
    },
  ];
}

async function main(): Promise<string> {
  const rows: string[] = [];
  const periodRows: string[] = [];
  let atTarget: number[] | undefined;
  await withBenchRedis(async (_server, redis) => {
    for (const members of SIZES) {
      const results: number[] = [];
      for (const [name, load, periods] of layouts) {
        const rounds: number[] = [];
        for (let r = 0; r < ROUNDS; r++) rounds.push(await bytesPerMember(redis, load, members, periods));
        results.push(median(rounds));
        console.log(`${members} members  ${name}: ${median(rounds).toFixed(1)} B/member (${rounds.map((b) => b.toFixed(1)).join(', ')})`);
      }
      layouts.forEach(([name], i) =>
        rows.push(`| ${formatCount(members)} | ${name} | ${results[i].toFixed(1)} | ${(results[i] / results[0]).toFixed(2)} |`));
      if (members === TARGET_MEMBERS) atTarget = results;
      const ratio = results[FOUR_PERIODS] / results[PLAIN];
      periodRows.push(`| ${formatCount(members)} | ${results[FOUR_PERIODS].toFixed(1)} | ${results[PLAIN].toFixed(1)} | ${ratio.toFixed(3)} | <= ${PERIOD_TARGET.toFixed(2)}, ${ratio <= PERIOD_TARGET ? 'met' : 'missed'} |`);
    }
  });
  return [
    verdictTable(verdicts(atTarget)),
    '',
    `Memory per member, median of ${ROUNDS} round(s), each layout loaded alone into the same Redis`,
    '(INFO memory used_memory before and after). 8-digit numeric ids, scores 0..3000 (0..N-1 where every score is distinct).',
    '',
    '| members | layout | bytes/member | vs bare |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    'Periods (issue 13): bytes per member per period of the four-period board over the plain Standings board, same run.',
    '',
    '| members | four periods, per period | plain | ratio | target |',
    '| --- | --- | --- | --- | --- |',
    ...periodRows,
  ].join('\n');
}

runBench('memory', 'bench:memory', main);
