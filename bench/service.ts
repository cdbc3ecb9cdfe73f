/**
 * Service throughput and latency of Standings against its peers: Standings with fair ties off
 * (what fairness costs), Fastify + Mercurius + graphql-jit over the same domain object with the
 * same read cache (what our stack costs: the same Redis work on both sides), and that peer as it
 * would be deployed, without the cache (as shipped). Each server runs in its own process;
 * autocannon loads them over loopback, one cell (operation x contender) at a time, contenders
 * interleaved round by round with their order rotated, and the ratios are taken within each round.
 * Then, at the largest size, submitScore on a four-period board against the one-period bench board
 * (./periodWrites.ts; bench:periods runs that part alone).
 *
 *   npm run bench:service                          # 10,000 and 1,000,000 members, 3 rounds of 10 s
 *   npm run bench:service -- 10000 --rounds 5 --seconds 5 --connections 20 --warmup 3
 *
 * Results go to BENCHMARKS.md (section "service").
 */
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { type LoadResult, loadTest, post } from './load';
import { around, entries100, entry, type Operation, requestBodies, submitScore, top10 } from './operations';
import { launchPeer, type Peer, type PeerName } from './peers/launch';
import { measurePeriodWrites, type PeriodWrites } from './periodWrites';
import { measureWorkerCounts, withWorkerCounts, workerCountsTable } from './workerCounts';
import { median, type Verdict, verdictTable } from './report';

const { options, sizes } = parseArgs({ rounds: 3, seconds: 10, connections: 20, warmup: 3, workers: 2 }, [10_000, 1_000_000]);

const LABELS: Record<PeerName, string> = {
  standings: 'Standings (Apollo Server 5, graphql-jit)',
  'standings-apollo': 'Standings without its fast lane (every request through Apollo)',
  'standings-unfair': 'Standings, fair ties off (bare ZADD)',
  'mercurius-cached': 'Fastify + Mercurius + graphql-jit, same read cache',
  mercurius: 'Fastify + Mercurius + graphql-jit, no read cache',
};

/** Which table a ratio against each peer goes in. */
const TABLES: { title: string; peers: PeerName[] }[] = [
  { title: 'Stack cost: the same domain object and read cache on both sides (the same Redis work), and what fair ties cost', peers: ['mercurius-cached', 'standings-unfair'] },
  { title: 'As shipped: the peer as it would be deployed, without the read cache', peers: ['mercurius'] },
];

/** The unfair peer differs only in its write path, so it only runs submitScore. */
const CELLS: { operation: Operation; peers: PeerName[] }[] = [
  { operation: submitScore, peers: ['standings', 'standings-unfair', 'mercurius-cached', 'mercurius'] },
  { operation: entry, peers: ['standings', 'mercurius-cached', 'mercurius'] },
  { operation: entries100, peers: ['standings', 'mercurius-cached', 'mercurius'] },
  { operation: top10, peers: ['standings', 'mercurius-cached', 'mercurius'] },
  { operation: around, peers: ['standings', 'mercurius-cached', 'mercurius'] },
];

/** Targets for Standings' throughput over a peer's (key: operation / peer): issue 6's, and issue 16's for entries. */
const TARGETS: Record<string, { name: string; target: number }> = {
  [`${submitScore.name}/standings-unfair`]: { name: 'fairness cost', target: 0.9 },
  [`${top10.name}/mercurius-cached`]: { name: 'stack cost', target: 1.0 },
  [`${entry.name}/mercurius-cached`]: { name: 'stack cost', target: 1.0 },
  [`${submitScore.name}/mercurius-cached`]: { name: 'stack cost', target: 0.8 },
  [`${entries100.name}/mercurius-cached`]: { name: 'issue 16', target: 2.0 },
};

const key = (operation: Operation, peer: PeerName) => `${operation.name}/${peer}`;

/** Issue 16: Standings' entries(100 ids) throughput at the larger size at least this share of the smaller's. */
const ENTRIES_SIZES = { from: 10_000, to: 1_000_000, target: 0.7 };

/** Replaces every leaf of a JSON value by its type: writes answer alike in shape, not in value. */
const shapeOf = (value: unknown): unknown =>
  value !== null && typeof value === 'object'
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]))
    : typeof value;

/** Every contender answers the first request of each cell without errors, and as Standings does. */
async function checkAnswers(peers: Map<PeerName, Peer>, bodies: Map<Operation, string[]>): Promise<void> {
  for (const { operation, peers: names } of CELLS) {
    const answers = await Promise.all(names.map(async (name) => JSON.parse(await post(peers.get(name)!.url, bodies.get(operation)![0]))));
    const comparable = operation === submitScore ? answers.map(shapeOf) : answers;
    comparable.forEach((answer, i) => {
      if (JSON.stringify(answer) !== JSON.stringify(comparable[0])) {
        throw new Error(`${names[i]} answers ${operation.name} unlike Standings:\n${JSON.stringify(answers[i])}\n${JSON.stringify(answers[0])}`);
      }
    });
  }
}

/** What the verdicts need of one size: Standings over each peer (median of rounds, by cell key) and its own entries(100 ids) req/s. */
interface SizeResult {
  ratios: Map<string, number>;
  entriesPerSecond: number;
}

async function measureSize(members: number, peers: Map<PeerName, Peer>) {
  const bodies = new Map(CELLS.map(({ operation }) => [operation, requestBodies(operation, members)]));
  await checkAnswers(peers, bodies);
  const run = (operation: Operation, name: PeerName, seconds: number) =>
    loadTest(peers.get(name)!.url, bodies.get(operation)!, { connections: options.connections, seconds });
  for (const { operation, peers: names } of CELLS) for (const name of names) await run(operation, name, options.warmup);

  const results = new Map<string, LoadResult[]>();
  for (let round = 0; round < options.rounds; round++) {
    for (const { operation, peers: names } of CELLS) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        const result = await run(operation, name, options.seconds);
        results.set(key(operation, name), [...(results.get(key(operation, name)) ?? []), result]);
        console.log(`${formatCount(members)} round ${round + 1} ${operation.name} ${name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
      }
    }
  }

  const rows: string[] = [];
  const ratioRows = TABLES.map((): string[] => []);
  const ratios = new Map<string, number>();
  for (const { operation, peers: names } of CELLS) {
    for (const name of names) {
      const runs = results.get(key(operation, name))!;
      rows.push(`| ${formatCount(members)} | ${operation.name} | ${LABELS[name]} | ${formatCount(Math.round(median(runs.map((r) => r.requestsPerSecond))))} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)} |`);
    }
    const ours = results.get(key(operation, 'standings'))!;
    for (const name of names.filter((n) => n !== 'standings')) {
      const perRound = results.get(key(operation, name))!.map((r, round) => ours[round].requestsPerSecond / r.requestsPerSecond);
      const ratio = median(perRound);
      ratios.set(key(operation, name), ratio);
      const goal = TARGETS[key(operation, name)];
      const verdict = goal ? `${goal.name}: >= ${goal.target.toFixed(2)}, ${ratio >= goal.target ? 'met' : 'missed'}` : 'no target';
      ratioRows[TABLES.findIndex((table) => table.peers.includes(name))].push(`| ${formatCount(members)} | ${operation.name} | Standings / ${LABELS[name]} | ${ratio.toFixed(2)} | ${perRound.map((r) => r.toFixed(2)).join(', ')} | ${verdict} |`);
    }
  }
  const entriesPerSecond = median(results.get(key(entries100, 'standings'))!.map((r) => r.requestsPerSecond));
  return { rows, ratioRows, ratios, entriesPerSecond };
}

/** Each of TARGETS over every size (met when met at all), then issue 16's entries(100 ids) from one size to the other. */
function verdicts(measured: Map<number, SizeResult>): Verdict[] {
  const bySize = [...measured.entries()];
  const peerVerdicts = CELLS.flatMap(({ operation, peers: names }) => names.flatMap((name): Verdict[] => {
    const goal = TARGETS[key(operation, name)];
    if (!goal) return [];
    const ratios = bySize.map(([members, size]) => [members, size.ratios.get(key(operation, name))!] as const);
    return [{
      target: `${goal.name}: ${operation.name}, Standings / ${LABELS[name]} >= ${goal.target.toFixed(2)}`,
      result: ratios.map(([members, ratio]) => `${ratio.toFixed(2)} at ${formatCount(members)}`).join('; '),
      met: ratios.every(([, ratio]) => ratio >= goal.target),
    }];
  }));
  const [from, to] = [measured.get(ENTRIES_SIZES.from), measured.get(ENTRIES_SIZES.to)];
  const target = `issue 16: entries(100 ids) at ${formatCount(ENTRIES_SIZES.to)} members >= ${ENTRIES_SIZES.target.toFixed(2)}x its throughput at ${formatCount(ENTRIES_SIZES.from)}`;
  if (!from || !to) return [...peerVerdicts, { target, result: 'not both sizes in this run', met: undefined }];
  const share = to.entriesPerSecond / from.entriesPerSecond;
  const perSecond = (size: SizeResult) => formatCount(Math.round(size.entriesPerSecond));
  return [...peerVerdicts, { target, result: `${share.toFixed(2)} (${perSecond(to)} against ${perSecond(from)} req/s)`, met: share >= ENTRIES_SIZES.target }];
}

async function main(): Promise<string> {
  const cells = CELLS.reduce((n, cell) => n + cell.peers.length, 0);
  // The four-period comparison adds two boards' worth, once; the worker counts two per operation.
  const minutes = ((sizes.length * cells + 2 + 10) * (options.rounds * options.seconds + options.warmup)) / 60;
  console.log(`${cells} cells per size, ${sizes.length} size(s): about ${Math.ceil(minutes)} min of load, plus loading`);
  const rows: string[] = [];
  const ratioRows = TABLES.map((): string[] => []);
  const measuredSizes = new Map<number, SizeResult>();
  let periods: PeriodWrites | undefined;
  let workers = '';
  await withBenchBoard(sizes[sizes.length - 1], async (redisUrl, store) => {
    const peers = new Map<PeerName, Peer>();
    try {
      for (const name of Object.keys(LABELS) as PeerName[]) peers.set(name, await launchPeer(name, redisUrl));
      let loaded = 0;
      for (const members of sizes) {
        console.log(`loading ${formatCount(members)} members`);
        await growBoard(store, loaded, members, true);
        loaded = members;
        const measured = await measureSize(members, peers);
        rows.push(...measured.rows);
        measured.ratioRows.forEach((table, i) => ratioRows[i].push(...table));
        measuredSizes.set(members, measured);
      }
      periods = await measurePeriodWrites(store, peers.get('standings')!, sizes[sizes.length - 1], options);
    } finally {
      await Promise.all([...peers.values()].map((peer) => peer.stop()));
    }
    // The shipped entry point with 1 worker and with more, at the largest size, once the peers are gone.
    const largest = sizes[sizes.length - 1];
    workers = workerCountsTable(options, await withWorkerCounts(redisUrl, options, (servers) => measureWorkerCounts(largest, servers, options)));
  });
  const body = [
    verdictTable([...verdicts(measuredSizes), periods!.verdict]),
    '',
    `autocannon on loopback, ${options.connections} connections, ${options.seconds} s per cell after a ${options.warmup} s warm-up,`,
    `median of ${options.rounds} rounds; contenders interleaved (order rotated each round), each server in its own`,
    'process, one throwaway Redis (no persistence), all on the same 2 cores. Board: DESCENDING, LATEST; submitScore',
    'writes a random score 0..3000 for a random existing player; reads pick random existing players.',
    '',
    '| members | operation | contender | req/s | p50 ms | p99 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Throughput ratios, taken round by round (Standings over the peer in the same round), median.',
    ...TABLES.flatMap(({ title }, i) => [
      '',
      `${title}:`,
      '',
      '| members | operation | ratio | median | rounds | target |',
      '| --- | --- | --- | --- | --- | --- |',
      ...ratioRows[i],
    ]),
    '',
    periods!.markdown,
    '',
    `One worker against ${options.workers} (STANDINGS_WORKERS), at ${formatCount(sizes[sizes.length - 1])} members:`,
    '',
    workers,
  ].join('\n');
  return body;
}

runBench('service', 'bench:service', main);
