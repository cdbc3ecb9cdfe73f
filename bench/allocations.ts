/**
 * What each contender allocates per request: Standings and Fastify + Mercurius + graphql-jit with
 * the same read cache (the stack-cost peer: the same Redis work), loaded at once at the same fixed
 * rate, each sampled by V8's sampling heap profiler over the same window (bench/peers/heapSampler.ts,
 * collected objects included). Bytes allocated are what the young generation's collections must
 * sweep, and a larger heap makes each major collection dearer: a cost per request that CPU-time
 * benches on this noisy machine see only as spread. Reports bytes per request in all, and by the
 * functions that allocate most (a function V8 inlined counts under its caller).
 *
 *   npm run bench:allocations                      # entry, 10,000 members, 1,500 req/s each, 10 s
 *   npm run bench:allocations -- --rate 1000 --seconds 20
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type CallFrame, where } from './callFrames';
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { loadTest } from './load';
import { entry, requestBodies } from './operations';
import { launchPeer, type Peer } from './peers/launch';

const { options, sizes } = parseArgs({ rate: 1_500, seconds: 10, warmup: 15, connections: 20, functions: 15 }, [10_000]);

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

runBench('allocations', 'bench:allocations', async () => {
  const members = sizes[sizes.length - 1];
  const dir = mkdtempSync(join(tmpdir(), 'standings-heap-'));
  process.env.BENCH_HEAP_SAMPLES = dir;
  const byPeer: Map<string, number>[] = [];
  const names = ['Standings', 'Fastify + Mercurius + graphql-jit, same read cache'];
  try {
    await withBenchBoard(members, async (redisUrl, store) => {
      await growBoard(store, 0, members, false);
      const peers = [await launchPeer('standings', redisUrl), await launchPeer('mercurius-cached', redisUrl)];
      try {
        const bodies = requestBodies(entry, members);
        const load = (seconds: number) => Promise.all(peers.map((peer) => loadTest(peer.url, bodies, { connections: options.connections, seconds, rate: options.rate })));
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
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const requests = options.rate * (options.seconds - 1);
  const perRequest = (bytes: number | undefined) => formatCount(Math.round((bytes ?? 0) / requests));
  const totals = byPeer.map((bytes) => [...bytes.values()].reduce((a, b) => a + b, 0));
  const top = [...new Set(byPeer.flatMap((bytes) => [...bytes].sort((a, b) => b[1] - a[1]).slice(0, options.functions).map(([name]) => name)))]
    .sort((a, b) => (byPeer[0].get(b) ?? 0) + (byPeer[1].get(b) ?? 0) - (byPeer[0].get(a) ?? 0) - (byPeer[1].get(a) ?? 0));
  return [
    `\`entry\` at ${formatCount(options.rate)} req/s on each contender at once (${options.connections} connections each), ` +
      `${formatCount(members)} members; sampled for ${options.seconds - 1} s after ${options.warmup} s of warm-up (V8's sampling heap profiler, collected objects included).`,
    '',
    `| | ${names.join(' | ')} |`,
    '| --- | --- | --- |',
    `| bytes allocated per request | ${totals.map(perRequest).join(' | ')} |`,
    ...top.map((name) => `| ${name.replace(/\|/g, '\\|')} | ${byPeer.map((bytes) => perRequest(bytes.get(name))).join(' | ')} |`),
  ].join('\n');
});
