/**
 * Soak: the service as it ships (src/server/main.ts in its own process, NODE_ENV=production, API
 * keys and rate limits on) under a fixed, mixed load for a while: reads and writes over HTTP at a
 * fixed rate, and subscriptions over WebSocket that stay open while some are closed and reopened
 * every second. It reports every error (there must be none), p99 latency window by window (it must
 * not drift upwards) and the server's memory (it must stay flat), then stops the server with
 * SIGTERM, which must close every WebSocket with 1001 and exit 0.
 *
 *   npm run bench:soak                                   # 2 minutes, 200 requests/s, 100 subscriptions
 *   npm run bench:soak -- --minutes 10 --rate 400 --subscribers 300 50000
 *
 * Options: --window (seconds per row, default 10), --warmup (seconds left out of the verdict while
 * V8 sizes its heap and compiles the hot paths, default 30).
 * The last number is the board's size (default 10,000). Loopback only; it stops by itself.
 * Results go to BENCHMARKS.md (section "soak").
 *
 * `--chaos` runs bench/chaos.ts instead: writes while Redis fails in turn, every one accounted for.
 */
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startManagedRedis } from '../test/support/managedRedis';
import { CHAOS, chaos, chaosOptions } from './chaos';
import { formatCount, parseArgs, runBench } from './cli';
import { BOARD_ID, inBatches, playerId, seededRandom } from './fixtures';
import { percentile, scrapeMetrics } from './load';
import { graphql, KEYS, startServer, stopServer } from './mainProcess';
import { around, entries100, entry, type Operation, submitScore, top10 } from './operations';
import { type Verdict, verdictTable } from './report';

const DEFAULTS = { minutes: 2, rate: 200, subscribers: 100, window: 10, warmup: 30 };
// The chaos run (bench/chaos.ts) takes options of its own.
const { options, sizes } = CHAOS ? { options: DEFAULTS, sizes: [] } : parseArgs(DEFAULTS, [10_000]);
const MEMBERS = sizes[0];
/** Share of requests per operation; writes go with the writer key, reads with the reader key. */
const MIX: [Operation, number][] = [[submitScore, 0.3], [entry, 0.25], [top10, 0.2], [around, 0.15], [entries100, 0.1]];
/** Subscriptions closed and reopened each second, as a share of those open. */
const CHURN = 0.02;
const WARM_UP_WINDOWS = Math.ceil(options.warmup / options.window);
const RAMP_SECONDS = 10;
/** A flat run: no error, p99 and the server's RSS grown by at most these from the first half of the measured windows to the second. */
const MAX_P99_DRIFT = 1.5;
const MAX_RSS_GROWTH = 0.1;

interface Window {
  requests: number;
  latencies: number[];
  updates: number;
  rssMb: number;
  heapMb: number;
  subscriptions: number;
}

const errors: string[] = [];
const loadAtStart = os.loadavg()[0];
const fail = (what: string) => {
  if (errors.length < 20) console.error(`error: ${what}`);
  errors.push(what);
};

async function fillBoard(url: string): Promise<void> {
  const create = `mutation { createLeaderboard(input: { id: "${BOARD_ID}", sortOrder: DESCENDING, updatePolicy: LATEST, capacity: ${MEMBERS} }) { leaderboard { id } } }`;
  await graphql(url, KEYS.admin, JSON.stringify({ query: create }));
  const random = seededRandom(MEMBERS);
  await inBatches(0, MEMBERS, async (from, to) => {
    const inputs = Array.from({ length: to - from }, (_, i) => ({
      leaderboardId: BOARD_ID, playerId: playerId(from + i), score: random(3001),
    }));
    await graphql(url, KEYS.writer, JSON.stringify({ query: 'mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { results { changed } } }', variables: { inputs } }));
  });
}

/** Server-side memory and subscriptions, from its own /metrics. */
async function serverGauges(url: string): Promise<Pick<Window, 'rssMb' | 'heapMb' | 'subscriptions'>> {
  const value = await scrapeMetrics(url);
  return {
    rssMb: value('process_resident_memory_bytes') / 2 ** 20,
    heapMb: value('nodejs_heap_size_used_bytes') / 2 ** 20,
    subscriptions: value('standings_active_subscriptions'),
  };
}

/** One graphql-ws connection holding one subscription, as a game client on a results screen would. */
function subscriber(url: string, random: (below: number) => number, onUpdate: () => void) {
  const closeCodes: number[] = [];
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${KEYS.reader}` },
    retryAttempts: 0,
    lazy: false,
    // How a connection ended is recorded by `closed` below (and failures by the subscription's sink).
    onNonLazyError: () => {},
    on: { closed: (event) => closeCodes.push((event as { code: number }).code) },
  });
  const player = playerId(random(MEMBERS));
  const queries = [
    `subscription { topChanged(leaderboardId: "${BOARD_ID}", first: 10) { version entries { playerId rank } } }`,
    `subscription { rankChanged(leaderboardId: "${BOARD_ID}", playerId: "${player}") { cause entry { rank score } } }`,
    `subscription { aroundChanged(leaderboardId: "${BOARD_ID}", playerId: "${player}", radius: 5) { entries { playerId rank } } }`,
  ];
  let ending = false;
  let first: () => void;
  const started = new Promise<void>((resolve) => (first = resolve));
  client.subscribe({ query: queries[random(queries.length)] }, {
    next: (message) => {
      first();
      if (message.errors) fail(`subscription: ${JSON.stringify(message.errors)}`);
      else onUpdate();
    },
    error: (error) => {
      if (!ending) fail(`subscription failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
    },
    complete: () => {
      if (!ending) fail('the server completed a subscription');
    },
  });
  return {
    closeCodes,
    /** Resolves with the subscription's first message (its snapshot). */
    started,
    /** The server is going away: what it sends now is expected. */
    expectEnd: () => (ending = true),
    close: async () => {
      ending = true;
      await client.dispose();
    },
  };
}

async function soak(): Promise<string> {
  const redis = await startManagedRedis({ persistence: 'none' });
  // On, so every request pays for its count in Redis, but far above this load.
  const limit = String(options.rate * 100);
  const server = await startServer(redis.url, { RATE_LIMIT_PER_KEY: limit, RATE_LIMIT_PER_IP: limit });
  try {
    await fillBoard(server.url);
    const random = seededRandom(42);
    const windows: Window[] = [];
    let current: Omit<Window, 'rssMb' | 'heapMb' | 'subscriptions'> = { requests: 0, latencies: [], updates: 0 };
    const bodies = MIX.map(([operation]) => (n: number) => JSON.stringify({ query: operation.query, variables: operation.variables(random, n) }));

    const subscribers = Array.from({ length: options.subscribers }, () => subscriber(server.url, random, () => current.updates++));
    // The clients are there before the load starts, as on a running service.
    await Promise.all(subscribers.map((open) => open.started));
    const churn = setInterval(() => {
      const replaced = Math.ceil(subscribers.length * CHURN);
      for (const gone of subscribers.splice(0, replaced)) void gone.close();
      for (let i = 0; i < replaced; i++) subscribers.push(subscriber(server.url, random, () => current.updates++));
    }, 1000);

    // Open loop: requests leave on schedule whether or not earlier ones have come back, as from
    // many independent clients; a backlog of a second's worth means the server cannot keep up.
    let inFlight = 0;
    const send = () => {
      let pick = random(1000) / 1000;
      const index = Math.max(0, MIX.findIndex(([, share]) => (pick -= share) < 0));
      const [operation] = MIX[index];
      if (inFlight >= options.rate) return fail('backlog: a second of requests still in flight');
      inFlight++;
      const started = process.hrtime.bigint();
      const batch = current;
      graphql(server.url, operation === submitScore ? KEYS.writer : KEYS.reader, bodies[index](MEMBERS))
        .then(() => batch.latencies.push(Number(process.hrtime.bigint() - started) / 1e6), (err: Error) => fail(`${operation.name}: ${err.message}`))
        .finally(() => inFlight--);
      batch.requests++;
    };
    const startedAt = Date.now();
    const endsAt = startedAt + options.minutes * 60_000;
    let sent = 0;
    let windowEnds = startedAt + options.window * 1000;
    while (Date.now() < endsAt) {
      // The rate ramps up over the first RAMP_SECONDS, as traffic does when a service joins a pool:
      // a cold process (unoptimised code, a heap still growing) is not what a soak measures.
      const elapsed = (Date.now() - startedAt) / 1000;
      const due = Math.floor(options.rate * (elapsed < RAMP_SECONDS ? elapsed ** 2 / (2 * RAMP_SECONDS) : elapsed - RAMP_SECONDS / 2));
      for (; sent < due; sent++) send();
      if (Date.now() >= windowEnds) {
        windows.push({ ...current, ...(await serverGauges(server.url)) });
        current = { requests: 0, latencies: [], updates: 0 };
        windowEnds += options.window * 1000;
        console.log(`window ${windows.length}: p99 ${percentile(windows.at(-1)!.latencies, 0.99).toFixed(1)} ms, RSS ${windows.at(-1)!.rssMb.toFixed(1)} MB`);
      }
      await delay(5);
    }
    clearInterval(churn);
    while (inFlight > 0) await delay(10);
    if (current.requests > 0) windows.push({ ...current, ...(await serverGauges(server.url)) });

    // SIGTERM with every subscription still open: each must be closed with 1001 Going away.
    subscribers.forEach((open) => open.expectEnd());
    const { exitCode, shutdownMs } = await stopServer(server);
    await delay(200);
    const closeCodes = subscribers.flatMap((open) => open.closeCodes);
    if (exitCode !== 0) fail(`the server exited with ${exitCode} after SIGTERM`);
    const wrongCloses = closeCodes.filter((code) => code !== 1001);
    if (wrongCloses.length > 0 || closeCodes.length !== subscribers.length) {
      fail(`WebSocket close codes at shutdown: ${closeCodes.length} of ${subscribers.length} closed, not 1001: ${wrongCloses.join(', ') || 'none'}`);
    }
    const goingAway = closeCodes.length - wrongCloses.length;
    return report(windows, `exited ${exitCode} in ${shutdownMs} ms; ${goingAway} of ${subscribers.length} WebSockets closed with 1001`);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await redis.stop();
  }
}

function report(windows: Window[], shutdown: string): string {
  const measured = windows.slice(WARM_UP_WINDOWS);
  const p99 = (window: Window) => percentile(window.latencies, 0.99);
  // The measured windows in two halves: a trend shows as a second half worse than the first,
  // where one slow window or one GC cycle at either end does not.
  const half = Math.floor(measured.length / 2);
  const [early, late] = [measured.slice(0, half), measured.slice(-half)];
  const p99Drift = percentile(late.map(p99), 0.5) / percentile(early.map(p99), 0.5);
  // Peaks: RSS follows the GC's sawtooth, and a leak shows as peaks that keep rising.
  const peakRss = (part: Window[]) => Math.max(...part.map((window) => window.rssMb));
  const [rssBefore, rssAfter] = [peakRss(early), peakRss(late)];
  const rssGrowth = rssAfter / rssBefore - 1;
  const requests = windows.reduce((sum, window) => sum + window.requests, 0);
  const updates = windows.reduce((sum, window) => sum + window.updates, 0);
  const verdicts: Verdict[] = [
    { target: 'no error, in requests or subscription updates', result: `${errors.length} in ${formatCount(requests)} requests and ${formatCount(updates)} updates`, met: errors.length === 0 },
    {
      target: `p99 drift (median p99 of the last ${half} windows over that of the first ${half} after warm-up) <= ${MAX_P99_DRIFT}x`,
      result: `${p99Drift.toFixed(2)}x`,
      met: p99Drift <= MAX_P99_DRIFT,
    },
    {
      target: `server RSS growth (peak of the last ${half} windows over the peak of the first ${half} after warm-up) <= ${MAX_RSS_GROWTH * 100}%`,
      result: `${(rssGrowth * 100).toFixed(1)}% (${rssBefore.toFixed(1)} -> ${rssAfter.toFixed(1)} MB)`,
      met: rssGrowth <= MAX_RSS_GROWTH,
    },
  ];
  if (!verdicts.every((verdict) => verdict.met)) process.exitCode = 1;

  const rows = windows.map((window, i) => [
    `| ${Math.min((i + 1) * options.window, options.minutes * 60)} s${i < WARM_UP_WINDOWS ? ' (warm-up)' : ''}`, formatCount(window.requests),
    percentile(window.latencies, 0.5).toFixed(1), p99(window).toFixed(1), formatCount(window.updates),
    window.subscriptions, window.rssMb.toFixed(1), `${window.heapMb.toFixed(1)} |`,
  ].join(' | '));
  return [
    verdictTable(verdicts),
    '',
    `${options.minutes} min at ${options.rate} requests/s, reached by a ${RAMP_SECONDS} s ramp (${MIX.map(([operation, share]) => `${operation.name} ${share * 100}%`).join(', ')}),`,
    `${options.subscribers} subscriptions held open over WebSocket (topChanged, rankChanged, aroundChanged; ${CHURN * 100}% of them`,
    `closed and reopened every second), on a board of ${formatCount(MEMBERS)} players. The server is main.ts in its own process`,
    '(NODE_ENV=production, keys and rate limits on); latencies are measured by the client, memory is the server\'s.',
    '',
    '| until | requests | p50 ms | p99 ms | subscription updates | open subscriptions | server RSS MB | heap used MB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(errors.length ? [`- First error: ${errors[0]}.`] : []),
    `- SIGTERM with the subscriptions open: ${shutdown}.`,
    `- Machine load (1-minute average, ${os.cpus().length} cores): ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; other work on the machine shows in the latencies.`,
  ].join('\n');
}

if (CHAOS) runBench('soak-chaos', 'bench:soak', () => chaos(chaosOptions()));
else runBench('soak', 'bench:soak', soak);
