// A throwaway Redis Sentinel group on loopback: one master, two replicas and three sentinels
// (`redis-server <conf> --sentinel`), each on a free port like startDedicatedRedis. Used by
// test/e2e/sentinel.redis.test.ts and bench/failover.ts, with the scenario of ./failover.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Redis from 'ioredis';
import type { RedisSentinel } from '../../src/server/config';
import { type FailoverTarget, until } from './failover';
import type { ManagedRedis } from './managedRedis';
import { startDedicatedRedis, uniqueId } from './redis';

const NAME = 'standings-test';
/** How long a silent master takes to be judged down: short, so that failovers take seconds. */
const DOWN_AFTER_MS = 1_000;

export interface SentinelGroup {
  /** What REDIS_SENTINELS and REDIS_SENTINEL_NAME say for it. */
  config: RedisSentinel;
  master: ManagedRedis;
  /** Two: with REDIS_MIN_REPLICAS=1, writes are confirmed again once one is promoted. */
  replicas: ManagedRedis[];
  sentinels: ManagedRedis[];
  /** The master's port as the sentinels name it now. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

export async function startSentinelGroup(): Promise<SentinelGroup> {
  const started: ManagedRedis[] = [];
  const confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-sentinel-'));
  const stop = async () => {
    await Promise.all(started.map((server) => server.stop()));
    fs.rmSync(confDir, { recursive: true, force: true });
  };
  try {
    const master = await startDedicatedRedis();
    started.push(master);
    const replicas = await Promise.all([0, 1].map(async () => {
      const replica = await startDedicatedRedis({ persistence: 'none', extraArgs: ['--replicaof', '127.0.0.1', String(master.port)] });
      started.push(replica);
      return replica;
    }));
    for (const { port } of replicas) {
      await until(`the replica on ${port} to sync`, () => probe(port, async (node) => /master_link_status:up/.test(await node.info('replication'))));
    }

    const sentinels = await Promise.all([0, 1, 2].map(async (i) => {
      const configFile = path.join(confDir, `sentinel-${i}.conf`);
      fs.writeFileSync(configFile, [
        `sentinel monitor ${NAME} 127.0.0.1 ${master.port} 2`,
        `sentinel down-after-milliseconds ${NAME} ${DOWN_AFTER_MS}`,
        `sentinel failover-timeout ${NAME} 10000`,
        '',
      ].join('\n'));
      const sentinel = await startDedicatedRedis({ persistence: 'none', configFile, extraArgs: ['--sentinel'] });
      started.push(sentinel);
      return sentinel;
    }));
    // A failover needs a majority of sentinels that know each other and the replicas.
    for (const { port } of sentinels) {
      await until(`sentinel ${port} to know the replicas and the other sentinels`, () => probe(port, async (node) => {
        const [replicas, others] = await Promise.all([node.call('SENTINEL', 'REPLICAS', NAME), node.call('SENTINEL', 'SENTINELS', NAME)]);
        return (replicas as unknown[]).length === 2 && (others as unknown[]).length === 2;
      }));
    }
    return {
      config: { sentinels: sentinels.map(({ port }) => ({ host: '127.0.0.1', port })), name: NAME, password: null },
      master,
      replicas,
      sentinels,
      masterPort: async () => {
        const address = await probe(sentinels[0].port, (node) => node.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', NAME));
        return Number((address as string[])[1]);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function probe<T>(port: number, exchange: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  node.on('error', () => {});
  try {
    await node.connect();
    return await exchange(node);
  } finally {
    node.disconnect();
  }
}

/** The group's master as ./failover.ts kills it: any board will do, every key is on it. */
export function sentinelFailover(group: SentinelGroup): FailoverTarget {
  const { master, replicas } = group;
  return {
    boardId: uniqueId('failover'),
    master,
    replicas,
    cutReplicas: async () => {
      await probe(master.port, (node) => node.call('CLIENT', 'KILL', 'TYPE', 'replica'));
    },
    promoted: async () => (await group.masterPort()) !== master.port,
  };
}
