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
 * the peer's over Standings' taken within each round (above 1: Standings spends less).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { formatCount, parseArgs } from './cli';
import { growBoard, seededRandom, withBenchBoard } from './fixtures';
import { loadTest, processCpuNs } from './load';
import { entries100, entry, type Operation, requestBodies, submitScore, top10 } from './operations';
import { median } from './report';
import { BENCH_API_KEY, launchPeer } from './peers/launch';

const { options, sizes } = parseArgs({ seconds: 5, connections: 20, warmup: 2, rounds: 3 }, [10_000]);

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

/** CPU µs per HTTP request of Standings and of the Mercurius peer with the same cache, round by round. */
async function stackCost(redisUrl: string, members: number): Promise<string[]> {
  const peers = [await launchPeer('standings', redisUrl), await launchPeer('mercurius-cached', redisUrl)];
  const rows: string[] = [];
  try {
    for (const operation of [top10, entry, entries100, submitScore]) {
      const bodies = requestBodies(operation, members);
      const http = { connections: options.connections, seconds: options.seconds };
      for (const peer of peers) await loadTest(peer.url, bodies, { ...http, seconds: options.warmup });
      const micros: number[][] = peers.map(() => []);
      for (let round = 0; round < options.rounds; round++) {
        // Rotated each round, so neither always runs right after the other's load.
        for (const i of round % 2 ? [1, 0] : [0, 1]) {
          const before = processCpuNs(peers[i].pid);
          const { requestsPerSecond } = await loadTest(peers[i].url, bodies, http);
          micros[i].push((processCpuNs(peers[i].pid) - before) / (requestsPerSecond * options.seconds) / 1000);
        }
      }
      const ratios = micros[1].map((peer, round) => peer / micros[0][round]);
      rows.push(`| ${operation.name} | ${median(micros[0]).toFixed(0)} µs | ${median(micros[1]).toFixed(0)} µs | ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')}) |`);
    }
  } finally {
    await Promise.all(peers.map((peer) => peer.stop()));
  }
  return rows;
}

async function main(): Promise<void> {
  const members = sizes[sizes.length - 1];
  const rows: string[] = [];
  let stackRows: string[] = [];
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
    stackRows = await stackCost(redisUrl, members);
  });
  console.log([
    `${formatCount(members)} members, ${options.connections} connections, ${options.seconds} s per cell after ${options.warmup} s of warm-up.`,
    '',
    '| operation | HTTP req/s | HTTP CPU per request | WebSocket req/s | WebSocket CPU per request |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Stack cost over HTTP, ${options.rounds} rounds: server CPU per request, Standings against Fastify + Mercurius + graphql-jit with the same read cache.`,
    '',
    '| operation | Standings CPU per request | peer CPU per request | peer / Standings (rounds) |',
    '| --- | --- | --- | --- |',
    ...stackRows,
  ].join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
