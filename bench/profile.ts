/**
 * Where Standings spends its CPU under the top-10 load and under submitScore: the server runs
 * under `node --cpu-prof` in its own process while autocannon loads it as bench:service does,
 * and the profile's samples taken during the measured load (not start-up or warm-up) are summed
 * by function and by package. Time inside Redis is another process: here it shows as idle.
 *
 *   npm run bench:profile                          # 10,000 members, 10 s, 20 connections
 *   npm run bench:profile -- 1000000 --seconds 20
 *
 * Results go to bench/notes/profile.md (section "profile"): a tool for looking into costs, with no target.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallFrame, where } from './callFrames';
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { loadTest } from './load';
import { entries100, entry, type Operation, requestBodies, submitScore, top10 } from './operations';
import { launchPeer } from './peers/launch';
import { NO_TARGET } from './report';

const { options, sizes } = parseArgs({ seconds: 10, connections: 20, warmup: 3 }, [10_000]);
const TOP = 10;
/** The top 10 is the read the targets name; submitScore shows what a write adds; entries(100 ids) is the slow read. */
const OPERATIONS = [top10, entry, submitScore, entries100];

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds on the clock V8 stamps profile samples with (monotonic, shared by processes). */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** What a file belongs to: a package (Apollo's grouped), Node itself, or Standings' own code. */
function packageOf({ url, functionName }: CallFrame): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'native (syscalls, V8 and Node builtins)';
  if (url.startsWith('node:')) return 'Node core (http, net, streams...)';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (module) return module.startsWith('@apollo/') ? 'Apollo Server (@apollo/*)' : module;
  return url.includes('/src/') ? 'Standings (src/)' : url;
}

/**
 * The busy samples taken between `from` and `to` (µs, monotonic) as shares by key, and the
 * share of all samples in which the process was idle.
 */
function selfShares(profile: CpuProfile, from: number, to: number, keyOf: (frame: CallFrame) => string) {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const counts = new Map<string, number>();
  let time = profile.startTime;
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i];
    if (time < from || time > to) return;
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') {
      idle++;
      return;
    }
    const key = keyOf(frame);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    busy++;
  });
  if (busy === 0) throw new Error('no profile samples fell inside the load window: the clocks do not line up');
  return {
    idle: idle / (idle + busy),
    shares: [...counts].sort((a, b) => b[1] - a[1]).map(([key, count]) => ({ key, share: count / busy })),
  };
}

interface Profiled {
  operation: Operation;
  requestsPerSecond: number;
  idle: number;
  functions: { key: string; share: number }[];
  packages: Map<string, number>;
}

/** One Standings process under `--cpu-prof`, loaded with `operation`; its samples during the load. */
async function profileUnder(operation: Operation, redisUrl: string, members: number): Promise<Profiled> {
  const dir = mkdtempSync(join(tmpdir(), 'standings-profile-'));
  try {
    const standings = await launchPeer('standings', redisUrl, dir);
    let window = { from: 0, to: 0, requestsPerSecond: 0 };
    try {
      const bodies = requestBodies(operation, members);
      await loadTest(standings.url, bodies, { connections: options.connections, seconds: options.warmup });
      const from = monotonicMicros();
      const { requestsPerSecond } = await loadTest(standings.url, bodies, { connections: options.connections, seconds: options.seconds });
      window = { from, to: monotonicMicros(), requestsPerSecond };
    } finally {
      await standings.stop();
    }
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const functions = selfShares(profile, window.from, window.to, (frame) =>
      `${frame.functionName || '(anonymous)'}\t${where(frame)}\t${packageOf(frame)}`);
    const packages = selfShares(profile, window.from, window.to, packageOf).shares;
    return {
      operation,
      requestsPerSecond: window.requestsPerSecond,
      idle: functions.idle,
      functions: functions.shares,
      packages: new Map(packages.map(({ key, share }) => [key, share])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const percent = (share: number) => `${(100 * share).toFixed(1)} %`;

function functionTable({ operation, requestsPerSecond, idle, functions }: Profiled): string[] {
  return [
    `Under ${operation.name} (\`${operation.query}\`): ${formatCount(Math.round(requestsPerSecond))} req/s while profiled, idle (waiting`,
    `on Redis and the network) in ${percent(idle)} of the samples. Top ${TOP} functions by share of the busy samples:`,
    '',
    '| function | where | package | self |',
    '| --- | --- | --- | --- |',
    ...functions.slice(0, TOP).map(({ key, share }) => `| ${key.split('\t').map((s) => s || '-').join(' | ')} | ${percent(share)} |`),
  ];
}

async function main(): Promise<string> {
  const members = sizes[sizes.length - 1];
  const profiled: Profiled[] = [];
  await withBenchBoard(members, async (redisUrl, store) => {
    await growBoard(store, 0, members, false);
    for (const operation of OPERATIONS) profiled.push(await profileUnder(operation, redisUrl, members));
  });
  // Packages with at least half a percent under some operation, in the order of the first.
  const packages = [...new Set(profiled.flatMap((p) => [...p.packages.keys()]))]
    .filter((name) => profiled.some((p) => (p.packages.get(name) ?? 0) >= 0.005));
  return [
    NO_TARGET,
    '',
    `Standings with production settings, ${formatCount(members)} members, ${options.connections} connections for ${options.seconds} s after a`,
    `${options.warmup} s warm-up; each operation profiled in a fresh process. Self time is a share of the busy samples.`,
    '',
    ...profiled.flatMap((p) => [...functionTable(p), '']),
    'Self time by package:',
    '',
    `| package | ${profiled.map((p) => p.operation.name).join(' | ')} |`,
    `| --- | ${profiled.map(() => '---').join(' | ')} |`,
    ...packages.map((name) => `| ${name} | ${profiled.map((p) => percent(p.packages.get(name) ?? 0)).join(' | ')} |`),
  ].join('\n');
}

runBench('profile', 'bench:profile', main, join(__dirname, 'notes', 'profile.md'));
