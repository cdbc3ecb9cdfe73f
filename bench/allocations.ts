/**
 * What each contender allocates per request: Standings and Fastify + Mercurius + graphql-jit with
 * the same read cache (the stack-cost peer: the same Redis work), loaded at once at the same fixed
 * rate, each sampled by V8's sampling heap profiler over the same window (bench/peers/heapSampler.ts,
 * collected objects included). Bytes allocated are what the young generation's collections must
 * sweep, and a larger heap makes each major collection dearer: a cost per request that CPU-time
 * benches on this noisy machine see only as spread. Reports bytes per request in all, and by the
 * functions that allocate most (a function V8 inlined counts under its caller).
 *
 *   npm run bench:allocations                      # 10,000 members, 10 s; entry at 1,500 req/s each, entries(100 ids) at 300
 *   npm run bench:allocations -- --rate 1000 --rate-many 200 --seconds 20
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type CallFrame, where } from './callFrames';
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { loadTest } from './load';
import { entries100, entry, type Operation, requestBodies } from './operations';
import { launchPeer, type Peer } from './peers/launch';
import { NO_TARGET, tableCell } from './report';

const { options, sizes } = parseArgs({ rate: 1_500, 'rate-many': 300, seconds: 10, warmup: 15, connections: 20, functions: 15 }, [10_000]);

/**
 * What is measured, each at a fixed rate well below either contender's ceiling: the one-player
 * read, and the read of many players whose per-player work shows most (`--rate-many`).
 */
const LOADS: { operation: Operation; rate: number }[] = [
  { operation: entry, rate: options.rate },
  { operation: entries100, rate: options['rate-many'] },
];
const NAMES = ['Standings', 'Fastify + Mercurius + graphql-jit, same read cache'];

interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children?: ProfileNode[];
}

/** Bytes allocated by each function (by name, file and line), from a sampling heap profile. */
function bytesByFunction(root: ProfileNode): Map<string, number> {
  const bytes = new Map<string, number>();
  const visit = (node: ProfileNode) => {
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where(node.callFrame) || '(no source file)'}`;
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
    node.children?.forEach(visit);
  };
  visit(root);
  return bytes;
}

/** Asks a peer for the profile of the window since its last SIGUSR2, and reads it once written. */
async function takeProfile(peer: Peer, dir: string): Promise<ProfileNode> {
  const file = join(dir, `${peer.pid}.heapprofile`);
  rmSync(file, { force: true });
  process.kill(peer.pid, 'SIGUSR2');
  for (let tries = 0; !existsSync(file); tries++) {
    if (tries > 500) throw new Error(`${peer.name} wrote no heap profile`);
    await delay(20);
  }
  return (JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode }).head;
}

/** Both contenders loaded with `operation` at once, each one's allocations over the same window: a table. */
async function measure(operation: Operation, rate: number, redisUrl: string, members: number, dir: string): Promise<string[]> {
  const byPeer: Map<string, number>[] = [];
  const peers = [await launchPeer('standings', redisUrl), await launchPeer('mercurius-cached', redisUrl)];
  try {
    const bodies = requestBodies(operation, members);
    const load = (seconds: number) => Promise.all(peers.map((peer) => loadTest(peer.url, bodies, { connections: options.connections, seconds, rate })));
    await load(options.warmup);
    const measured = load(options.seconds);
    // The window opens once both loads run and closes before either ends.
    await delay(500);
    for (const peer of peers) process.kill(peer.pid, 'SIGUSR2');
    await delay((options.seconds - 1) * 1000);
    for (const peer of peers) byPeer.push(bytesByFunction(await takeProfile(peer, dir)));
    await measured;
  } finally {
    await Promise.all(peers.map((peer) => peer.stop()));
  }
  const requests = rate * (options.seconds - 1);
  const perRequest = (bytes: number | undefined) => formatCount(Math.round((bytes ?? 0) / requests));
  const totals = byPeer.map((bytes) => [...bytes.values()].reduce((a, b) => a + b, 0));
  const top = [...new Set(byPeer.flatMap((bytes) => [...bytes].sort((a, b) => b[1] - a[1]).slice(0, options.functions).map(([name]) => name)))]
    .sort((a, b) => (byPeer[0].get(b) ?? 0) + (byPeer[1].get(b) ?? 0) - (byPeer[0].get(a) ?? 0) - (byPeer[1].get(a) ?? 0));
  return [
    `\`${operation.name}\` at ${formatCount(rate)} req/s on each contender at once (${options.connections} connections each), ` +
      `${formatCount(members)} members; sampled for ${options.seconds - 1} s after ${options.warmup} s of warm-up (V8's sampling heap profiler, collected objects included).`,
    '',
    `| | ${NAMES.join(' | ')} |`,
    '| --- | --- | --- |',
    `| bytes allocated per request | ${totals.map(perRequest).join(' | ')} |`,
    ...top.map((name) => `| ${tableCell(name)} | ${byPeer.map((bytes) => perRequest(bytes.get(name))).join(' | ')} |`),
  ];
}

runBench('allocations', 'bench:allocations', async () => {
  const members = sizes[sizes.length - 1];
  const dir = mkdtempSync(join(tmpdir(), 'standings-heap-'));
  process.env.BENCH_HEAP_SAMPLES = dir;
  const tables: string[][] = [];
  try {
    await withBenchBoard(members, async (redisUrl, store) => {
      await growBoard(store, 0, members, false);
      for (const { operation, rate } of LOADS) tables.push(await measure(operation, rate, redisUrl, members, dir));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [NO_TARGET, ...tables.map((lines) => lines.join('\n'))].join('\n\n');
}, join(__dirname, 'notes', 'allocations.md'));
