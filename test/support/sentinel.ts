// A throwaway Redis Sentinel group on loopback: one master, two replicas and three sentinels
// (`redis-server <conf> --sentinel`), each on a free port like startDedicatedRedis; and a
// failover under writes that counts what became of every acknowledged write. Used by
// test/e2e/sentinel.redis.test.ts and bench/failover.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Redis from 'ioredis';
import type { RedisSentinel } from '../../src/server/config';
import { createBoard, SUBMIT, TEST_KEYS, type TestServer } from './harness';
import type { ManagedRedis } from './managedRedis';
import { startDedicatedRedis, uniqueId } from './redis';

const NAME = 'standings-test';
/** How long a silent master takes to be judged down: short, so that failovers take seconds. */
const DOWN_AFTER_MS = 1_000;
const POLL_MS = 50;

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

/** Polls `holds` until it is true, failing after `timeoutMs`. */
export async function until(what: string, holds: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await holds().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(POLL_MS);
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

export interface FailoverAudit {
  /** Answered with data. */
  acknowledged: number;
  /** Of those, not on the board after the failover. */
  lost: number;
  /** UNAVAILABLE with outcome UNKNOWN. */
  unknown: number;
  /** UNAVAILABLE with outcome NOT_APPLIED. */
  notApplied: number;
  /** From kill -9 of the master to the first write acknowledged by the promoted replica. */
  outageMs: number;
}

export interface FailoverOptions {
  /**
   * Cut the replicas off while writes go on (stopped, and their links closed by the master), then
   * kill the master and wake them: the writes the master acknowledged meanwhile never reached
   * the replica that takes over.
   */
  stallReplicas: boolean;
  /** Concurrent writers; default 4. */
  writers?: number;
  /** Called once writes are acknowledged by the promoted replica. */
  afterFailover?: () => Promise<void>;
}

/**
 * Writes flow on `server` (each submission a new player, so being on the board is being
 * applied) while the group's master is killed -9 and the sentinels promote a replica; then
 * every acknowledged write is looked for on the board.
 */
export async function writeThroughFailover(server: TestServer, group: SentinelGroup, options: FailoverOptions): Promise<FailoverAudit> {
  const boardId = uniqueId('failover');
  await createBoard(server, boardId);
  const answers = new Map<string, 'applied' | 'UNKNOWN' | 'NOT_APPLIED'>();
  const counts = { applied: 0, UNKNOWN: 0, NOT_APPLIED: 0 };
  let next = 0;
  let writing = true;
  const writer = async () => {
    while (writing) {
      const playerId = `p${next++}`;
      const { body } = await server.post(SUBMIT, { input: { leaderboardId: boardId, playerId, score: next } }, { key: TEST_KEYS.writer });
      const outcome = body.data ? 'applied' : body.errors?.[0]?.extensions?.outcome;
      if (outcome !== 'applied' && outcome !== 'UNKNOWN' && outcome !== 'NOT_APPLIED') throw new Error(`unexpected answer: ${JSON.stringify(body)}`);
      answers.set(playerId, outcome);
      counts[outcome]++;
      // As a client backs off after a failure, rather than spin through the outage.
      if (outcome !== 'applied') await delay(20);
    }
  };
  const writers = Array.from({ length: options.writers ?? 4 }, writer);
  const failed = Promise.race(writers).then(() => {}, (err: unknown) => err);
  const waitFor = async (what: string, holds: () => boolean) => {
    const failure = await Promise.race([until(what, async () => holds()), failed]);
    if (failure) throw failure;
  };
  try {
    await waitFor('writes acknowledged before the failover', () => counts.applied >= 50);
    if (options.stallReplicas) {
      // Stopped alone, a replica would still find, on waking, what the kernel buffered for it.
      for (const { pid } of group.replicas) process.kill(pid, 'SIGSTOP');
      await probe(group.master.port, (node) => node.call('CLIENT', 'KILL', 'TYPE', 'replica'));
      const answered = answers.size;
      await waitFor('writes answered while the replicas are cut off', () => answers.size >= answered + 20);
    }
    const oldMaster = group.master.port;
    const killed = Date.now();
    process.kill(group.master.pid, 'SIGKILL');
    if (options.stallReplicas) for (const { pid } of group.replicas) wake(pid);
    await until('the sentinels to promote a replica', async () => (await group.masterPort()) !== oldMaster, 60_000);
    const before = counts.applied;
    await waitFor('writes acknowledged by the new master', () => counts.applied > before);
    const outageMs = Date.now() - killed;
    await waitFor('more writes acknowledged by the new master', () => counts.applied >= before + 50);
    await options.afterFailover?.();
    writing = false;
    await Promise.all(writers);
    const onBoard = await playersOnBoard(server, boardId, [...answers.keys()]);
    const acknowledged = [...answers].filter(([, answer]) => answer === 'applied').map(([playerId]) => playerId);
    return {
      acknowledged: acknowledged.length,
      lost: acknowledged.filter((playerId) => !onBoard.has(playerId)).length,
      unknown: counts.UNKNOWN,
      notApplied: counts.NOT_APPLIED,
      outageMs,
    };
  } finally {
    writing = false;
    if (options.stallReplicas) for (const { pid } of group.replicas) wake(pid);
  }
}

function wake(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Not running any more: nothing to wake.
  }
}

/** Which of the players have an entry, read through the service 100 at a time. */
async function playersOnBoard(server: TestServer, boardId: string, players: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < players.length; i += 100) {
    const { entries } = await server.data('query ($id: ID!, $ids: [ID!]!) { entries(leaderboardId: $id, playerIds: $ids) { playerId } }', {
      id: boardId, ids: players.slice(i, i + 100),
    });
    for (const entry of entries as ({ playerId: string } | null)[]) if (entry) found.add(entry.playerId);
  }
  return found;
}
