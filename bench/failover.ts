/**
 * Acknowledged writes lost in a Sentinel failover, with and without REDIS_MIN_REPLICAS=1: the
 * scenario of test/e2e/sentinel.redis.test.ts (one master, two replicas, three sentinels on
 * loopback; the master killed -9 while 4 clients write, each write a new player) run a few times.
 * "kill -9" kills the master while its replicas keep up, as they do on an idle loopback; "replicas
 * behind" first cuts the replicas off for 20 writes, as a slow network or a busy replica would.
 *
 *   npm run bench:failover                   # 3 runs of each of the four cases
 *   npm run bench:failover -- --runs 5
 *
 * Results go to BENCHMARKS.md (section "failover").
 */
import { parseArgs, runBench } from './cli';
import { median } from './report';
import { TestServer } from '../test/support/harness';
import { type FailoverAudit, startSentinelGroup, writeThroughFailover } from '../test/support/sentinel';

const { options } = parseArgs({ runs: 3 }, [1]);

const CASES = [
  { name: 'kill -9', stallReplicas: false },
  { name: 'replicas behind, then kill -9', stallReplicas: true },
];
const SETTINGS = [
  { name: 'off', replication: undefined },
  { name: 'REDIS_MIN_REPLICAS=1 (200 ms)', replication: { minReplicas: 1, timeoutMs: 200 } },
];

async function once(stallReplicas: boolean, replication: (typeof SETTINGS)[number]['replication']): Promise<FailoverAudit> {
  const group = await startSentinelGroup();
  try {
    const server = await TestServer.start(group.config, { replication, commandTimeoutMs: 1_000 });
    try {
      return await writeThroughFailover(server, group, { stallReplicas });
    } finally {
      await server.stop();
    }
  } finally {
    await group.stop();
  }
}

runBench('failover', 'bench:failover', async () => {
  const rows: string[] = [];
  for (const scenario of CASES) {
    for (const setting of SETTINGS) {
      const audits: FailoverAudit[] = [];
      for (let run = 0; run < options.runs; run++) {
        const audit = await once(scenario.stallReplicas, setting.replication);
        console.log(`${scenario.name}, ${setting.name}: ${JSON.stringify(audit)}`);
        audits.push(audit);
      }
      const list = (pick: (audit: FailoverAudit) => number) => audits.map(pick).join(', ');
      rows.push(
        `| ${scenario.name} | ${setting.name} | ${list((a) => a.acknowledged)} | ${list((a) => a.lost)} | ${list((a) => a.unknown)} | ` +
          `${list((a) => a.notApplied)} | ${median(audits.map((a) => a.outageMs)).toFixed(0)} |`,
      );
    }
  }
  return [
    `${options.runs} runs per row (each on a new group); each run writes until 50 writes are acknowledged after the failover.`,
    'Sentinels judge a master down after 1 s (down-after-milliseconds); everything on one 2-core machine shared with other work.',
    '',
    '| case | REDIS_MIN_REPLICAS | acknowledged | acknowledged and lost | UNKNOWN | NOT_APPLIED | outage ms (median) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
});
