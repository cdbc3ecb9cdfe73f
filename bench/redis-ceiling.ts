/**
 * Redis' own ceiling for the commands Standings issues, measured with redis-benchmark (C, so
 * the load generator is not the bottleneck) against one throwaway Redis, side by side in each
 * round: bare sorted-set commands next to EVALSHA of Standings' scripts.
 *
 *   npm run bench:redis                    # 100,000 members, 3 rounds, pipeline 1 and 16
 *   npm run bench:redis -- 1000000 --rounds 5
 *
 * redis-benchmark can only address one bucket key, so the board is created with one bucket
 * (capacity 1); a real board spreads its ids over many small hashes, which costs Redis the same
 * per call. Player ids are redis-benchmark's __rand_int__ (12 digits, zero-padded), so every
 * call hits an existing player; the write is LATEST with a random score, so it changes the
 * entry, moves it and publishes an event: the full cost of a fair write. A second board with
 * the same members is created with denseRanks: false, so the cost of keeping distinct scores
 * shows beside it.
 */
import { execFileSync } from 'node:child_process';
import type Redis from 'ioredis';
import { boardKeys } from '../src/store/keys';
import { LeaderboardStore } from '../src/store/leaderboardStore';
import type { ScriptName } from '../src/store/commands';
import { loadScriptSource } from '../src/store/scriptLoader';
import { formatCount, parseArgs, runBench } from './cli';
import { inBatches, withBenchRedis } from './fixtures';
import { median, NO_TARGET } from './report';

const { options, sizes } = parseArgs({ rounds: 3 }, [100_000]);
const ROUNDS = options.rounds;
const MEMBERS = sizes[sizes.length - 1];
const REQUESTS = 200_000;
const CLIENTS = 50;
const BOARD = 'ceiling';
const PLAIN_BOARD = 'ceiling-plain';

const playerId = (i: number) => String(i).padStart(12, '0');

async function load(redis: Redis): Promise<void> {
  const store = new LeaderboardStore(redis);
  await store.createBoard({ id: BOARD, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 1 });
  await store.createBoard({ id: PLAIN_BOARD, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 1, denseRanks: false });
  await inBatches(0, MEMBERS, async (from, to) => {
    const batch = [];
    const zadd: (string | number)[] = [];
    for (let i = from; i < to; i++) {
      batch.push({ playerId: playerId(i), score: i % 3001 });
      zadd.push(i % 3001, playerId(i));
    }
    await store.submit(BOARD, batch);
    await store.submit(PLAIN_BOARD, batch);
    await redis.zadd('bare', ...zadd);
  });
}

function benchmark(port: number, pipeline: number, command: string[]): number {
  const csv = execFileSync('redis-benchmark', [
    '-p', String(port), '-c', String(CLIENTS), '-n', String(REQUESTS), '-r', String(MEMBERS),
    '-P', String(pipeline), '--csv', ...command,
  ], { encoding: 'utf8' });
  return Number(csv.trim().split('\n')[1].split('","')[1]);
}

function main(): Promise<string> {
  return withBenchRedis(async (server, redis) => {
    const keys = boardKeys(BOARD);
    const plain = boardKeys(PLAIN_BOARD);
    const sha = async (name: ScriptName) => (await redis.script('LOAD', loadScriptSource(name))) as string;
    await load(redis);
    const commands: [string, string[]][] = [
      ['ZADD (bare)', ['ZADD', 'bare', '__rand_int__', '__rand_int__']],
      ['ZSCORE (bare)', ['ZSCORE', 'bare', '__rand_int__']],
      ['ZREVRANK (bare)', ['ZREVRANK', 'bare', '__rand_int__']],
      ['ZREVRANGE 0 9 WITHSCORES (bare)', ['ZREVRANGE', 'bare', '0', '9', 'WITHSCORES']],
      ['ZREVRANGE 0 49 WITHSCORES (bare)', ['ZREVRANGE', 'bare', '0', '49', 'WITHSCORES']],
      ['EVALSHA submit (fair write, LATEST)', ['EVALSHA', await sha('submit'), '4', keys.config, keys.ranking, keys.bucket(0),
        keys.distinct, '1', '1', '86400', keys.events, '__rand_int__', '__rand_int__', '', '']],
      ['EVALSHA submit (the same, board without dense ranks)', ['EVALSHA', await sha('submit'), '4', plain.config, plain.ranking,
        plain.bucket(0), plain.distinct, '1', '1', '86400', plain.events, '__rand_int__', '__rand_int__', '', '']],
      ['EVALSHA entries (one player)', ['EVALSHA', await sha('entries'), '3', keys.config, keys.ranking, keys.bucket(0), '1', '1', '__rand_int__']],
      ['EVALSHA entries (one player, no shared rank)', ['EVALSHA', await sha('entries'), '3', keys.config, keys.ranking, keys.bucket(0), '1', '0',
        '__rand_int__']],
      ['EVALSHA page (top 10)', ['EVALSHA', await sha('page'), '2', keys.config, keys.ranking, '10', '', '0', '', '', '']],
      ['EVALSHA page (count of a score range)', ['EVALSHA', await sha('page'), '2', keys.config, keys.ranking, '0', '', '0', '', '', '',
        '1000', '', '2000', '']],
      ['EVALSHA dense_rank (one score)', ['EVALSHA', await sha('dense_rank'), '2', keys.config, keys.distinct, '__rand_int__']],
      ['EVALSHA score_at (percentile 90)', ['EVALSHA', await sha('score_at'), '2', keys.config, keys.ranking, 'percent', '90']],
      ['EVALSHA around (radius 5)', ['EVALSHA', await sha('around'), '3', keys.config, keys.ranking, keys.bucket(0), '5', 'player', '__rand_int__', '1']],
    ];
    const rows: string[] = [];
    for (const pipeline of [1, 16]) {
      const ratios = commands.map(() => [] as number[]);
      const rates = commands.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++) {
        const base = benchmark(server.port, pipeline, commands[0][1]);
        commands.forEach(([, command], i) => {
          const rate = i === 0 ? base : benchmark(server.port, pipeline, command);
          rates[i].push(rate);
          ratios[i].push(rate / base);
        });
      }
      commands.forEach(([name], i) => {
        rows.push(`| ${pipeline} | ${name} | ${formatCount(Math.round(median(rates[i])))} | ${median(ratios[i]).toFixed(2)} |`);
        console.log(rows[rows.length - 1]);
      });
    }
    return [
      NO_TARGET,
      '',
      `redis-benchmark, ${CLIENTS} clients, ${formatCount(REQUESTS)} requests per command, ${formatCount(MEMBERS)}`,
      `members (scores 0..3000), median of ${ROUNDS} rounds; the ratio is taken round by round against a bare ZADD.`,
      '',
      '| pipeline | command | requests/s | vs ZADD |',
      '| --- | --- | --- | --- |',
      ...rows,
    ].join('\n');
  });
}

runBench('redis-ceiling', 'bench:redis', main);
