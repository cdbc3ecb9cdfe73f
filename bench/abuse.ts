/**
 * Abuse (issue 30's proof): the service as it ships (src/server/main.ts in its own process,
 * NODE_ENV=production, keys and the shipped limits on) with normal readers at a fixed rate, first
 * alone, then beside one abusive client of each kind in turn:
 * - combined views: 20 aliases of `combined` over 16 sources (4 boards x 4 periods), every alias
 *   with weights of its own, alternating with `nodes(ids:)` of 20 crafted `CombinedView` ids that
 *   differ in weight (VIEW_ENTRIES_PER_REQUEST, RATE_LIMIT_VIEW_ENTRIES);
 * - Node ids: `nodes(ids:)` with 300 and 1,000 `RankWindow` ids of radius 500 (the query cost);
 * - live: sockets each sending 100 `aroundChanged(radius: 500)` on a 1,000-entry board that a
 *   writer changes 10 times a second (LIVE_COST_PER_CONNECTION, LIVE_COST_PER_CLIENT);
 * - slow headers: raw TCP connections that trickle header lines and never finish a request
 *   (MAX_CONNECTIONS_PER_IP, HTTP_HEADERS_TIMEOUT_MS);
 * - silent upgrades: WebSocket upgrades that never send `connection_init` (RATE_LIMIT_PER_IP
 *   counted at the upgrade, MAX_CONNECTIONS_PER_IP, graphql-ws' 3 s init timeout).
 * Each phase measures the normal readers' latency and errors, the server's RSS and what the abuser
 * got (answers by kind, with their codes and `details.limit`, and how long they took). A phase
 * passes when the readers' p99 is at most 2x their p99 alone, they met no error, the RSS stayed
 * under RSS_BOUND_MB, and the abuser met clear refusals (and nothing else unclear: no internal
 * error, no timeout) while the server logged no error and kept running.
 *
 *   npm run bench:abuse                                   # 20 s a phase, readers at 100/s, 25,000 players a board
 *   npm run bench:abuse -- --seconds 30 --rate 200 --players 10000 --abuseRate 100
 *
 * The server is the built one (`npm run bench:abuse` builds it first), as `npm start` runs it:
 * under ts-node every Error's stack also goes through source-map support, a cost of each refusal
 * that a shipped server does not have. The abusers run in a process of their own (this file,
 * forked), so the work they make for themselves (parsing 1,001-entry windows) does not delay the
 * readers' measurements; on a 2-core machine it still takes CPU from the server, as the load
 * generator does. Every client kind
 * connects from a loopback address of its own (127.0.0.x, so the per-address connection cap
 * tells them apart) and names its own client address in X-Forwarded-For (TRUST_PROXY_HOPS=1, so
 * the rate limits and live-cost limits tell them apart). Loopback only; it stops by itself.
 * Results go to BENCHMARKS.md (section "abuse"); it exits 1 when a phase fails.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import Redis from 'ioredis';
import WebSocket from 'ws';
import { startManagedRedis } from '../test/support/managedRedis';
import { Leaderboards } from '../src/domain/leaderboards';
import { decodeNodeId, encodeNodeId } from '../src/graphql/nodeIds';
import { LeaderboardStore } from '../src/store/leaderboardStore';
import { formatCount, parseArgs, runBench } from './cli';
import { verdictTable, type Verdict } from './report';
import { type Config, loadConfig } from '../src/server/config';
import { BOARD_ID, FOUR_PERIODS, fourPeriodBoard, inBatches, playerId, scoreOf, seededRandom } from './fixtures';
import { percentile, scrapeMetrics } from './load';
import { KEYS, startServer, stopServer } from './mainProcess';
import { entry, top10 } from './operations';

const DEFAULTS = { seconds: 20, rate: 100, players: 25_000, abuseRate: 200, warmup: 10 };
/**
 * The bound on the server's RSS: about twice what it holds under the soak's steady mixed load
 * (BENCHMARKS.md, "Soak": 250-290 MB, ts-node's compiler of about 100 MB included, which a built
 * `npm start` does not carry). A limit that let one client make the server hold its working set
 * again (a view build per alias, a window per Node id, an update queue per refused subscription)
 * would pass it; a 1 GiB container keeps it with room to spare.
 */
const RSS_BOUND_MB = 512;
const P99_RATIO = 2;
const NORMAL_BOARD_SIZE = 10_000;
const LIVE_BOARD = 'abuse-live';
const LIVE_BOARD_SIZE = 1_000;
const VIEW_BOARDS = ['abuse-view-0', 'abuse-view-1', 'abuse-view-2', 'abuse-view-3'];
const ALIASES = 20;
/** Normal readers: game clients at addresses of their own, each far below RATE_LIMIT_PER_IP. */
const READER_ADDRESSES = 20;
/** Requests an HTTP abuser keeps in flight; each kind is also paced at --abuseRate. */
const ABUSER_CONCURRENCY = 4;
const LIVE_SOCKETS = 10;
const SUBSCRIPTIONS_PER_SOCKET = 100;
const LIVE_WRITES_PER_SECOND = 10;
/** Raw connections the slow-header abuser holds at once: more than MAX_CONNECTIONS_PER_IP. */
const SLOW_SOCKETS = 400;
const MAX_CONNECTIONS_PER_IP = 256;
const SETTLE_MS = 3_000;

type AbuseKind = 'combined' | 'nodeIds' | 'live' | 'slowHeaders' | 'silentUpgrades';

/** Each client kind: the loopback address it connects from, and the client address it forwards. */
const CLIENTS: Record<'normal' | AbuseKind | 'writer', { local: string; forwarded: string }> = {
  normal: { local: '127.0.0.1', forwarded: '10.1.0.' },
  combined: { local: '127.0.0.2', forwarded: '10.6.6.2' },
  nodeIds: { local: '127.0.0.3', forwarded: '10.6.6.3' },
  slowHeaders: { local: '127.0.0.4', forwarded: '10.6.6.4' },
  silentUpgrades: { local: '127.0.0.5', forwarded: '10.6.6.5' },
  live: { local: '127.0.0.6', forwarded: '10.6.6.6' },
  writer: { local: '127.0.0.7', forwarded: '10.6.6.7' },
};

const PHASES: { name: string; abuser?: AbuseKind; what: string }[] = [
  { name: 'baseline', what: 'normal readers alone' },
  { name: 'combined views', abuser: 'combined', what: `${ALIASES} aliases of combined() over 16 sources, each with weights of its own, alternating with nodes(ids:) of ${ALIASES} crafted CombinedView ids` },
  { name: 'Node ids', abuser: 'nodeIds', what: 'nodes(ids:) with 300 and 1,000 RankWindow ids of radius 500' },
  { name: 'live', abuser: 'live', what: `${LIVE_SOCKETS} sockets x ${SUBSCRIPTIONS_PER_SOCKET} aroundChanged(radius: 500), distinct players, on a ${formatCount(LIVE_BOARD_SIZE)}-entry board written ${LIVE_WRITES_PER_SECOND} times/s` },
  { name: 'slow headers', abuser: 'slowHeaders', what: `up to ${SLOW_SOCKETS} raw connections at once, each trickling a header line a second` },
  { name: 'silent upgrades', abuser: 'silentUpgrades', what: 'WebSocket upgrades that never send connection_init' },
  { name: 'baseline again', what: 'normal readers alone, after the abusers' },
];

// ---------------------------------------------------------------------------------------------
// What a client got, by kind

/** One answer (or item of one) the abuser got: what it was, and whether it is a clear refusal. */
interface Outcome {
  label: string;
  clear: boolean;
}

interface AbuseResult {
  /** Answers by label. */
  outcomes: Record<string, { count: number; clear: boolean; latencies: number[] }>;
  /** Milliseconds per request (per subscription for live: to its first message). */
  latencies: number[];
  /** Of those, the ones answered with refusals alone (no data). */
  refusalLatencies: number[];
  cpuMs: number;
  notes: string[];
}

const DATA: Outcome = { label: 'data', clear: false };
const REFUSAL_CODES = new Set(['RATE_LIMITED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST']);

interface GraphQLError {
  message?: string;
  extensions?: { code?: string; details?: { limit?: string } };
}

/** A GraphQL error as a label: its code and details.limit; clear when it is a limit's refusal. */
function errorOutcome(error: GraphQLError, prefix = ''): Outcome {
  const code = error.extensions?.code ?? 'no code';
  const limit = error.extensions?.details?.limit;
  return { label: `${prefix}${code}${limit ? ` ${limit}` : ''}`, clear: REFUSAL_CODES.has(code) && limit !== undefined };
}

/** An HTTP answer's outcomes: one for a refused request, else one per error and one per item of data. */
function httpOutcomes(status: number, text: string, dataItems: (data: unknown) => number): Outcome[] {
  let body: { data?: unknown; errors?: GraphQLError[] } | undefined;
  try {
    body = text ? (JSON.parse(text) as typeof body) : undefined;
  } catch {
    // not JSON: labelled by its status alone
  }
  if (status !== 200) {
    const error = body?.errors?.[0];
    if (!error) return [{ label: `HTTP ${status}`, clear: status === 408 }];
    const outcome = errorOutcome(error, `HTTP ${status} `);
    return [{ ...outcome, clear: outcome.clear && (status === 429 || status === 400) }];
  }
  const answered = body?.data ? dataItems(body.data) : 0;
  return [...Array.from({ length: answered }, () => DATA), ...(body?.errors ?? []).map((error) => errorOutcome(error))];
}

class Tally {
  readonly result: AbuseResult = { outcomes: {}, latencies: [], refusalLatencies: [], cpuMs: 0, notes: [] };

  add(outcomes: Outcome[], ms: number): void {
    for (const { label, clear } of outcomes) {
      const kind = (this.result.outcomes[label] ??= { count: 0, clear, latencies: [] });
      kind.count++;
      if (kind.latencies.length < 100_000) kind.latencies.push(ms);
    }
    this.result.latencies.push(ms);
    if (outcomes.length > 0 && outcomes.every((outcome) => outcome.clear)) this.result.refusalLatencies.push(ms);
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP from a given client

/** A POST from `agent` (a loopback address of its own) naming `forwarded` as the client address. */
function post(url: string, agent: http.Agent, forwarded: string, key: string, body: string, timeoutMs = 30_000): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST', agent, timeout: timeoutMs,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-forwarded-for': forwarded },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
    request.on('error', reject);
    request.end(body);
  });
}

const errorLabel = (err: unknown): Outcome => ({ label: `error ${(err as { code?: string }).code ?? (err as Error).message}`, clear: false });

/** Resolves at most `rate` times a second. */
function pacer(rate: number): () => Promise<void> {
  let next = Date.now();
  return async () => {
    const wait = next - Date.now();
    next = Math.max(next, Date.now()) + 1000 / rate;
    if (wait > 0) await delay(wait);
  };
}

// ---------------------------------------------------------------------------------------------
// The abusers (in the forked process)

interface AbuserConfig {
  kind: AbuseKind;
  url: string;
  seconds: number;
  abuseRate: number;
}

/** A client that sends `body()` over HTTP as fast as it is answered, `ABUSER_CONCURRENCY` at a time, paced at abuseRate. */
async function httpAbuser(config: AbuserConfig, tally: Tally, body: (n: number) => string, dataItems: (data: unknown) => number): Promise<void> {
  const { local, forwarded } = CLIENTS[config.kind];
  const agent = new http.Agent({ keepAlive: true, maxSockets: ABUSER_CONCURRENCY, localAddress: local });
  const endsAt = Date.now() + config.seconds * 1000;
  const pace = pacer(config.abuseRate);
  let sent = 0;
  await Promise.all(Array.from({ length: ABUSER_CONCURRENCY }, async () => {
    while (Date.now() < endsAt) {
      await pace();
      const text = body(sent++);
      const started = performance.now();
      try {
        const { status, text: answer } = await post(config.url, agent, forwarded, KEYS.reader, text);
        tally.add(httpOutcomes(status, answer, dataItems), performance.now() - started);
      } catch (err) {
        tally.add([errorLabel(err)], performance.now() - started);
      }
    }
  }));
  agent.destroy();
}

/** The least a read may ask of a view and still have it built: what an abuser would send. */
const VIEW_SELECTION = 'totalCount';
const nonNull = (values: unknown[]) => values.filter((value) => value !== null && value !== undefined).length;

async function combinedAbuser(config: AbuserConfig, tally: Tally): Promise<void> {
  const variables = Array.from({ length: ALIASES }, (_, i) => `$v${i}: [CombinedSourceInput!]!`).join(', ');
  const fields = Array.from({ length: ALIASES }, (_, i) => `v${i}: combined(sources: $v${i}) { id ${VIEW_SELECTION} }`).join(' ');
  const query = `query (${variables}) { ${fields} }`;
  const sources = (weight: number) => VIEW_BOARDS.flatMap((leaderboardId) => FOUR_PERIODS.kinds.map(({ kind }) => ({ leaderboardId, period: { kind }, weight })));
  /** A weight no earlier alias used: each alias is a view of its own, which no cache shares. */
  const weightOf = (n: number, i: number) => 1 + (n * ALIASES + i + 1) / 1024;

  // The crafted ids: a real view's id (periods named by their keys), with weights above any alias'
  // (which stay below 1,000 for the first 50,000 requests), so no crafted view is one already built.
  const first = await post(config.url, new http.Agent({ localAddress: CLIENTS.combined.local }), CLIENTS.combined.forwarded, KEYS.reader,
    JSON.stringify({ query: `query ($s: [CombinedSourceInput!]!) { combined(sources: $s) { id } }`, variables: { s: sources(0.5) } }));
  const view = decodeNodeId((JSON.parse(first.text) as { data: { combined: { id: string } } }).data.combined.id);
  if (view?.type !== 'CombinedView') throw new Error(`no CombinedView id in ${first.text.slice(0, 300)}`);
  const crafted = (n: number) => Array.from({ length: ALIASES }, (_, i) => encodeNodeId({
    type: 'CombinedView', view: { ...view.view, sources: view.view.sources.map((source) => ({ ...source, weight: 1000 + weightOf(n, i) })) },
  }));
  const nodesQuery = `query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on CombinedView { ${VIEW_SELECTION} } } }`;

  await httpAbuser(config, tally, (n) => (n % 2 === 0
    ? JSON.stringify({ query, variables: Object.fromEntries(Array.from({ length: ALIASES }, (_, i) => [`v${i}`, sources(weightOf(n, i))])) })
    : JSON.stringify({ query: nodesQuery, variables: { ids: crafted(n) } })),
  (data) => {
    const answer = data as Record<string, unknown> & { nodes?: unknown[] };
    return answer.nodes ? nonNull(answer.nodes) : nonNull(Object.values(answer));
  });
}

async function nodeIdsAbuser(config: AbuserConfig, tally: Tally): Promise<void> {
  const random = seededRandom(30);
  const query = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on RankWindow { entries { playerId rank score } } } }';
  const ids = (count: number) => Array.from({ length: count }, () => encodeNodeId({ type: 'RankWindow', boardId: BOARD_ID, playerId: playerId(random(NORMAL_BOARD_SIZE)), radius: 500 }));
  const bodies = [300, 1000].map((count) => JSON.stringify({ query, variables: { ids: ids(count) } }));
  await httpAbuser(config, tally, (n) => bodies[n % 2], (data) => nonNull((data as { nodes: unknown[] }).nodes));
}

/** One reader opening sockets of 100 window subscriptions each while a writer moves the board. */
async function liveAbuser(config: AbuserConfig, tally: Tally): Promise<void> {
  const { local, forwarded } = CLIENTS.live;
  const endsAt = Date.now() + config.seconds * 1000;
  const sockets: WebSocket[] = [];
  let updates = 0;
  let unexpectedCloses = 0;
  const writer = (async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: CLIENTS.writer.local });
    const random = seededRandom(7);
    const pace = pacer(LIVE_WRITES_PER_SECOND);
    let failed = 0;
    const submit = 'mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { changed } }';
    while (Date.now() < endsAt) {
      await pace();
      const input = { leaderboardId: LIVE_BOARD, playerId: playerId(random(LIVE_BOARD_SIZE)), score: random(3001) };
      const { status, text } = await post(config.url, agent, CLIENTS.writer.forwarded, KEYS.writer, JSON.stringify({ query: submit, variables: { input } }))
        .catch((err: Error) => ({ status: 0, text: err.message }));
      if (status !== 200 || text.includes('"errors"')) failed++;
    }
    agent.destroy();
    if (failed > 0) tally.result.notes.push(`${failed} of the writer's writes failed`);
  })();

  for (let s = 0; s < LIVE_SOCKETS && Date.now() < endsAt; s++) {
    const socket = new WebSocket(config.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { localAddress: local, headers: { 'x-forwarded-for': forwarded } });
    sockets.push(socket);
    const sentAt = new Map<string, number>();
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${KEYS.reader}` } })));
    socket.on('message', (raw: Buffer) => {
      // An update of a held window is 1,001 entries: counted by its head, never parsed, so that
      // reading them costs this process little of the CPU the server shares.
      const head = raw.subarray(0, 64).toString();
      const id = /"id":"([^"]+)"/.exec(head)?.[1];
      if (id !== undefined && !sentAt.has(id)) {
        updates++;
        return;
      }
      const message = (raw.length > 16_384 ? { type: 'next', id, payload: {} } : JSON.parse(raw.toString())) as { type: string; id?: string; payload?: unknown };
      if (message.type === 'connection_ack') {
        for (let i = 0; i < SUBSCRIPTIONS_PER_SOCKET; i++) {
          const id = String(i);
          const player = playerId((s * SUBSCRIPTIONS_PER_SOCKET + i) % LIVE_BOARD_SIZE);
          sentAt.set(id, performance.now());
          socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: `subscription { aroundChanged(leaderboardId: "${LIVE_BOARD}", playerId: "${player}", radius: 500) { entries { playerId rank score } } }` } }));
        }
      } else if (message.type === 'next' || message.type === 'error') {
        const ms = performance.now() - sentAt.get(message.id!)!;
        sentAt.delete(message.id!);
        if (message.type === 'error') tally.add((message.payload as GraphQLError[]).map((error) => errorOutcome(error)), ms);
        else tally.add([(message.payload as { errors?: GraphQLError[] }).errors ? errorOutcome((message.payload as { errors: GraphQLError[] }).errors[0]) : DATA], ms);
      }
    });
    socket.on('close', (code) => {
      if (Date.now() < endsAt) {
        unexpectedCloses++;
        tally.add([{ label: `close ${code}`, clear: code === 4029 }], 0);
      }
    });
    socket.on('error', (err) => tally.add([errorLabel(err)], 0));
    await delay(500);
  }
  await delay(Math.max(0, endsAt - Date.now()));
  await writer;
  // Closed as a client leaving would close them (a close frame, then the server's), not reset.
  await Promise.race([Promise.all(sockets.map((socket) => new Promise((closed) => {
    socket.once('close', closed);
    socket.close(1000);
  }))), delay(2_000)]);
  tally.result.notes.push(`${formatCount(updates)} updates received on the subscriptions held`);
  if (unexpectedCloses > 0) tally.result.notes.push(`${unexpectedCloses} sockets closed by the server`);
}

/** Raw connections that send a request line and then a header line a second, never the blank line. */
async function slowHeadersAbuser(config: AbuserConfig, tally: Tally): Promise<void> {
  const { port } = new URL(config.url);
  const endsAt = Date.now() + config.seconds * 1000;
  const pace = pacer(config.abuseRate);
  const open = new Set<net.Socket>();
  const connect = () => new Promise<void>((done) => {
    const started = performance.now();
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: CLIENTS.slowHeaders.local });
    open.add(socket);
    let answer = '';
    let lines = 0;
    const trickle = setInterval(() => socket.write(`x-trickle-${lines++}: ${'a'.repeat(20)}\r\n`), 1000);
    socket.on('connect', () => socket.write(`POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\nx-forwarded-for: ${CLIENTS.slowHeaders.forwarded}\r\n`));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(trickle);
      open.delete(socket);
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0);
      const ms = performance.now() - started;
      if (Date.now() < endsAt || status !== 0) {
        tally.add(status === 0 ? [{ label: 'closed without an answer', clear: false }] : httpOutcomes(status, answer.split('\r\n\r\n')[1] ?? '', () => 0), ms);
      }
      done();
    });
  });
  const holders = Array.from({ length: SLOW_SOCKETS }, async () => {
    while (Date.now() < endsAt) {
      await pace();
      await Promise.race([connect(), delay(Math.max(0, endsAt - Date.now()))]);
    }
  });
  await Promise.all(holders);
  for (const socket of open) socket.destroy();
}

/** WebSocket upgrades that open and then say nothing. */
async function silentUpgradesAbuser(config: AbuserConfig, tally: Tally): Promise<void> {
  const { local, forwarded } = CLIENTS.silentUpgrades;
  const endsAt = Date.now() + config.seconds * 1000;
  const pace = pacer(config.abuseRate);
  const sockets = new Set<WebSocket>();
  const pending: Promise<void>[] = [];
  while (Date.now() < endsAt) {
    await pace();
    const started = performance.now();
    pending.push(new Promise<void>((done) => {
      const socket = new WebSocket(config.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { localAddress: local, headers: { 'x-forwarded-for': forwarded } });
      sockets.add(socket);
      let settled = false;
      const settle = (outcomes: Outcome[]) => {
        if (!settled) tally.add(outcomes, performance.now() - started);
        settled = true;
        sockets.delete(socket);
        done();
      };
      socket.on('unexpected-response', (_request, response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => settle(httpOutcomes(response.statusCode ?? 0, Buffer.concat(chunks).toString(), () => 0)));
        response.on('error', (err) => settle([errorLabel(err)]));
      });
      socket.on('close', (code) => settle([{ label: `close ${code}`, clear: code === 4408 }]));
      socket.on('error', (err) => {
        // After 'unexpected-response' ws reports the aborted upgrade too: the answer is what counts.
        setTimeout(() => settle([errorLabel(err)]), 100);
      });
    }));
  }
  // Those still open are closed by the server within its 3 s init timeout.
  await Promise.race([Promise.all(pending), delay(5_000)]);
  for (const socket of sockets) socket.terminate();
}

async function runAbuser(config: AbuserConfig): Promise<AbuseResult> {
  const tally = new Tally();
  const cpu = process.cpuUsage();
  const abusers: Record<AbuseKind, (config: AbuserConfig, tally: Tally) => Promise<void>> = {
    combined: combinedAbuser, nodeIds: nodeIdsAbuser, live: liveAbuser, slowHeaders: slowHeadersAbuser, silentUpgrades: silentUpgradesAbuser,
  };
  await abusers[config.kind](config, tally);
  const used = process.cpuUsage(cpu);
  tally.result.cpuMs = (used.user + used.system) / 1000;
  return tally.result;
}

/** Runs one abuser in a process of its own; resolves with what it got. */
function forkAbuser(config: AbuserConfig): { child: ChildProcess; result: Promise<AbuseResult> } {
  const child = fork(__filename, [], { execArgv: ['-r', 'ts-node/register/transpile-only'], env: { ...process.env, ABUSER: JSON.stringify(config) }, stdio: 'inherit' });
  const result = new Promise<AbuseResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as AbuseResult));
    child.once('exit', (code) => reject(new Error(`the ${config.kind} abuser exited (${code}) without a result`)));
  });
  return { child, result };
}

// ---------------------------------------------------------------------------------------------
// The normal readers and the phases (in the bench's process)

interface PhaseResult {
  name: string;
  what: string;
  latencies: number[];
  errors: string[];
  rssMaxMb: number;
  /** V8's heap at the phase's end (after the settling time): used and allocated, MB. */
  heapMb: { used: number; total: number };
  serverErrors: string[];
  exited: boolean;
  abuse?: AbuseResult;
}

/** VmRSS of process `pid` in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** Open loop: top-10 and entry reads leave on schedule at `rate`, from READER_ADDRESSES client addresses. */
async function normalReaders(url: string, seconds: number, rate: number, random: (below: number) => number): Promise<{ latencies: number[]; errors: string[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, localAddress: CLIENTS.normal.local });
  const latencies: number[] = [];
  const errors: string[] = [];
  let inFlight = 0;
  let sent = 0;
  const startedAt = Date.now();
  const send = () => {
    if (inFlight >= rate) return void errors.push('backlog: a second of requests still in flight');
    const operation = sent % 2 === 0 ? top10 : entry;
    const body = JSON.stringify({ query: operation.query, variables: operation.variables(random, NORMAL_BOARD_SIZE) });
    const forwarded = `${CLIENTS.normal.forwarded}${1 + (sent % READER_ADDRESSES)}`;
    inFlight++;
    const started = performance.now();
    post(url, agent, forwarded, KEYS.reader, body)
      .then(({ status, text }) => {
        if (status === 200 && !text.includes('"errors"')) latencies.push(performance.now() - started);
        else errors.push(`${operation.name}: HTTP ${status} ${text.slice(0, 200)}`);
      }, (err: Error) => errors.push(`${operation.name}: ${err.message}`))
      .finally(() => inFlight--);
  };
  while (Date.now() < startedAt + seconds * 1000) {
    const due = Math.floor(((Date.now() - startedAt) / 1000) * rate);
    for (; sent < due; sent++) send();
    await delay(2);
  }
  while (inFlight > 0) await delay(5);
  agent.destroy();
  return { latencies, errors };
}

async function loadBoards(redisUrl: string, players: number): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const store = new LeaderboardStore(redis);
    const leaderboards = new Leaderboards(store);
    for (const [id, size] of [[BOARD_ID, NORMAL_BOARD_SIZE], [LIVE_BOARD, LIVE_BOARD_SIZE]] as const) {
      await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: size });
      await inBatches(0, size, (start, end) => leaderboards.submit(Array.from({ length: end - start }, (_, k) => ({ boardId: id, playerId: playerId(start + k), score: scoreOf(start + k) }))));
    }
    for (const id of VIEW_BOARDS) {
      await fourPeriodBoard(store, id, 'BEST', players);
      console.log(`  ${id}: ${formatCount(players)} players in 4 periods`);
    }
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<string> {
  const { options, sizes } = parseArgs(DEFAULTS, []);
  if (sizes.length > 0) throw new Error('bench:abuse takes options only (--seconds, --rate, --players, --abuseRate, --warmup)');
  const loadAtStart = os.loadavg()[0];
  const redis = await startManagedRedis({ persistence: 'none' });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let running: ChildProcess | undefined;
  try {
    await loadBoards(redis.url, options.players);
    // The shipped limits, but every client's address read from X-Forwarded-For, and the connection
    // cap (counted on the peer's own address) set as it is by default without a proxy.
    const settings = { TRUST_PROXY_HOPS: '1', MAX_CONNECTIONS_PER_IP: String(MAX_CONNECTIONS_PER_IP) };
    server = await startServer(redis.url, settings, { built: true });
    const { url } = server;
    const pid = server.child.pid!;
    const random = seededRandom(42);
    console.log(`warm-up: ${options.warmup} s of normal readers`);
    await normalReaders(url, options.warmup, options.rate, random);

    const results: PhaseResult[] = [];
    for (const phase of PHASES) {
      if (server.child.exitCode !== null) break;
      console.log(`${phase.name}: ${phase.what}`);
      const errorsBefore = server.errorLines().length;
      let rssMax = rssMb(pid);
      const sampler = setInterval(() => {
        if (server!.child.exitCode === null) rssMax = Math.max(rssMax, rssMb(pid));
      }, 200);
      const abuser = phase.abuser ? forkAbuser({ kind: phase.abuser, url, seconds: options.seconds, abuseRate: options.abuseRate }) : undefined;
      running = abuser?.child;
      const [normal, abuse] = await Promise.all([normalReaders(url, options.seconds, options.rate, random), abuser?.result]);
      running = undefined;
      // What the abuser left behind (closing sockets, views being built) is still the phase's.
      await delay(SETTLE_MS);
      clearInterval(sampler);
      const metric = server.child.exitCode === null ? await scrapeMetrics(url) : () => NaN;
      const result: PhaseResult = {
        ...phase, ...normal, abuse, rssMaxMb: rssMax,
        heapMb: { used: metric('nodejs_heap_size_used_bytes') / 2 ** 20, total: metric('nodejs_heap_size_total_bytes') / 2 ** 20 },
        serverErrors: server.errorLines().slice(errorsBefore), exited: server.child.exitCode !== null,
      };
      results.push(result);
      for (const line of result.serverErrors.slice(0, 3)) console.error(`  server error: ${line}`);
      console.log(`  normal p50 ${percentile(normal.latencies, 0.5)?.toFixed(1)} ms, p99 ${percentile(normal.latencies, 0.99)?.toFixed(1)} ms, ` +
        `${normal.errors.length} errors, RSS max ${rssMax.toFixed(0)} MB${abuse ? `; abuser: ${outcomesText(abuse)}` : ''}`);
    }
    const { exitCode } = await stopServer(server);
    // The limits the server ran with, as its own configuration reads them (the shipped defaults but for `settings`).
    const limits = loadConfig(server.env);
    return report(options, limits, results, `exited ${exitCode} after SIGTERM`, loadAtStart);
  } finally {
    if (running?.exitCode === null) running.kill('SIGKILL');
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await redis.stop();
  }
}

const outcomesText = (abuse: AbuseResult) => Object.entries(abuse.outcomes)
  .sort(([, a], [, b]) => b.count - a.count)
  .map(([label, { count }]) => `${label} ${formatCount(count)}`).join('; ');

const ms = (value: number | undefined) => (value === undefined ? '-' : value < 100 ? value.toFixed(1) : formatCount(Math.round(value)));

function report(options: typeof DEFAULTS, limits: Config, results: PhaseResult[], shutdown: string, loadAtStart: number): string {
  // The readers alone, before and after the abusers, pooled: a single phase's p99 (its 20 slowest of
  // 2,000 reads, at the defaults) moves by itself on a busy 2-core machine.
  const baseline = percentile(results.filter((phase) => !phase.abuse).flatMap((phase) => phase.latencies), 0.99);
  let failed = results.length < PHASES.length;
  const verdicts: Verdict[] = [];
  const rows = results.map((phase) => {
    const p99 = percentile(phase.latencies, 0.99);
    const ratio = p99 / baseline;
    const latencyMet = ratio <= P99_RATIO;
    const abuse = phase.abuse;
    const answers = abuse ? Object.values(abuse.outcomes).reduce((sum, { count }) => sum + count, 0) : 0;
    const clear = abuse ? Object.values(abuse.outcomes).filter((kind) => kind.clear).reduce((sum, { count }) => sum + count, 0) : 0;
    const unclear = abuse ? Object.entries(abuse.outcomes).filter(([label, kind]) => !kind.clear && label !== 'data') : [];
    const refusedClearly = !abuse || (clear > 0 && unclear.length === 0);
    const ok = latencyMet && phase.errors.length === 0 && phase.rssMaxMb <= RSS_BOUND_MB && refusedClearly && phase.serverErrors.length === 0 && !phase.exited;
    if (!ok) failed = true;
    if (abuse) {
      verdicts.push({
        target: `${phase.name}: readers' p99 at most ${P99_RATIO}x alone, no read failed, RSS at most ${RSS_BOUND_MB} MB, clear refusals`,
        result: `${ratio.toFixed(2)}x, ${phase.errors.length} failed, ${phase.rssMaxMb.toFixed(0)} MB, ${((clear / Math.max(1, answers)) * 100).toFixed(0)}% clear` +
          `${phase.serverErrors.length || phase.exited ? `, the server ${phase.exited ? 'exited' : 'logged errors'}` : ''}`,
        met: ok,
      });
    }
    return `| ${phase.name} | ${ms(percentile(phase.latencies, 0.5))} | ${ms(p99)} | ${ratio.toFixed(2)}x | ${latencyMet ? 'met' : '**missed**'} | ` +
      `${phase.errors.length} | ${phase.rssMaxMb.toFixed(0)} | ${abuse ? `${outcomesText(abuse)} (${((clear / Math.max(1, answers)) * 100).toFixed(0)}% clear refusals)` : '-'} | ` +
      `${abuse ? `${ms(percentile(abuse.latencies, 0.99))} (refusals ${ms(percentile(abuse.refusalLatencies, 0.99))})` : '-'} | ${ok ? 'pass' : '**FAIL**'} |`;
  });
  if (failed) process.exitCode = 1;
  const details = results.flatMap((phase) => {
    const lines: string[] = [];
    if (phase.abuse) {
      const byLabel = Object.entries(phase.abuse.outcomes).sort(([, a], [, b]) => b.count - a.count)
        .map(([label, { count, latencies }]) => `${label} ${formatCount(count)} (p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))} ms)`);
      lines.push(`- ${phase.name} (${phase.what}): ${byLabel.join('; ')}; the abuser used ${formatCount(Math.round(phase.abuse.cpuMs))} ms of CPU` +
        `${phase.abuse.notes.length ? `; ${phase.abuse.notes.join('; ')}` : ''}.`);
    }
    lines.push(`- ${phase.name}: server RSS max ${phase.rssMaxMb.toFixed(0)} MB; V8 heap at its end ${phase.heapMb.used.toFixed(0)} MB used of ${phase.heapMb.total.toFixed(0)} MB.`);
    if (phase.errors.length) lines.push(`- ${phase.name}: ${phase.errors.length} normal reads failed; first: ${phase.errors[0]}`);
    if (phase.serverErrors.length) lines.push(`- ${phase.name}: the server logged ${phase.serverErrors.length} errors; first: ${phase.serverErrors[0].slice(0, 300)}`);
    if (phase.exited) lines.push(`- ${phase.name}: **the server exited**.`);
    return lines;
  });
  const { rateLimits, liveCostLimits, httpTimeouts } = limits;
  const count = (value: number) => formatCount(value);
  return [
    verdictTable(verdicts),
    '',
    `Normal readers (top 10 and one entry, alternately, on a board of ${formatCount(NORMAL_BOARD_SIZE)} players, with the reader key, from ${READER_ADDRESSES}`,
    `client addresses) at ${options.rate} requests/s, open loop, for ${options.seconds} s a phase after ${options.warmup} s of warm-up: alone, then beside one abusive`,
    `client at a time (each with the same reader key, its own client address, at most ${ABUSER_CONCURRENCY} requests in flight and ${options.abuseRate} a second),`,
    `then alone again. The server is the built main.js in its own process (NODE_ENV=production) with the shipped limits (RATE_LIMIT_PER_IP ${count(rateLimits.perIp)} and`,
    `RATE_LIMIT_PER_KEY ${count(rateLimits.perKey)} per ${rateLimits.windowMs / 1000} s, VIEW_ENTRIES_PER_REQUEST ${count(limits.viewEntriesPerRequest)}, ` +
      `RATE_LIMIT_VIEW_ENTRIES ${count(rateLimits.viewEntries ?? 0)}, LIVE_COST_PER_CONNECTION`,
    `${count(liveCostLimits.perConnection)}, LIVE_COST_PER_CLIENT ${count(liveCostLimits.perClient)}, HTTP_HEADERS_TIMEOUT_MS ${count(httpTimeouts.headersMs)}), ` +
      'TRUST_PROXY_HOPS=1 (each client names its address in X-Forwarded-For) and',
    `MAX_CONNECTIONS_PER_IP=${MAX_CONNECTIONS_PER_IP} (its default without a proxy; counted on each client's own loopback address, 127.0.0.x).`,
    `Combined views read 4 boards x 4 periods (ALL_TIME, DAILY, WEEKLY, MONTHLY) of ${formatCount(options.players)} players: ${formatCount(16 * options.players)} entries a view.`,
    `Latencies are the clients'; RSS is the server's (VmRSS, sampled every 200 ms, the phase and ${SETTLE_MS / 1000} s after it). A phase passes when the readers' p99 is`,
    `at most ${P99_RATIO}x the baseline's (the readers alone, before and after the abusers, pooled), no normal read failed, RSS stayed at most ${RSS_BOUND_MB} MB (about twice the soak's steady load`,
    'under ts-node), and the abuser got clear refusals (RATE_LIMITED, GRAPHQL_VALIDATION_FAILED or BAD_REQUEST with details.limit, HTTP 408/429, close 4408)',
    'and nothing unclear (no internal error, no timeout), with no error in the server\'s log and the server running. "data" counts what the limits',
    'let through (a view built, a subscription held); abuser p99 is over all its requests (for live: subscribe to first message), refusals\' p99 over those refused outright.',
    '',
    '| phase | normal p50 ms | normal p99 ms | p99 / baseline | target <= 2x | normal errors | server RSS max MB | abuser answers | abuser p99 ms | verdict |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...details,
    `- Shutdown: ${shutdown}.`,
    `- Machine load (1-minute average, ${os.cpus().length} cores): ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; the server, Redis, the readers and the abuser share the cores.`,
  ].join('\n');
}

if (process.env.ABUSER) {
  void runAbuser(JSON.parse(process.env.ABUSER) as AbuserConfig).then(
    (result) => process.send!(result, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  runBench('abuse', 'bench:abuse', main);
}
