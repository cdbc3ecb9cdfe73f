/**
 * What a query or mutation costs the Standings process over each transport: HTTP (the fast lane,
 * autocannon as bench:service loads it) and WebSocket (graphql-ws clients, each sending one
 * operation after another on its socket). Besides requests per second, the CPU time the server
 * process spent per request (from /proc, Linux only): on a machine others share, throughput
 * follows the neighbours' load, CPU per request much less.
 *
 *   npx ts-node --transpile-only bench/transports.ts                  # 10,000 members, 5 s, 20 connections
 *   npx ts-node --transpile-only bench/transports.ts --seconds 10
 *
 * To compare two versions, run it in each checkout one after the other, several times, and
 * compare the CPU per request.
 *
 * Then the stack cost in CPU: the same HTTP loads against Standings and Fastify + Mercurius +
 * graphql-jit with the same read cache (bench/peers/mercurius-cached.ts, the same Redis work),
 * one after the other in rounds (`--rounds`), each process' CPU per request read from /proc, and
 * the peer's over Standings' taken within each round (above 1: Standings spends less). Redis'
 * CPU per request is read alongside (both contenders make the same calls). With
 * STANDINGS_BASELINE=<another checkout> (e.g. a worktree of main), that checkout's Standings
 * joins each round too, so before and after are measured side by side under the same load:
 *
 *   STANDINGS_BASELINE=../main npx ts-node --transpile-only bench/transports.ts --rounds 5
 *
 * With BENCH_FAST_LANE=compare instead, Standings without its HTTP fast lane (every request
 * through Apollo) is the third contender: what the fast lane saves, side by side.
 *
 * With `--rate-share 0.6`, each operation is then loaded again on every contender at one fixed
 * rate (that share of the slowest contender's median throughput), a second table: the CPU each
 * spends per request when all handle the same arrivals (see stackCost).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { formatCount, parseArgs } from './cli';
import { growBoard, seededRandom, withBenchBoard } from './fixtures';
import { type LoadOptions, loadTest, processCpuNs } from './load';
import { entries100, entry, type Operation, requestBodies, submitScore, top10 } from './operations';
import { median } from './report';
import { BENCH_API_KEY, launchPeer, type Peer } from './peers/launch';

const { options, sizes } = parseArgs({ seconds: 5, connections: 20, warmup: 2, rounds: 3, 'rate-share': 0 }, [10_000]);

/** Nanoseconds the child processes of this one (the server) have run on a CPU. */
function serverCpuNs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid) total += processCpuNs(Number(pid));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** Operations sent over `options.connections` sockets for `seconds`; how many were answered. */
async function overWebSocket(url: string, operation: Operation, members: number, seconds: number): Promise<number> {
  const random = seededRandom(members + operation.name.length);
  const clients = Array.from({ length: options.connections }, () => createClient({
    url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: false,
    connectionParams: { authorization: `Bearer ${BENCH_API_KEY}` },
  }));
  const end = Date.now() + seconds * 1000;
  let answered = 0;
  await Promise.all(clients.map(async (client) => {
    while (Date.now() < end) {
      await new Promise<void>((resolve, reject) => {
        client.subscribe({ query: operation.query, variables: operation.variables(random, members) }, {
          next: (message) => message.errors && reject(new Error(JSON.stringify(message.errors))),
          error: reject,
          complete: resolve,
        });
      });
      answered++;
    }
  }));
  await Promise.all(clients.map((client) => client.dispose()));
  return answered;
}

/** Requests per second and the server's CPU µs per request while `load` runs (it returns how many it sent). */
async function measured(load: () => Promise<number>): Promise<string> {
  const [cpuBefore, started] = [serverCpuNs(), Date.now()];
  const requests = await load();
  const [cpu, elapsed] = [serverCpuNs() - cpuBefore, (Date.now() - started) / 1000];
  return `${formatCount(Math.round(requests / elapsed))} | ${(cpu / requests / 1000).toFixed(0)} µs`;
}

const BASELINE = process.env.STANDINGS_BASELINE;
/** BENCH_FAST_LANE=compare: Standings without its HTTP fast lane joins each round, as a baseline does. */
const APOLLO_ONLY = !BASELINE && process.env.BENCH_FAST_LANE === 'compare';
/** What the third contender's columns are called, if there is one. */
const THIRD = BASELINE ? 'baseline' : APOLLO_ONLY ? 'Apollo only (no fast lane)' : undefined;

interface Measured {
  /** By peer, round by round: its CPU µs per request, Redis' CPU µs per request during its load, its requests per second. */
  micros: number[][];
  redisMicros: number[][];
  rates: number[][];
}

/** Each peer loaded `options.rounds` times with `load`, rotated each round so none always runs right after another's load. */
async function inRounds(peers: Peer[], redisPid: number, bodies: string[], load: LoadOptions): Promise<Measured> {
  const result: Measured = { micros: peers.map(() => []), redisMicros: peers.map(() => []), rates: peers.map(() => []) };
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < peers.length; k++) {
      const i = (round + k) % peers.length;
      const [before, redisBefore] = [processCpuNs(peers[i].pid), processCpuNs(redisPid)];
      const { requestsPerSecond } = await loadTest(peers[i].url, bodies, load);
      const requests = requestsPerSecond * load.seconds;
      result.micros[i].push((processCpuNs(peers[i].pid) - before) / requests / 1000);
      result.redisMicros[i].push((processCpuNs(redisPid) - redisBefore) / requests / 1000);
      result.rates[i].push(requestsPerSecond);
    }
  }
  return result;
}

/** One table row: the CPU per request of each, the peer's over Standings' (and the baseline's) round by round. */
function stackRow(name: string, { micros, redisMicros }: Measured): string {
  const over = (i: number) => {
    const ratios = micros[1].map((peer, round) => peer / micros[i][round]);
    return `${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`;
  };
  const µs = (values: number[]) => `${median(values).toFixed(0)} µs`;
  const baseline = THIRD ? ` | ${µs(micros[2])} | ${over(2)}` : '';
  return `| ${name} | ${µs(micros[0])} | ${µs(micros[1])} | ${over(0)} | ${µs(redisMicros[0])} / ${µs(redisMicros[1])}${baseline} |`;
}

/**
 * CPU µs per HTTP request of Standings, of the Mercurius peer with the same cache (and of the
 * baseline), round by round: as fast as each answers, and then, with `--rate-share`, all at one
 * fixed rate, that share of the slowest one's median throughput. A process's CPU per request
 * grows when it is less busy (fewer requests share each turn of its event loop), so at full speed
 * a contender that answers more slowly, for whatever reason, also looks dearer per request; at
 * one rate each handles the same arrivals.
 */
async function stackCost(redisUrl: string, redisPid: number, members: number): Promise<{ full: string[]; fixed: string[] }> {
  const peers = [await launchPeer('standings', redisUrl), await launchPeer('mercurius-cached', redisUrl)];
  if (BASELINE) peers.push(await launchPeer('standings', redisUrl, undefined, BASELINE));
  if (APOLLO_ONLY) peers.push(await launchPeer('standings-apollo', redisUrl));
  const rows = { full: [] as string[], fixed: [] as string[] };
  try {
    for (const operation of [top10, entry, entries100, submitScore]) {
      const bodies = requestBodies(operation, members);
      const http = { connections: options.connections, seconds: options.seconds };
      for (const peer of peers) await loadTest(peer.url, bodies, { ...http, seconds: options.warmup });
      const full = await inRounds(peers, redisPid, bodies, http);
      rows.full.push(stackRow(operation.name, full));
      if (options['rate-share'] <= 0) continue;
      const rate = Math.round(options['rate-share'] * Math.min(...full.rates.map(median)));
      rows.fixed.push(stackRow(`${operation.name} at ${formatCount(rate)} req/s`, await inRounds(peers, redisPid, bodies, { ...http, rate })));
    }
  } finally {
    await Promise.all(peers.map((peer) => peer.stop()));
  }
  return rows;
}

async function main(): Promise<void> {
  const members = sizes[sizes.length - 1];
  const rows: string[] = [];
  let stackRows = { full: [] as string[], fixed: [] as string[] };
  await withBenchBoard(members, async (redisUrl, store) => {
    await growBoard(store, 0, members, false);
    const standings = await launchPeer('standings', redisUrl);
    try {
      for (const operation of [top10, entry, submitScore]) {
        const bodies = requestBodies(operation, members);
        const http = { connections: options.connections, seconds: options.seconds };
        await loadTest(standings.url, bodies, { ...http, seconds: options.warmup });
        const overHttp = await measured(async () => (await loadTest(standings.url, bodies, http)).requestsPerSecond * options.seconds);
        await overWebSocket(standings.url, operation, members, options.warmup);
        const overSocket = await measured(() => overWebSocket(standings.url, operation, members, options.seconds));
        rows.push(`| ${operation.name} | ${overHttp} | ${overSocket} |`);
      }
    } finally {
      await standings.stop();
    }
    const redisPid = Number(/process_id:(\d+)/.exec(await store.redis.info('server'))![1]);
    stackRows = await stackCost(redisUrl, redisPid, members);
  });
  const header = [
    `| operation | Standings CPU per request | peer CPU per request | peer / Standings (rounds) | Redis CPU per request (Standings / peer)${THIRD ? ` | ${THIRD} CPU per request | peer / ${THIRD} (rounds)` : ''} |`,
    `| --- | --- | --- | --- | ---${THIRD ? ' | --- | ---' : ''} |`,
  ];
  const fixed = stackRows.fixed.length === 0 ? [] : [
    '',
    `At one fixed rate for all (${options['rate-share']} of the slowest one's median throughput above), ${options.rounds} rounds:`,
    '',
    ...header,
    ...stackRows.fixed,
  ];
  console.log([
    `${formatCount(members)} members, ${options.connections} connections, ${options.seconds} s per cell after ${options.warmup} s of warm-up.`,
    '',
    '| operation | HTTP req/s | HTTP CPU per request | WebSocket req/s | WebSocket CPU per request |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Stack cost over HTTP, ${options.rounds} rounds: server CPU per request, Standings against Fastify + Mercurius + graphql-jit with the same read cache`
      + (BASELINE ? ` (and Standings from ${BASELINE}, the baseline).` : APOLLO_ONLY ? ' (and Standings without its fast lane).' : '.'),
    '',
    ...header,
    ...stackRows.full,
    ...fixed,
  ].join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
