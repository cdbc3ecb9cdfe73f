/**
 * Acknowledged writes lost in a failover, with and without REDIS_MIN_REPLICAS=1: the scenario of
 * test/e2e/sentinel.redis.test.ts and clusterFailover.redis.test.ts (Sentinel: one master, two
 * replicas, three sentinels; Cluster: three masters with two replicas each; all on loopback; the
 * master of the board killed -9 while 4 clients write, each write a new player) run a few times.
 * "kill -9" kills the master while its replicas keep up, as they do on an idle loopback; "replicas
 * behind" first cuts the replicas off for 20 writes, as a slow network or a busy replica would.
 *
 *   npm run bench:failover                   # 3 runs of each of the eight cases
 *   npm run bench:failover -- --runs 5
 *
 * Results go to BENCHMARKS.md (section "failover").
 */
import { parseArgs, runBench } from './cli';
import { median, verdictTable } from './report';
import { TestServer } from '../test/support/harness';
import { type FailoverAudit, writeThroughFailover } from '../test/support/failover';
import { sentinelFailover, startSentinelGroup } from '../test/support/sentinel';
import { clusterFailover, startTestCluster } from '../test/support/cluster';
import type { RedisTarget } from '../src/server/redis';
import type { FailoverTarget } from '../test/support/failover';

const { options } = parseArgs({ runs: 3 }, [1]);

const TOPOLOGIES = [
  {
    name: 'Sentinel',
    start: async () => {
      const group = await startSentinelGroup();
      return { where: group.config as RedisTarget, target: async () => sentinelFailover(group), stop: () => group.stop() };
    },
  },
  {
    name: 'Cluster',
    start: async () => {
      const cluster = await startTestCluster({ replicas: 2 });
      return { where: cluster.config as RedisTarget, target: (): Promise<FailoverTarget> => clusterFailover(cluster), stop: () => cluster.stop() };
    },
  },
];
const CASES = [
  { name: 'kill -9', stallReplicas: false },
  { name: 'replicas behind, then kill -9', stallReplicas: true },
];
const SETTINGS = [
  { name: 'off', replication: undefined },
  { name: 'REDIS_MIN_REPLICAS=1 (200 ms)', replication: { minReplicas: 1, timeoutMs: 200 } },
];

async function once(
  topology: (typeof TOPOLOGIES)[number], stallReplicas: boolean, replication: (typeof SETTINGS)[number]['replication'],
): Promise<FailoverAudit> {
  const redis = await topology.start();
  try {
    const server = await TestServer.start(redis.where, { replication, commandTimeoutMs: 1_000 });
    try {
      return await writeThroughFailover(server, await redis.target(), { stallReplicas });
    } finally {
      await server.stop();
    }
  } finally {
    await redis.stop();
  }
}

runBench('failover', 'bench:failover', async () => {
  const rows: string[] = [];
  /** Acknowledged writes lost in each run, by setting: what REDIS_MIN_REPLICAS promises is none with it. */
  const lost = new Map(SETTINGS.map((setting) => [setting, [] as number[]]));
  for (const topology of TOPOLOGIES) for (const scenario of CASES) {
    for (const setting of SETTINGS) {
      const audits: FailoverAudit[] = [];
      for (let run = 0; run < options.runs; run++) {
        const audit = await once(topology, scenario.stallReplicas, setting.replication);
        console.log(`${topology.name}, ${scenario.name}, ${setting.name}: ${JSON.stringify(audit)}`);
        audits.push(audit);
        lost.get(setting)!.push(audit.lost);
      }
      const list = (pick: (audit: FailoverAudit) => number) => audits.map(pick).join(', ');
      rows.push(
        `| ${topology.name} | ${scenario.name} | ${setting.name} | ${list((a) => a.acknowledged)} | ${list((a) => a.lost)} | ${list((a) => a.unknown)} | ` +
          `${list((a) => a.notApplied)} | ${median(audits.map((a) => a.outageMs)).toFixed(0)} |`,
      );
    }
  }
  const [off, on] = SETTINGS.map((setting) => lost.get(setting)!);
  const verdict = {
    target: `with ${SETTINGS[1].name}, no acknowledged write lost (what the option promises)`,
    result: `${on.reduce((a, b) => a + b, 0)} lost in ${on.length} runs (without it: ${Math.min(...off)}-${Math.max(...off)} a run)`,
    met: on.every((n) => n === 0),
  };
  return [
    verdictTable([verdict]),
    '',
    `${options.runs} runs per row (each on a new group); each run writes until 50 writes are acknowledged after the failover.`,
    'Sentinels judge a master down after 1 s (down-after-milliseconds), Cluster nodes after 1 s (cluster-node-timeout);',
    'everything on one 2-core machine shared with other work.',
    '',
    '| Redis | case | REDIS_MIN_REPLICAS | acknowledged | acknowledged and lost | UNKNOWN | NOT_APPLIED | outage ms (median) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
});
