// A throwaway Redis Cluster of three masters (and, when asked, a replica each) for *.redis.test.ts
// files: redis-server processes on free ports, like startDedicatedRedis, joined with
// `redis-cli --cluster create`.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import Redis, { Cluster } from 'ioredis';
import { freePorts } from '../../src/dev/managedRedis';
import type { RedisCluster } from '../../src/server/config';
import { boardKeys } from '../../src/store/keys';
import type { FailoverTarget } from './failover';
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
  servers: ManagedRedis[];
  stop(): Promise<void>;
}

/**
 * `replicas` for each master (with REDIS_MIN_REPLICAS=1, two: one left after a failover), and
 * then a node timeout of a second, so that a master killed is failed over within seconds.
 */
export async function startTestCluster({ replicas = 0 } = {}): Promise<TestCluster> {
  const extraArgs = ['--cluster-enabled', 'yes', ...(replicas > 0 ? ['--cluster-node-timeout', '1000'] : [])];
  const servers: ManagedRedis[] = await Promise.all(Array.from({ length: 3 * (1 + replicas) }, () => startNode(extraArgs)));
  const cluster: TestCluster = {
    servers,
    config: { nodes: servers.map(({ port }) => ({ host: '127.0.0.1', port })), password: PASSWORD },
    client: () => new Cluster(cluster.config.nodes, { redisOptions: { password: PASSWORD } }),
    node: (address) => new Redis(`redis://:${PASSWORD}@${address}`),
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
  try {
    execFileSync('redis-cli', [
      '--cluster', 'create', ...servers.map(({ port }) => `127.0.0.1:${port}`), '--cluster-replicas', String(replicas), '--cluster-yes',
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
        // A replica counts for WAIT once it has synced.
        while (/master_link_status:down/.test(await node.info('replication'))) {
          if (Date.now() > deadline) throw new Error(`the test cluster's replica ${port} did not sync`);
          await delay(50);
        }
        // masterauth: a replica that reconnects to its master must log in too.
        await node.config('SET', 'masterauth', PASSWORD);
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

/**
 * One node, its bus port too one that is free rather than Redis' default (the port plus 10,000),
 * which another process may hold. A port can still be taken between our choosing it and Redis
 * binding it (the other nodes start at the same time, other test files too): then it starts again
 * on new ports.
 */
async function startNode(extraArgs: string[], attempts = 3): Promise<ManagedRedis> {
  const [port, busPort] = await freePorts(2);
  try {
    return await startDedicatedRedis({ persistence: 'none', port, extraArgs: [...extraArgs, '--cluster-port', String(busPort)] });
  } catch (error) {
    if (attempts > 1 && /Address already in use/.test(String(error))) return startNode(extraArgs, attempts - 1);
    throw error;
  }
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

/** A new board on one master of a cluster started with replicas, and that master's replica, for ./failover.ts. */
export async function clusterFailover(cluster: TestCluster): Promise<FailoverTarget> {
  const client = cluster.client();
  try {
    const [{ id: boardId, master: address }] = await boardOnEachMaster(client, 'failover');
    const master = cluster.servers.find(({ port }) => `127.0.0.1:${port}` === address)!;
    const nodes = await withNode(cluster, address, (node) => node.cluster('NODES') as Promise<string>);
    const masterId = /^(\S+) \S+ myself,master/m.exec(nodes)![1];
    const replicaPorts = [...nodes.matchAll(new RegExp(`^\\S+ 127\\.0\\.0\\.1:(\\d+)\\S* (?:slave|replica) ${masterId}`, 'gm'))].map(([, port]) => Number(port));
    const replicas = cluster.servers.filter(({ port }) => replicaPorts.includes(port));
    const isMaster = (port: number) => withNode(cluster, `127.0.0.1:${port}`, async (node) => /myself,master/.test(String(await node.cluster('NODES'))));
    return {
      boardId,
      master,
      replicas,
      cutReplicas: () => withNode(cluster, address, async (node) => void (await node.call('CLIENT', 'KILL', 'TYPE', 'replica'))),
      promoted: async () => (await Promise.all(replicaPorts.map(isMaster))).includes(true),
    };
  } finally {
    client.disconnect();
  }
}

async function withNode<T>(cluster: TestCluster, address: string, exchange: (node: Redis) => Promise<T>): Promise<T> {
  const node = cluster.node(address);
  node.on('error', () => {});
  try {
    return await exchange(node);
  } finally {
    node.disconnect();
  }
}
