// A throwaway Redis Cluster of three masters for *.redis.test.ts files: redis-server processes on
// free ports, like startDedicatedRedis, joined with `redis-cli --cluster create`.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import Redis, { Cluster } from 'ioredis';
import type { RedisCluster } from '../../src/server/config';
import { boardKeys } from '../../src/store/keys';
import type { ManagedRedis } from './managedRedis';
import { startDedicatedRedis, uniqueId } from './redis';

/** Every node asks for it, so that the cluster tests also prove REDIS_PASSWORD reaches every connection. */
const PASSWORD = 'test-cluster-password';

export interface TestCluster {
  /** What REDIS_CLUSTER_NODES and REDIS_PASSWORD say for it. */
  config: RedisCluster;
  /** A client of the caller's own; it must quit() it. */
  client(): Cluster;
  /** A plain connection to one node ("host:port"); the caller must quit() it. */
  node(address: string): Redis;
  stop(): Promise<void>;
}

export async function startTestCluster(): Promise<TestCluster> {
  const servers: ManagedRedis[] = await Promise.all(
    [0, 1, 2].map(() => startDedicatedRedis({ persistence: 'none', extraArgs: ['--cluster-enabled', 'yes'] })),
  );
  const cluster: TestCluster = {
    config: { nodes: servers.map(({ port }) => ({ host: '127.0.0.1', port })), password: PASSWORD },
    client: () => new Cluster(cluster.config.nodes, { redisOptions: { password: PASSWORD } }),
    node: (address) => new Redis(`redis://:${PASSWORD}@${address}`),
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
  try {
    execFileSync('redis-cli', [
      '--cluster', 'create', ...servers.map(({ port }) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes',
    ], { stdio: 'ignore' });
    // Slots are assigned at once but gossip takes a moment to agree; poll every node, bounded.
    const deadline = Date.now() + 20_000;
    for (const { port } of servers) {
      const node = new Redis(port, '127.0.0.1');
      try {
        while (!/cluster_state:ok/.test(String(await node.cluster('INFO')))) {
          if (Date.now() > deadline) throw new Error(`the test cluster's node ${port} did not reach cluster_state:ok`);
          await delay(50);
        }
        await node.config('SET', 'requirepass', PASSWORD);
      } finally {
        node.disconnect();
      }
    }
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** A node's "host:port", as cluster clients and REDIS_CLUSTER_NODES name it. */
export const addressOf = ({ options }: Redis) => `${options.host}:${options.port}`;

/** The master ("host:port") that owns the board's slot, as `client` knows the cluster. */
async function masterOf(client: Cluster, boardId: string): Promise<string> {
  const slot = Number(await client.cluster('KEYSLOT', boardKeys(boardId).events));
  return client.slots[slot][0];
}

/** New board ids, one on each master, in the order of `client.nodes('master')`. */
export async function boardOnEachMaster(client: Cluster, prefix: string): Promise<{ id: string; master: string }[]> {
  if (client.status !== 'ready') await once(client, 'ready');
  const masters = client.nodes('master').map(addressOf);
  const found = new Map<string, string>();
  while (found.size < masters.length) {
    const id = uniqueId(prefix);
    const master = await masterOf(client, id);
    if (!found.has(master)) found.set(master, id);
  }
  return masters.map((master) => ({ id: found.get(master)!, master }));
}
