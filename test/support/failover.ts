// A failover under writes, counting what became of every acknowledged write: the master that
// holds a board is killed -9 while clients write to it and a replica takes over (Sentinel,
// ./sentinel.ts, or a Redis Cluster, ./cluster.ts). Used by the failover tests and bench/failover.ts.
import { setTimeout as delay } from 'node:timers/promises';
import { createBoard, SUBMIT, TEST_KEYS, type TestServer } from './harness';

const POLL_MS = 50;

/** Polls `holds` until it is true, failing after `timeoutMs`. */
export async function until(what: string, holds: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await holds().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(POLL_MS);
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

/** A master to kill -9, its replicas, and how to tell one of them took over. */
export interface FailoverTarget {
  /** A new board whose keys live on `master`. */
  boardId: string;
  master: { pid: number; port: number };
  replicas: { pid: number }[];
  /** Closes the master's replication links (its replicas stopped, they cannot come back). */
  cutReplicas(): Promise<void>;
  promoted(): Promise<boolean>;
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
 * applied) while the target's master is killed -9 and a replica takes over; then every
 * acknowledged write is looked for on the board.
 */
export async function writeThroughFailover(server: TestServer, target: FailoverTarget, options: FailoverOptions): Promise<FailoverAudit> {
  const { boardId } = target;
  await createBoard(server, boardId);
  const answers = new Map<string, 'applied' | 'UNKNOWN' | 'NOT_APPLIED'>();
  const counts = { applied: 0, UNKNOWN: 0, NOT_APPLIED: 0 };
  let next = 0;
  let writing = true;
  const writer = async () => {
    while (writing) {
      const playerId = `p${next++}`;
      const { body } = await server.post(SUBMIT, { input: { leaderboardId: boardId, playerId, score: next } }, { key: TEST_KEYS.writer });
      // Mutation fields are nullable: a failed one is `{ submitScore: null }` with an error.
      const outcome = body.data?.submitScore?.entry ? 'applied' : body.errors?.[0]?.extensions?.outcome;
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
      for (const { pid } of target.replicas) process.kill(pid, 'SIGSTOP');
      await target.cutReplicas();
      const answered = answers.size;
      await waitFor('writes answered while the replicas are cut off', () => answers.size >= answered + 20);
    }
    const killed = Date.now();
    process.kill(target.master.pid, 'SIGKILL');
    if (options.stallReplicas) for (const { pid } of target.replicas) wake(pid);
    await until('a replica to take over', () => target.promoted(), 60_000);
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
    if (options.stallReplicas) for (const { pid } of target.replicas) wake(pid);
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
