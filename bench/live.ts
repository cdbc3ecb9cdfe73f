/**
 * Live updates under load: N graphql-ws clients subscribed to one board while a writer submits W
 * scores per second. Standings runs as it ships in its own process (bench/peers, loopback only,
 * on a throwaway Redis); the clients and the writer run here, the writer through the store (one
 * script call per write, as a game backend's write through any instance would be).
 *
 *   npm run bench:live                                       # 1,000, 5,000 and 10,000 clients
 *   npm run bench:live -- 10000 --writes 100 --seconds 20 --board 100000
 *   npm run bench:live -- 1000 5000 --seconds 10 --top-only 1 --rounds 3
 *   npm run bench:live -- 1000 5000 --seconds 10 --top-only 1 --workers 1,2
 *
 * `--rounds N` runs every row N times (each with its floor) and reports the ratio to the floor
 * per round and its median. `--workers 1,2` runs the shipped entry point (src/server/main.ts)
 * with STANDINGS_WORKERS set to each count in turn, the order alternating each round, instead
 * of the single-process peer; the server's CPU is then that of every process of it (the
 * primary and its workers), read from /proc, as it is for the single process.
 *
 * Four mixes, each on a fresh Redis and server, on a board of 100,000 players (client i is
 * player i, for the mixes that follow players):
 *   - top: every client follows topChanged(first: 10), and every write puts a new leader in the
 *     top 10. Worst case for spectators: every client gets an update every tick.
 *   - rank: client i follows rankChanged for player i, and each write gives a random one of those
 *     players a random score, which moves them past about a third of the board. Worst case for
 *     players: nearly every client gets an update every tick.
 *   - game: as rank, but each write improves a random player's score by 1 to 10, as players of a
 *     running game do: it moves them past a few others, so few clients get an update.
 *   - rank, every 1000: as rank, with the slower rate a subscription may ask for (`every: 1000`):
 *     moves caused by others at most once a second, the player's own write at once.
 * After each mix, the floor: a plain `ws` server (bench/wsFloor.ts, its own process) sends a frame
 * like the last update Standings sent to as many sockets at the rate Standings delivered them;
 * the server CPU per delivered update is compared with that floor's, measured in the same run.
 * Both are measured after `--warmup` seconds (default 30) of the same load, so that neither pays
 * for its JIT compiling the code it is about to run (the server has far more of it).
 * Latency is from just before a write is sent to Redis to when a client receives the first update
 * that shows it, so it includes the coalescing wait (up to 100 ms). For `top` every update counts
 * (via TopUpdate.version); for the others the update a player gets for their own write. The npm
 * script raises the open-file limit to its hard limit (each client is a socket here and in the
 * server). Results go to BENCHMARKS.md: section "live", or "live-rounds" with more than one
 * round, or "live-workers" with `--workers`, so that a shorter run does not replace the full one.
 *
 * To see where the server's time goes, kernel and every thread included (what Node's own profiler
 * counts as idle), run it with `BENCH_NODE_FLAGS=--perf-basic-prof` and, once it is measuring,
 * `perf record -e cpu-clock -g -p <server pid>`: the flag lets perf name the JavaScript it samples.
 */
import { execSync, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { type Client, createClient } from 'graphql-ws';
import type Redis from 'ioredis';
import WebSocket from 'ws';
import type { Submission } from '../src/model';
import { formatCount, parseArgs, runBench } from './cli';
import { BOARD_ID, growBoard, playerId, scoreOf, seededRandom, withBenchBoard } from './fixtures';
import { commandStats, redisCpuSeconds } from './load';
import { startServer, stopServer } from './mainProcess';
import { BENCH_API_KEY, BENCH_NODE_FLAGS, launchPeer } from './peers/launch';
import { median, type Verdict, verdictTable } from './report';

const { options, sizes } = parseArgs(
  { writes: 100, seconds: 20, warmup: 30, board: 100_000, 'top-only': 0, rounds: 1, workers: [] as number[] }, [1_000, 5_000, 10_000],
);
const CONNECTING_AT_ONCE = 200;
const TARGET = { clients: 10_000, writes: 100, p99Ms: 250 };
const HISTOGRAM_MS = 10_000;
const MAX_COMMANDS_PER_WRITE = 20;
const FLOOR_TARGET = 1.5;

interface Mix {
  name: 'top' | 'rank' | 'game' | 'rank, every 1000';
  subscription(client: number): { query: string; variables: Record<string, unknown> };
  /** The k-th write; `sentAt` is when it went out. */
  write(k: number, random: (below: number) => number, sentAt: number): Submission;
  /** Records the latencies of the writes an update shows for the first time. */
  received(client: number, data: any, now: number, record: (ms: number) => void): void;
}

function topMix(): Mix {
  const sent: number[] = [];
  let startVersion = 0;
  const seen = new Map<number, number>();
  return {
    name: 'top',
    subscription: () => ({
      query: 'subscription ($board: ID!) { topChanged(leaderboardId: $board, first: 10) { version entries { rank playerId score } } }',
      variables: { board: BOARD_ID },
    }),
    write(k, _random, sentAt) {
      // Every write makes a new leader, so the board's version after write k is startVersion + k + 1.
      sent[k] = sentAt;
      return { playerId: playerId(k % 50), score: 1_000_000 + k };
    },
    received(client, data, now, record) {
      const version = Number(data.topChanged.version);
      const last = seen.get(client);
      if (last === undefined) startVersion = Math.max(startVersion, version);
      else for (let v = last + 1; v <= version; v++) if (sent[v - startVersion - 1] !== undefined) record(now - sent[v - startVersion - 1]);
      seen.set(client, version);
    },
  };
}

/**
 * Client i follows rankChanged for player i; `nextScore` picks each write's new score for a random
 * one of them. Latency: a player's update that shows their own write.
 */
function playersMix(
  name: Mix['name'], clients: number, nextScore: (client: number, random: (below: number) => number) => number, every?: number,
): Mix {
  const pending = new Map<number, { score: number; sentAt: number }>();
  return {
    name,
    subscription: (client) => ({
      query: 'subscription ($board: ID!, $player: ID!, $every: Int) { rankChanged(leaderboardId: $board, playerId: $player, every: $every) { entry { rank score } previousRank cause } }',
      variables: { board: BOARD_ID, player: playerId(client), every },
    }),
    write(_k, random, sentAt) {
      const client = random(clients);
      const score = nextScore(client, random);
      pending.set(client, { score, sentAt });
      return { playerId: playerId(client), score };
    },
    received(client, data, now, record) {
      const write = pending.get(client);
      if (write && data.rankChanged.entry?.score === write.score) {
        record(now - write.sentAt);
        pending.delete(client);
      }
    },
  };
}

// The fraction tells this write's score from the player's earlier ones.
const randomScore = (_client: number, random: (below: number) => number) => random(3001) + (random(999) + 1) / 1000;

/** Random new scores: each write moves a player far, past about a third of the board. */
const rankMix = (clients: number) => playersMix('rank', clients, randomScore);

/** As rank, at the slower rate of `every: 1000`. */
const rankEveryMix = (clients: number) => playersMix('rank, every 1000', clients, randomScore, 1000);

/** Players improving a little, as in a running game: each write moves a player past a few others. */
function gameMix(clients: number): Mix {
  const scores = Float64Array.from({ length: clients }, (_, i) => scoreOf(i));
  return playersMix('game', clients, (client, random) => (scores[client] += 1 + random(10)));
}

class Histogram {
  private readonly counts = new Uint32Array(HISTOGRAM_MS + 1);
  count = 0;
  max = 0;

  record(ms: number): void {
    this.counts[Math.min(HISTOGRAM_MS, Math.max(0, Math.floor(ms)))]++;
    this.count++;
    this.max = Math.max(this.max, ms);
  }

  percentile(share: number): number {
    let seen = 0;
    for (let ms = 0; ms <= HISTOGRAM_MS; ms++) {
      seen += this.counts[ms];
      if (seen > share * this.count) return ms + 1;
    }
    return HISTOGRAM_MS;
  }
}

interface Floor {
  updatesPerSecond: number;
  cpuMicrosPerUpdate: number;
}

/**
 * The floor for `clients` sockets: bench/wsFloor.ts sends `frame` to each of them at
 * `updatesPerSecond` in all, for the bench's seconds; its CPU per frame delivered.
 */
async function measureFloor(clients: number, frame: string, updatesPerSecond: number): Promise<Floor> {
  const child = fork(join(__dirname, 'wsFloor.ts'), [], { execArgv: [...BENCH_NODE_FLAGS, '-r', 'ts-node/register/transpile-only'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const sockets: WebSocket[] = [];
  try {
    const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', resolve));
    let delivered = 0;
    for (let from = 0; from < clients; from += CONNECTING_AT_ONCE) {
      await Promise.all(
        Array.from({ length: Math.min(CONNECTING_AT_ONCE, clients - from) }, () => new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}`);
          sockets.push(socket);
          socket.on('message', () => delivered++);
          socket.once('open', () => resolve());
          socket.once('error', reject);
        })),
      );
    }
    // One frame to every socket per interval: `updatesPerSecond` frames a second in all; measured
    // after the same warm-up as the server.
    child.send({ frame, intervalMs: Math.max(1, (1000 * clients) / Math.max(1, updatesPerSecond)) });
    await delay(options.warmup * 1000);
    child.send('mark');
    delivered = 0;
    const started = performance.now();
    await delay(options.seconds * 1000);
    const stopped = new Promise<{ cpuSeconds: number }>((resolve) => child.once('message', resolve));
    child.send('stop');
    const { cpuSeconds } = await stopped;
    const elapsed = (performance.now() - started) / 1000;
    await delay(200); // the frames still on their way
    return { updatesPerSecond: delivered / elapsed, cpuMicrosPerUpdate: (cpuSeconds * 1e6) / Math.max(1, delivered) };
  } finally {
    sockets.forEach((socket) => socket.terminate());
    child.kill();
  }
}

/** Opens `count` clients, each with its subscription, and resolves once every one has its first update. */
async function connectClients(url: string, count: number, mix: Mix, onData: (client: number, data: any) => void): Promise<Client[]> {
  const clients: Client[] = [];
  for (let from = 0; from < count; from += CONNECTING_AT_ONCE) {
    const batch = Array.from({ length: Math.min(CONNECTING_AT_ONCE, count - from) }, (_, j) => from + j);
    await Promise.all(
      batch.map(
        (i) =>
          new Promise<void>((resolve, reject) => {
            const client = createClient({
              url: url.replace(/^http/, 'ws'),
              webSocketImpl: WebSocket,
              connectionParams: { authorization: `Bearer ${BENCH_API_KEY}` },
              retryAttempts: 0,
            });
            clients.push(client);
            let first = true;
            client.subscribe(mix.subscription(i), {
              next: (message) => {
                if (message.errors) return reject(new Error(JSON.stringify(message.errors)));
                onData(i, message.data);
                if (first) resolve();
                first = false;
              },
              error: (err) => reject(err instanceof Error ? err : new Error(`client ${i}: ${JSON.stringify(err)}`)),
              complete: () => undefined,
            });
          }),
      ),
    );
  }
  return clients;
}

/**
 * What process `root` and every process under it (a primary's workers) use: CPU seconds so far
 * and resident memory now, from Linux /proc/PID/stat (utime and stime in USER_HZ ticks of 10 ms,
 * rss in pages). Read from outside rather than through the server's /metrics, which would cost
 * the server the bench's polling.
 */
function processTree(root: number): { cpuSeconds: number; rssMb: number } {
  const stats = new Map<number, { parent: number; ticks: number; rssPages: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command name, which is in parentheses and may hold anything.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    stats.set(Number(name), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) });
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, { parent }] of stats) {
      if (!tree.has(parent) || tree.has(pid)) continue;
      tree.add(pid);
      grew = true;
    }
  }
  let ticks = 0;
  let pages = 0;
  for (const pid of tree) {
    ticks += stats.get(pid)?.ticks ?? 0;
    pages += stats.get(pid)?.rssPages ?? 0;
  }
  return { cpuSeconds: ticks / 100, rssMb: (pages * PAGE_BYTES) / 2 ** 20 };
}

interface Server {
  url: string;
  pid: number;
  stop(): Promise<unknown>;
}

/** Standings as bench:service's peer runs it, or, for `--workers`, the shipped entry point with that many workers. */
async function startStandings(redisUrl: string, workers: number | undefined): Promise<Server> {
  if (workers === undefined) return launchPeer('standings', redisUrl);
  const server = await startServer(redisUrl, {
    STANDINGS_API_KEYS: `writer:${BENCH_API_KEY}`, RATE_LIMIT_PER_KEY: '0', STANDINGS_WORKERS: String(workers),
  });
  return { url: server.url, pid: server.child.pid!, stop: () => stopServer(server) };
}

/** CPU seconds the whole machine spent busy (Linux /proc/stat, in USER_HZ ticks of 10 ms). */
function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) / 100;
}

async function redisCounters(redis: Redis) {
  const calls = [...(await commandStats(redis)).values()].reduce((sum, command) => sum + command.calls, 0);
  return { calls, cpuSeconds: await redisCpuSeconds(redis) };
}

const PAGE_BYTES = Number(execSync('getconf PAGESIZE', { encoding: 'utf8' }));
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
const LOAD_BEFORE = loadavg().map((load) => load.toFixed(2)).join(', ');

interface Row {
  clients: number;
  mix: string;
  /** STANDINGS_WORKERS, with `--workers`. */
  workers: number | undefined;
  round: number;
  writesPerSecond: number;
  updatesPerSecond: number;
  latency: Histogram;
  serverCpu: number;
  rssStartMb: number;
  rssPeakMb: number;
  redisCallsPerWrite: number;
  redisCpu: number;
  benchCpu: number;
  /** CPU the rest of the machine (other processes: another bench, a build) used meanwhile. */
  otherCpu: number;
  floor: Floor;
}

async function run(clients: number, mix: Mix, workers: number | undefined, round: number): Promise<Row> {
  let row: Omit<Row, 'floor'> | undefined;
  let lastUpdate: unknown;
  const boardSize = Math.max(options.board, clients);
  await withBenchBoard(boardSize, async (redisUrl, store) => {
    await growBoard(store, 0, boardSize, false);
    const peer = await startStandings(redisUrl, workers);
    let connected: Client[] = [];
    try {
      const latency = new Histogram();
      let updates = 0;
      /** What the measurement starts from, once the warm-up is over. */
      const readCounters = async () => ({
        updates, redis: await redisCounters(store.redis as Redis), serverCpu: processTree(peer.pid).cpuSeconds,
        cpu: process.cpuUsage(), machine: machineBusySeconds(), at: performance.now(),
      });
      let before: Awaited<ReturnType<typeof readCounters>> | undefined;
      connected = await connectClients(peer.url, clients, mix, (client, data) => {
        updates++;
        lastUpdate = data;
        mix.received(client, data, performance.now(), (ms) => before && latency.record(ms));
      });
      const { rssMb: rssStartMb } = processTree(peer.pid);
      let rssPeakMb = rssStartMb;
      const sampler = setInterval(() => {
        rssPeakMb = Math.max(rssPeakMb, processTree(peer.pid).rssMb);
      }, 1000);

      // The first `warmup` seconds of writes let the server's JIT settle; the measured ones follow.
      const random = seededRandom(clients);
      const warmupWrites = options.writes * options.warmup;
      const total = options.writes * options.seconds;
      const writesStarted = performance.now();
      for (let k = 0; k < warmupWrites + total; k++) {
        if (k === warmupWrites) before = await readCounters();
        const wait = writesStarted + (k * 1000) / options.writes - performance.now();
        if (wait > 0) await delay(wait);
        const sentAt = performance.now();
        await store.submit(BOARD_ID, [mix.write(k, random, sentAt)]);
      }
      const { updates: updatesBefore, redis: redisBefore, serverCpu: serverCpuBefore, cpu: cpuBefore, machine: machineBefore, at: started } = before!;
      const writingSeconds = (performance.now() - started) / 1000;
      await delay(1000); // the last updates
      clearInterval(sampler);
      const elapsed = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const machine = (machineBusySeconds() - machineBefore) / elapsed;
      const { cpuSeconds: serverCpuAfter, rssMb: rssEndMb } = processTree(peer.pid);
      const serverCpu = (serverCpuAfter - serverCpuBefore) / elapsed;
      const redisAfter = await redisCounters(store.redis as Redis);
      const redisCpu = (redisAfter.cpuSeconds - redisBefore.cpuSeconds) / elapsed;
      const benchCpu = (cpu.user + cpu.system) / 1e6 / elapsed;
      row = {
        clients,
        mix: mix.name,
        workers,
        round,
        writesPerSecond: total / writingSeconds,
        updatesPerSecond: (updates - updatesBefore) / elapsed,
        latency,
        serverCpu,
        rssStartMb,
        rssPeakMb: Math.max(rssPeakMb, rssEndMb),
        // Less the two INFO calls of the first reading, which the second one counts.
        redisCallsPerWrite: (redisAfter.calls - redisBefore.calls - 2) / total,
        redisCpu,
        benchCpu,
        otherCpu: Math.max(0, machine - serverCpu - redisCpu - benchCpu),
      };
    } finally {
      await Promise.all(connected.map((client) => client.dispose()));
      await peer.stop();
    }
  });
  // The frame Standings sends for an update, as graphql-ws carries it.
  const frame = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', type: 'next', payload: { data: lastUpdate } });
  const measured = { ...row!, floor: await measureFloor(clients, frame, row!.updatesPerSecond) };
  console.log(
    `${formatCount(clients)} clients, ${mix.name}${workers === undefined ? '' : `, ${workers} worker(s)`}, round ${round + 1}: p50 ${measured.latency.percentile(0.5)} ms, p99 ${measured.latency.percentile(0.99)} ms, ` +
      `${formatCount(Math.round(measured.updatesPerSecond))} updates/s, server CPU ${percent(measured.serverCpu)}, ` +
      `${serverMicros(measured).toFixed(1)} µs per update (floor ${measured.floor.cpuMicrosPerUpdate.toFixed(1)}), rest of the machine ${percent(measured.otherCpu)}`,
  );
  return measured;
}

const serverMicros = (row: Pick<Row, 'serverCpu' | 'updatesPerSecond'>) => (row.serverCpu * 1e6) / row.updatesPerSecond;
const floorRatio = (row: Row) => serverMicros(row) / row.floor.cpuMicrosPerUpdate;
const MIXES: ((clients: number) => Mix)[] = [topMix, rankMix, gameMix, rankEveryMix];
const WORKER_COUNTS: (number | undefined)[] = options.workers.length ? options.workers : [undefined];
const SECTION = options.workers.length ? 'live-workers' : options.rounds > 1 ? 'live-rounds' : 'live';

/** The rows of one row of the report (clients, mix, workers), one per round. */
function groups(rows: Row[]): Row[][] {
  const byKey = new Map<string, Row[]>();
  for (const row of rows) {
    const key = `${row.clients}\n${row.mix}\n${row.workers}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  return [...byKey.values()];
}

runBench(SECTION, 'bench:live', async () => {
  const rows: Row[] = [];
  for (const clients of sizes) {
    for (const makeMix of options['top-only'] ? MIXES.slice(0, 1) : MIXES) {
      for (let round = 0; round < options.rounds; round++) {
        // Side by side: the order of the worker counts alternates each round.
        for (const workers of round % 2 === 0 ? WORKER_COUNTS : [...WORKER_COUNTS].reverse()) {
          rows.push(await run(clients, makeMix(clients), workers, round));
        }
      }
    }
  }
  const withWorkers = options.workers.length > 0;
  const withRounds = options.rounds > 1;
  /** The columns that tell rows apart: clients, mix, and the worker count and round where there are several. */
  const label = (row: Row) => [
    formatCount(row.clients), row.mix, ...(withWorkers ? [String(row.workers)] : []), ...(withRounds ? [String(row.round + 1)] : []),
  ];
  const labelHeads = ['clients', 'mix', ...(withWorkers ? ['workers'] : []), ...(withRounds ? ['round'] : [])];
  const tableOf = (heads: string[], lines: (string | number)[][]) => [
    `| ${heads.join(' | ')} |`, `| ${heads.map(() => '---').join(' | ')} |`, ...lines.map((line) => `| ${line.join(' | ')} |`),
  ];
  const table = tableOf(
    [...labelHeads, 'writes/s', 'updates/s delivered', 'latency samples', 'p50 ms', 'p99 ms', 'max ms', 'server CPU', 'server CPU µs per update',
      'server RSS MB (connected / peak)', 'Redis commands per write', 'Redis CPU', 'load generator CPU', 'rest of the machine'],
    rows.map((row) => [
      ...label(row), row.writesPerSecond.toFixed(0), formatCount(Math.round(row.updatesPerSecond)),
      formatCount(row.latency.count), row.latency.percentile(0.5), row.latency.percentile(0.99), Math.ceil(row.latency.max),
      percent(row.serverCpu), serverMicros(row).toFixed(0),
      `${row.rssStartMb.toFixed(0)} / ${row.rssPeakMb.toFixed(0)}`, row.redisCallsPerWrite.toFixed(1),
      percent(row.redisCpu), percent(row.benchCpu), percent(row.otherCpu),
    ]),
  );
  const floorTable = tableOf(
    [...labelHeads, 'Standings updates/s', 'Standings server CPU µs per update', 'floor updates/s', 'floor CPU µs per update', 'Standings / floor'],
    rows.map((row) => [
      ...label(row), formatCount(Math.round(row.updatesPerSecond)), serverMicros(row).toFixed(1),
      formatCount(Math.round(row.floor.updatesPerSecond)), row.floor.cpuMicrosPerUpdate.toFixed(1), floorRatio(row).toFixed(2),
    ]),
  );
  const medianRatio = (group: Row[]) => median(group.map(floorRatio));
  const mediansTable = tableOf(
    ['clients', 'mix', ...(withWorkers ? ['workers'] : []), 'Standings / floor per round', 'median', 'Standings µs per update (median)', 'floor µs per update (median)'],
    groups(rows).map((group) => [
      formatCount(group[0].clients), group[0].mix, ...(withWorkers ? [String(group[0].workers)] : []),
      group.map((row) => floorRatio(row).toFixed(2)).join(', '), `**${medianRatio(group).toFixed(2)}**`,
      median(group.map(serverMicros)).toFixed(1), median(group.map((row) => row.floor.cpuMicrosPerUpdate)).toFixed(1),
    ]),
  );
  const workersTable = tableOf(
    ['clients', 'mix', 'workers', 'updates/s delivered (median)', 'server CPU, all processes (median)', 'server CPU µs per update (median)', 'p99 ms (median)'],
    groups(rows).map((group) => [
      formatCount(group[0].clients), group[0].mix, String(group[0].workers),
      formatCount(Math.round(median(group.map((row) => row.updatesPerSecond)))), percent(median(group.map((row) => row.serverCpu))),
      median(group.map(serverMicros)).toFixed(1), median(group.map((row) => row.latency.percentile(0.99))),
    ]),
  );
  const atTarget = rows.filter((row) => row.clients === TARGET.clients && options.writes === TARGET.writes);
  const latencyTarget = `issue 4: p99 under ${TARGET.p99Ms} ms at ${formatCount(TARGET.clients)} subscribers, ${TARGET.writes} writes/s`;
  const latencyVerdicts: Verdict[] = atTarget.length
    ? atTarget.map((row) => ({
      target: `${latencyTarget}, ${label(row).slice(1).join(', ')}`,
      result: `${row.latency.percentile(0.99)} ms`,
      met: row.latency.percentile(0.99) < TARGET.p99Ms,
    }))
    : [{ target: latencyTarget, result: 'no such row in this run', met: undefined }];
  const commands = rows.map((row) => row.redisCallsPerWrite);
  const commandsVerdict: Verdict = {
    target: `issue 16: at most ${MAX_COMMANDS_PER_WRITE} Redis commands per write in every row`,
    result: [...new Set([Math.min(...commands), Math.max(...commands)].map((n) => n.toFixed(1)))].join('-'),
    met: commands.every((n) => n <= MAX_COMMANDS_PER_WRITE),
  };
  const floorTarget = `issue 16: server CPU per update at most ${FLOOR_TARGET}x the floor's, top mix`;
  const topGroups = groups(rows).filter((group) => group[0].mix === 'top');
  const floorVerdicts: Verdict[] = topGroups.length
    ? topGroups.map((group) => ({
      target: `${floorTarget}, ${formatCount(group[0].clients)} subscribers${withWorkers ? `, STANDINGS_WORKERS=${group[0].workers}` : ''}`,
      result: withRounds ? `median ${medianRatio(group).toFixed(2)} of ${group.length} rounds` : medianRatio(group).toFixed(2),
      met: medianRatio(group) <= FLOOR_TARGET,
    }))
    : [{ target: floorTarget, result: 'no top mix in this run', met: undefined }];
  return [
    verdictTable([...latencyVerdicts, commandsVerdict, ...floorVerdicts]),
    '',
    `${options.writes} writes/s for ${options.seconds} s per row, measured after ${options.warmup} s of them to warm up (the floor too); board of ${formatCount(options.board)} players (or one per client, if more); ` +
      'one client = one graphql-ws connection with one subscription. Latency: from sending a write to a client receiving the first update that shows it. ' +
      `Server CPU and memory: the server's processes (${withWorkers ? 'the primary and its workers' : 'one'}), from /proc. Load average before the run: ${LOAD_BEFORE}.`,
    '',
    ...table,
    '',
    'Per-frame floor, measured right after each row: a plain `ws` server (bench/wsFloor.ts, its own process) sending the last update',
    "Standings sent, as a graphql-ws frame, to as many sockets at Standings' delivered rate.",
    '',
    ...floorTable,
    ...(withRounds || withWorkers ? ['', ...mediansTable] : []),
    ...(withWorkers ? ['', `Worker counts side by side (STANDINGS_WORKERS; medians over ${options.rounds} round(s)):`, '', ...workersTable] : []),
  ].join('\n');
});
