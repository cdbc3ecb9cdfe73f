/**
 * What a combined view costs to build (issue 13): "the total of the last 7 days" on a board
 * keeping ALL_TIME and DAILY, 100,000 members in each of 7 days, built by one script
 * under SUM, MAX and MIN, and MAX of two boards (each read by itself, as on a Cluster).
 * Each round builds every view once (the order rotated round by round), timed from Node (the
 * domain's `combined`, which checks the sources and builds), in Redis (its commands' own time,
 * INFO commandstats), in Redis' CPU time (INFO cpu, which the machine's load blurs least), in the
 * bench process' CPU time (where the service combines the entries), and by the longest the
 * bench's event loop was held meanwhile.
 *
 *   npm run bench:combined                      # 100,000 members a day, 7 days, 5 rounds
 *   npm run bench:combined -- 20000 --rounds 3
 *
 * Results go to BENCHMARKS.md (section "combined").
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { formatCount, parseArgs, runBench } from './cli';
import { BATCH, inBatches, playerId, withBenchRedis } from './fixtures';
import { commandStats, redisCpuSeconds } from './load';
import { median, verdictTable } from './report';
import { Leaderboards } from '../src/domain/leaderboards';
import { boardKeys } from '../src/store/keys';
import { LeaderboardStore } from '../src/store/leaderboardStore';
import type { Aggregate } from '../src/model';
import type { CombinedSourceRequest } from '../src/domain/combined';

const { options, sizes } = parseArgs({ rounds: 5, days: 7 }, [100_000]);
const BOARD_ID = 'bench-combined';
const OTHER_ID = 'bench-combined-other';
/** Issue 13: a SUM of this many daily periods of this many members built in under this many ms. */
const TARGET = { days: 7, members: 100_000, ms: 1000 };
const DAY_MS = 86_400_000;
/** Days ahead of the machine's clock, so the periods' expiry (PEXPIREAT) keeps them for the bench. */
const FIRST_DAY = Date.UTC(2031, 0, 1);
const AGGREGATES: Aggregate[] = ['SUM', 'MAX', 'MIN'];

/** CPU time Redis' process has used so far (ms): what a build costs Redis whatever share of the cores the load leaves it. */
const redisCpuMs = async (redis: Redis) => (await redisCpuSeconds(redis)) * 1000;

/** Redis' total time in commands so far (µs): a build's reads, writes and MULTIs (and the INFO calls that measure it). */
async function commandUsec(redis: Redis): Promise<number> {
  return [...(await commandStats(redis)).values()].reduce((usec, command) => usec + command.usec, 0);
}

/** CPU time this process has used so far (ms). */
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function main(): Promise<string> {
  const members = sizes[sizes.length - 1];
  const days = options.days;
  const rows: string[] = [];
  let sumMedian = 0;
  const union: number[] = [];
  const unionCpu: number[] = [];
  let sumCpu = 0;
  await withBenchRedis(async (_server, redis) => {
    let nowMs = FIRST_DAY;
    const store = new LeaderboardStore(redis, { testNow: () => nowMs * 1000 });
    // Every read builds again: the bench times builds, not the cache.
    const leaderboards = new Leaderboards(store, undefined, { nowMicros: () => nowMs * 1000 }, { ttlMs: 0 });
    await leaderboards.createBoard({
      id: BOARD_ID, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: members,
      periods: { timeZone: 'UTC', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: days + 1 }] },
    });
    const keys: string[] = [];
    const loading = Date.now();
    for (let day = 0; day < days; day++) {
      nowMs = FIRST_DAY + day * DAY_MS + 3_600_000;
      keys.push(new Date(nowMs).toISOString().slice(0, 10));
      // The same players every day, with scores that differ from day to day.
      await inBatches(0, members, (start, end) => leaderboards.submit(Array.from({ length: end - start }, (_, k) => ({
        boardId: BOARD_ID, playerId: playerId(start + k), score: ((start + k) * 7919 + day * 104_729) % 100_003,
      }))));
      console.log(`  day ${keys[day]}: ${formatCount(members)} members (${((Date.now() - loading) / 1000).toFixed(0)} s)`);
    }
    // A second board, ALL_TIME only, with the same players: its view with the first board's
    // ALL_TIME is built through copies in the view's own slot, as on a Cluster.
    await leaderboards.createBoard({ id: OTHER_ID, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: members });
    await inBatches(0, members, (start, end) => leaderboards.submit(Array.from({ length: end - start }, (_, k) => ({
      boardId: OTHER_ID, playerId: playerId(start + k), score: ((start + k) * 104_729) % 100_003,
    }))));
    const days7 = keys.map((key) => ({ leaderboardId: BOARD_ID, period: { kind: 'DAILY', key } }));
    const views: { label: string; sources: CombinedSourceRequest[]; aggregate: Aggregate }[] = [
      ...AGGREGATES.map((aggregate) => ({ label: `${aggregate} of the ${days} days`, sources: days7, aggregate })),
      { label: 'MAX of two boards\' ALL_TIME', sources: [{ leaderboardId: BOARD_ID }, { leaderboardId: OTHER_ID }], aggregate: 'MAX' },
    ];
    const times = views.map(() => ({ node: [] as number[], redis: [] as number[], cpu: [] as number[], own: [] as number[], held: [] as number[], size: 0 }));
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    for (let round = 0; round < options.rounds; round++) {
      for (let k = 0; k < views.length; k++) {
        const i = (k + round) % views.length;
        const { label, sources, aggregate } = views[i];
        const before = await commandUsec(redis);
        const cpuBefore = await redisCpuMs(redis);
        const ownBefore = ownCpuMs();
        loop.reset();
        const started = process.hrtime.bigint();
        const view = await leaderboards.combined(sources, aggregate);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const own = ownCpuMs() - ownBefore;
        const held = loop.max / 1e6;
        const cpu = (await redisCpuMs(redis)) - cpuBefore;
        const usec = (await commandUsec(redis)) - before;
        const measured = times[i];
        measured.node.push(ms);
        measured.redis.push(usec / 1000);
        measured.cpu.push(cpu);
        measured.own.push(own);
        measured.held.push(held);
        measured.size = await leaderboards.size({ view });
        console.log(`round ${round + 1} ${label}: ${ms.toFixed(0)} ms (Redis ${(usec / 1000).toFixed(0)} ms, CPU ${cpu.toFixed(0)} ms; ` +
          `service CPU ${own.toFixed(0)} ms, event loop held ${held.toFixed(0)} ms), ${formatCount(measured.size)} entries`);
      }
    }
    // Redis' own ZUNIONSTORE of the same rankings, as a yardstick the machine's load moves alike:
    // it cannot make the view (each day's members differ in their tokens, so it keeps every
    // member of every day), but it reads the same entries and writes a set in C.
    const dayKeys = keys.map((key) => boardKeys(BOARD_ID).period('DAILY', key).ranking);
    for (let round = 0; round < options.rounds; round++) {
      const cpuBefore = await redisCpuMs(redis);
      const started = process.hrtime.bigint();
      await redis.zunionstore(boardKeys(BOARD_ID).period('DAILY', 'union').ranking, dayKeys.length, ...dayKeys);
      union.push(Number(process.hrtime.bigint() - started) / 1e6);
      unionCpu.push((await redisCpuMs(redis)) - cpuBefore);
      await redis.del(boardKeys(BOARD_ID).period('DAILY', 'union').ranking);
    }
    loop.disable();
    views.forEach(({ label }, i) => {
      const { node, redis: inRedis, cpu, own, held, size } = times[i];
      if (i === 0) [sumMedian, sumCpu] = [median(node), median(cpu)];
      rows.push(`| ${label} | ${formatCount(size)} | ${median(node).toFixed(0)} | ${median(inRedis).toFixed(0)} | ${median(cpu).toFixed(0)} | ` +
        `${median(own).toFixed(0)} | ${median(held).toFixed(0)} | ${node.map((t) => t.toFixed(0)).join(', ')} |`);
    });
    rows.push(`| ZUNIONSTORE (yardstick) | ${formatCount(members * days)} | ${median(union).toFixed(0)} | | ${median(unionCpu).toFixed(0)} | | | ${union.map((t) => t.toFixed(0)).join(', ')} |`);
  });
  const measured = days >= TARGET.days && members >= TARGET.members;
  const verdict = {
    target: `SUM of ${TARGET.days} daily periods of ${formatCount(TARGET.members)} members built in < ${TARGET.ms} ms (issue 13)`,
    result: `${sumMedian.toFixed(0)} ms${measured ? '' : ` for ${days} days of ${formatCount(members)}`} (median; ${sumCpu.toFixed(0)} ms of Redis CPU time)`,
    met: measured ? sumMedian < TARGET.ms : undefined,
  };
  return [
    verdictTable([verdict]),
    '',
    `A combined view of ${days} DAILY periods of one board (ALL_TIME + DAILY, BEST), ${formatCount(members)} members in`,
    `each (the same players every day, scores differing), filled through the domain's submit (${BATCH} a call) on`,
    `test clocks; each build reads the ${days} rankings a range of buckets a call (read_buckets.lua, about 2,000 entries a call), folds them in the service and writes the view`,
    `(ranking and id -> token hash) in chunks into keys of its own, renamed into place by one MULTI. A second board`,
    `(ALL_TIME only, the same players) is combined with the first board's ALL_TIME, each read by itself, as on a Cluster.`,
    `${options.rounds} rounds, each building every view once (order rotated); one throwaway`,
    'Redis (no persistence) on the same machine. "build ms" is the domain call from Node (checks, reads, combining,',
    'writes); "Redis ms" the time Redis spent in commands meanwhile (INFO commandstats), "Redis CPU ms" the CPU time',
    'Redis\' process used meanwhile (INFO cpu, user + system), which does not grow with the time it waits for a core',
    'on a loaded machine; "service CPU ms" the bench process\' own CPU time (where the entries are combined), and',
    '"loop held ms" the longest its event loop went without a turn during the build (what other requests would wait).',
    '',
    '| view | entries | build ms (median) | Redis ms (median) | Redis CPU ms (median) | service CPU ms (median) | loop held ms (median) | build ms by round |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `SUM over ${days} days of ${formatCount(members)}: ${(sumMedian / median(union)).toFixed(2)}x Redis' ZUNIONSTORE of the same ${days} rankings in the same run.`,
  ].join('\n');
}

runBench('combined', 'bench:combined', main);
