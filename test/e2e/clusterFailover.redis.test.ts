// REDIS_MIN_REPLICAS on a Redis Cluster: the master that holds a board is killed -9 while writes
// flow, after its replicas fell behind; the cluster promotes one, and no write that was
// acknowledged is lost, because each waited (WAIT) on the master that owns the board's slot;
// without it, the writes only the dead master had are lost although they were acknowledged.
import { clusterFailover, startTestCluster, type TestCluster } from '../support/cluster';
import { writeThroughFailover } from '../support/failover';
import { TestServer } from '../support/harness';

// Nine redis-server processes, then a real failover (a second's node timeout, then an election).
jest.setTimeout(120_000);

let cluster: TestCluster | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  await cluster?.stop();
});

it('with REDIS_MIN_REPLICAS=1, loses no acknowledged write when the master of a board is killed -9', async () => {
  cluster = await startTestCluster({ replicas: 2 });
  server = await TestServer.start(cluster.config, { replication: { minReplicas: 1, timeoutMs: 200 }, commandTimeoutMs: 1_000 });
  const audit = await writeThroughFailover(server, await clusterFailover(cluster), { stallReplicas: true });
  expect(audit.lost).toBe(0);
  expect(audit.acknowledged).toBeGreaterThanOrEqual(100);
  expect(audit.unknown).toBeGreaterThan(0);
});

it('without REDIS_MIN_REPLICAS, loses the acknowledged writes its replicas never received', async () => {
  cluster = await startTestCluster({ replicas: 2 });
  server = await TestServer.start(cluster.config);
  const audit = await writeThroughFailover(server, await clusterFailover(cluster), { stallReplicas: true });
  expect(audit.lost).toBeGreaterThan(0);
});
