/**
 * Chaos (`npm run bench:soak -- --chaos`): writes over HTTP for minutes while Redis is made to
 * fail in turn, then every submission accounted for (test/support/writeLedger.ts): nothing
 * acknowledged lost, nothing applied twice, nothing answered NOT_APPLIED applied. The faults are
 * those of test/e2e/faults.redis.test.ts, on the service as it ships (main.ts in its own
 * process, NODE_ENV=production, keys and rate limits on) and for as long as asked:
 * - the server's command connection killed (CLIENT KILL TYPE normal);
 * - Redis killed with SIGKILL and restarted on the same data and port (AOF, appendfsync always,
 *   so every acknowledged write survives);
 * - Redis paused (SIGSTOP) for two command timeouts, during which a probe measures how long
 *   requests take to fail: the first about one timeout, the later ones at once.
 *
 *   npm run bench:soak -- --chaos                            # 2 minutes, 8 writers
 *   npm run bench:soak -- --chaos --minutes 10 --writers 16 --players 20 --gap 5
 *
 * Half the writers send idempotency keys and retry an UNKNOWN answer with the same key; the
 * others do not retry. Each writer takes `--players` new players per round, round after round.
 * `--gap`: seconds of undisturbed writes before each fault. Loopback only; it stops by itself.
 * Results go to BENCHMARKS.md (section "soak-chaos"); it exits 1 if any write was lost, applied twice
 * or answered wrongly.
 */
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import Redis from 'ioredis';
import { DurableRedis } from '../test/support/redis';
import { type Audit, runWriter, SUBMIT_INCREMENT, SUBMISSIONS_PER_PLAYER, WriteLedger } from '../test/support/writeLedger';
import { formatCount, parseArgs } from './cli';
import { inBatches } from './fixtures';
import { graphql, KEYS, type MainProcess, post, startServer, stopServer } from './mainProcess';
import { median, type Verdict, verdictTable } from './report';

export const CHAOS = process.argv.includes('--chaos');

const DEFAULTS = { minutes: 2, writers: 8, players: 10, gap: 2 };
export type ChaosOptions = typeof DEFAULTS;

/** Short, so that a pause costs the writers little, and long enough for this machine under load. */
const COMMAND_TIMEOUT_MS = 1_000;
const PAUSE_MS = 2 * COMMAND_TIMEOUT_MS;
/** Long enough for writes to be refused while Redis is down. */
const DOWN_MS = 500;
/** As a client backs off after a failure, and between two probes of a paused Redis. */
const BACKOFF_MS = 10;
/** Attempts at reading a batch back, 100 ms apart: the server may still be reconnecting after the last fault. */
const READ_ATTEMPTS = 100;
const BOARD = 'chaos';
const ENTRIES = 'query ($id: ID!, $ids: [ID!]!) { entries(leaderboardId: $id, playerIds: $ids) { playerId score } }';

/** parseArgs knows `--name value` options only: the flag is left out while it reads them, and kept for the command runBench records. */
export function chaosOptions(): ChaosOptions {
  const argv = process.argv;
  process.argv = argv.filter((arg) => arg !== '--chaos');
  try {
    const { options, sizes } = parseArgs(DEFAULTS, []);
    if (sizes.length > 0) throw new Error('--chaos takes no member counts: each writer makes its own players');
    return options;
  } finally {
    process.argv = argv;
  }
}

interface Pause {
  /** Milliseconds from sending to answer, for each failed request during the pause, in order. */
  failures: number[];
  /** What the first failed request was told. */
  firstOutcome: string;
}

interface Faults {
  connectionKills: number;
  connectionsKilled: number;
  crashes: number;
  pauses: Pause[];
}

export async function chaos(options: ChaosOptions): Promise<string> {
  const loadAtStart = os.loadavg()[0];
  const redis = await DurableRedis.start();
  // Our own connection, for CLIENT KILL: it reconnects by itself after a restart.
  const admin = new Redis(redis.url);
  admin.on('error', () => {});
  let server: MainProcess | undefined;
  try {
    server = await startServer(redis.url, {
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      // On, so every request still makes its count in Redis, and far above what the writers send.
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
    });
    const url = server.url;
    await graphql(url, KEYS.admin, JSON.stringify({ query: `mutation { createLeaderboard(input: { id: "${BOARD}", sortOrder: DESCENDING, updatePolicy: INCREMENT }) { leaderboard { id } } }` }));

    const endsAt = Date.now() + options.minutes * 60_000;
    const timeUp = () => Date.now() >= endsAt;
    const [keyed, unkeyed] = [new WriteLedger(), new WriteLedger()];
    const writerErrors: string[] = [];
    const writers = Array.from({ length: options.writers }, (_, w) => writeInRounds(w % 2 === 0 ? keyed : unkeyed, {
      url, name: `w${w}`, idempotent: w % 2 === 0, players: options.players, timeUp, errors: writerErrors,
    }));
    const [faults] = await Promise.all([injectFaults(redis, admin, url, options.gap * 1000, timeUp), ...writers]);

    const read = await totals(url, [...keyed.players, ...unkeyed.players]);
    const audits = [keyed.audit(read), unkeyed.audit(read)];
    const serverErrors = server.errorLines();
    const { exitCode, shutdownMs } = await stopServer(server);
    return report(options, audits, faults, { writerErrors, serverErrors, shutdown: `exited ${exitCode} in ${shutdownMs} ms`, loadAtStart });
  } catch (err) {
    // An INTERNAL_SERVER_ERROR answer says nothing more: the server's log says why.
    console.error(`what the server logged at level error:\n${server?.errorLines().join('\n') || '(nothing)'}`);
    throw err;
  } finally {
    // A run that failed mid-pause must not leave Redis stopped: a stopped process does not act on SIGTERM.
    signal(redis.pid, 'SIGCONT');
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    admin.disconnect();
    await redis.close();
  }
}

/** One writer, round after round of new players (a player takes SUBMISSIONS_PER_PLAYER submissions at most), until the time is up. */
async function writeInRounds(ledger: WriteLedger, writer: {
  url: string; name: string; idempotent: boolean; players: number; timeUp: () => boolean; errors: string[];
}): Promise<void> {
  const { url, name, idempotent, players, timeUp, errors } = writer;
  for (let round = 0; !timeUp(); round++) {
    try {
      await runWriter(ledger, {
        graphqlUrl: url, key: KEYS.writer, boardId: BOARD, name: `${name}-r${round}`, players, idempotent,
        backoffMs: BACKOFF_MS, goOn: () => !timeUp(),
      });
    } catch (err) {
      // An answer the server must never give; the round's last submission is then unaccounted for.
      errors.push(`${name}-r${round}: ${(err as Error).message}`);
    }
  }
}

/** The faults in turn, each after `gapMs` of undisturbed writes, until the time is up. */
async function injectFaults(redis: DurableRedis, admin: Redis, url: string, gapMs: number, timeUp: () => boolean): Promise<Faults> {
  const faults: Faults = { connectionKills: 0, connectionsKilled: 0, crashes: 0, pauses: [] };
  const cycle: [string, () => Promise<unknown>][] = [
    ['CLIENT KILL', async () => {
      faults.connectionsKilled += Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
      faults.connectionKills++;
    }],
    ['kill -9 and restart', async () => {
      signal(redis.pid, 'SIGKILL');
      await delay(DOWN_MS);
      await redis.restart();
      faults.crashes++;
    }],
    ['SIGSTOP', async () => {
      const paused = await pause(redis, url);
      faults.pauses.push(paused);
      const [first, ...later] = paused.failures;
      console.log(`  first failure in ${first?.toFixed(0)} ms, then ${later.length} in ${median(later).toFixed(0)} ms median, ${Math.max(...later).toFixed(0)} ms at most`);
    }],
  ];
  const startedAt = Date.now();
  for (let i = 0; ; i++) {
    await delay(gapMs);
    if (timeUp()) return faults;
    const [name, inject] = cycle[i % cycle.length];
    console.log(`${((Date.now() - startedAt) / 1000).toFixed(0)} s: ${name}`);
    await inject();
  }
}

/** SIGSTOP for PAUSE_MS, probing with writes meanwhile, one at a time, to time how they fail. */
async function pause(redis: DurableRedis, url: string): Promise<Pause> {
  const probe = JSON.stringify({ query: SUBMIT_INCREMENT, variables: { input: { leaderboardId: BOARD, playerId: 'pause-probe', score: 1 } } });
  const failures: number[] = [];
  let firstOutcome = '';
  signal(redis.pid, 'SIGSTOP');
  const resumeAt = Date.now() + PAUSE_MS;
  try {
    while (Date.now() < resumeAt) {
      const sent = performance.now();
      const outcome = await post(url, KEYS.writer, probe).then(
        ({ result }) => {
          const error = (result.errors?.[0] as { extensions?: { code?: string; outcome?: string } } | undefined)?.extensions;
          return error ? (error.outcome ?? String(error.code)) : 'applied';
        },
        () => 'no answer',
      );
      if (outcome !== 'applied') {
        failures.push(performance.now() - sent);
        firstOutcome ||= outcome;
      }
      await delay(BACKOFF_MS);
    }
  } finally {
    signal(redis.pid, 'SIGCONT');
  }
  return { failures, firstOutcome };
}

/** Every player's total, read through the API in batches of at most 1000. */
async function totals(url: string, players: string[]): Promise<Map<string, number>> {
  const read = new Map<string, number>();
  await inBatches(0, players.length, async (from, to) => {
    const body = JSON.stringify({ query: ENTRIES, variables: { id: BOARD, ids: players.slice(from, to) } });
    const { entries } = (await retried(() => graphql(url, KEYS.reader, body))) as { entries: ({ playerId: string; score: number } | null)[] };
    for (const entry of entries) if (entry) read.set(entry.playerId, entry.score);
  });
  return read;
}

async function retried<T>(ask: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (err) {
      if (attempt >= READ_ATTEMPTS) throw err;
      await delay(100);
    }
  }
}

/** A signal to Redis, which may just have died (a pid that is gone is no error here). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

const UNSAFE: [keyof Audit, string][] = [
  ['doubled', 'applied twice'],
  ['lost', 'lost (acknowledged, not on the board)'],
  ['appliedAfterNotApplied', 'applied after NOT_APPLIED'],
  ['replayedFirstAttempts', 'first attempts answered `replayed`'],
];
const OTHERS: [keyof Audit, string][] = [
  ['submissions', 'submissions'],
  ['acknowledged', 'acknowledged (data)'],
  ['notApplied', 'NOT_APPLIED'],
  ['unknown', 'unknown (UNKNOWN or no answer, not settled by a retry)'],
  ['unknownApplied', '... of which on the board'],
];

function report(
  options: ChaosOptions, [keyed, unkeyed]: Audit[], faults: Faults,
  { writerErrors, serverErrors, shutdown, loadAtStart }: { writerErrors: string[]; serverErrors: string[]; shutdown: string; loadAtStart: number },
): string {
  const verdicts: Verdict[] = [
    ...UNSAFE.map(([field, label]): Verdict => {
      const all = keyed[field] + unkeyed[field];
      return { target: `${label}: none`, result: formatCount(all), met: all === 0 };
    }),
    { target: 'writer errors (an answer other than data or UNAVAILABLE with an outcome): none', result: formatCount(writerErrors.length), met: writerErrors.length === 0 },
  ];
  if (!verdicts.every((verdict) => verdict.met)) process.exitCode = 1;
  const row = ([field, label]: [keyof Audit, string], target = '') =>
    `| ${label} | ${formatCount(keyed[field])} | ${formatCount(unkeyed[field])} | ${formatCount(keyed[field] + unkeyed[field])} | ${target} |`;
  const half = options.writers / 2;
  return [
    verdictTable(verdicts),
    '',
    `${options.minutes} min of writes from ${options.writers} writers over HTTP, one request at a time each (${Math.ceil(half)} with idempotency keys,`,
    `retrying an UNKNOWN answer with the same key; ${Math.floor(half)} without, not retrying), ${options.players} new players per writer and round, a player's`,
    `k-th submission adding 3^k on an INCREMENT board, up to ${SUBMISSIONS_PER_PLAYER} per player. The faults in turn, each after ${options.gap} s of undisturbed writes.`,
    `Redis keeps an AOF (appendfsync always); the server is main.ts in its own process (NODE_ENV=production, keys and rate limits on,`,
    `REDIS_COMMAND_TIMEOUT_MS=${COMMAND_TIMEOUT_MS}). Every player's total is read back through the API and each submission accounted for.`,
    '',
    '| submissions | with keys | without | all | target |',
    '| --- | --- | --- | --- | --- |',
    ...OTHERS.slice(0, 2).map((field) => row(field)),
    ...UNSAFE.map((field) => row(field, '0')),
    ...OTHERS.slice(2).map((field) => row(field)),
    '',
    '| fault | injected |',
    '| --- | --- |',
    `| command connection killed (CLIENT KILL TYPE normal) | ${faults.connectionKills} (${faults.connectionsKilled} connections) |`,
    `| Redis killed -9, restarted on its data and port ${DOWN_MS} ms later | ${faults.crashes} |`,
    `| Redis paused (SIGSTOP) for ${formatCount(PAUSE_MS)} ms | ${faults.pauses.length} |`,
    '',
    ...pauseTimings(faults.pauses),
    ...(writerErrors.length ? [`- First writer error: ${writerErrors[0]}.`] : []),
    `- Errors the server logged: ${serverErrors.length}${serverErrors.length ? `; first: \`${serverErrors[0].slice(0, 300)}\`` : ''}.`,
    `- SIGTERM after the run: ${shutdown}.`,
    `- Machine load (1-minute average, ${os.cpus().length} cores): ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
  ].join('\n');
}

function pauseTimings(pauses: Pause[]): string[] {
  const firsts = pauses.map((pause) => pause.failures[0]).filter((ms) => ms !== undefined);
  if (firsts.length === 0) return ['- No pause: the run was too short for one.'];
  const laters = pauses.flatMap((pause) => pause.failures.slice(1));
  const outcomes = new Map<string, number>();
  for (const { firstOutcome } of pauses) outcomes.set(firstOutcome, (outcomes.get(firstOutcome) ?? 0) + 1);
  return [
    `- Paused Redis, a write sent at once and then one after another until SIGCONT: the first failed in a median ${median(firsts).toFixed(0)} ms,`,
    `  at most ${Math.max(...firsts).toFixed(0)} ms (command timeout ${formatCount(COMMAND_TIMEOUT_MS)} ms), answered ${[...outcomes].map(([outcome, n]) => `${outcome} ${n} times`).join(', ')};`,
    `  the ${formatCount(laters.length)} later ones in a median ${median(laters).toFixed(1)} ms (at most ${Math.max(...laters).toFixed(1)} ms).`,
  ];
}
