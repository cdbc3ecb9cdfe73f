import calculateSlot from 'cluster-key-slot';
import { Cluster, type Redis } from 'ioredis';
import { unavailable, WriteOutcome } from '../errors';

type Client = Redis | Cluster;

/**
 * How far a command that failed for want of Redis got, read from ioredis' error. The client is
 * set up (src/server/redis.ts) so that ioredis never sends a command twice by itself: whether
 * one may be repeated is decided here.
 * - `unsent`: it never left this process (the connection was down);
 * - `refused`: Redis answered with an error without running it (still loading, a cluster
 *   without a master for the slot);
 * - `timeout`: sent, and Redis did not answer in time: it may still run it;
 * - `lost`: sent, and the connection closed before the answer: it may have run. On a Cluster
 *   "Connection is closed" also stands for a node that was never reached; it is taken as lost,
 *   the answer that cannot mislead.
 */
type Failure = 'unsent' | 'refused' | 'timeout' | 'lost';

const FAILURES: [Failure, RegExp][] = [
  ['timeout', /Command timed out/],
  ['lost', /Connection is closed|Reached the max retries|Command aborted due to connection close|ECONNRESET|ETIMEDOUT|EPIPE/],
  ['unsent', /Stream isn't writeable|Cluster isn't ready|No sharded subscriber for slot|ECONNREFUSED|EHOSTUNREACH|ENOTFOUND/],
  // READONLY: a master demoted to replica (a Sentinel failover) refuses every write whole.
  ['refused', /^(?:LOADING|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|READONLY|Too many Cluster redirections)/],
];

function failureOf(err: unknown): Failure | undefined {
  if (!(err instanceof Error)) return undefined;
  if (err.name === 'MaxRetriesPerRequestError') return 'lost';
  return FAILURES.find(([, pattern]) => pattern.test(err.message))?.[0];
}

/**
 * How long a request waits for a dropped connection to come back before it fails: long enough
 * for the immediate first reconnection attempt, short enough that an outage still answers fast.
 */
const RECONNECT_WAIT_MS = 500;
/** A Cluster reconnects node by node behind one 'ready' client: a retry waits this long for it. */
const CLUSTER_RETRY_PAUSE_MS = 100;
/** Between two probes of a Redis that stopped answering, when a probe fails at once. */
const PROBE_PAUSE_MS = 100;

/** How often the event loop's turns are watched for lateness (see LoopWatch). */
const LOOP_WATCH_INTERVAL_MS = 20;

/**
 * Whether this process' own event loop was held up lately (a long synchronous task: a huge
 * answer serialised, a burst of work). A command timeout is a timer: when the loop was held
 * past it, the timer fires as soon as the loop is free, before the answer waiting in the socket
 * is read, so the timeout says nothing of Redis. A timer of its own notes how late each of its
 * turns comes; being due earlier than any command timed out after the same hold, it runs first
 * and has seen the hold by the time that command's timeout fires.
 */
class LoopWatch {
  /** When the latest late turn ran (performance.now()), and how late it was (ms). */
  private lateAt = -Infinity;
  private lateBy = 0;

  constructor() {
    let due = performance.now() + LOOP_WATCH_INTERVAL_MS;
    setInterval(() => {
      const now = performance.now();
      if (now - due > LOOP_WATCH_INTERVAL_MS) {
        this.lateAt = now;
        this.lateBy = now - due;
      }
      due = now + LOOP_WATCH_INTERVAL_MS;
    }, LOOP_WATCH_INTERVAL_MS).unref();
  }

  /** Whether a hold of at least `ms` ended within the last `ms` + a turn: enough to have fired a timeout of `ms` by itself. */
  heldUpFor(ms: number): boolean {
    return this.lateBy >= ms / 2 && performance.now() - this.lateAt <= ms + LOOP_WATCH_INTERVAL_MS;
  }
}

let loopWatch: LoopWatch | undefined;

/**
 * What one client's recent failures say about its Redis. After a command times out, Redis is
 * paused, overloaded or cut off: every command sent to it meanwhile would wait a whole timeout
 * and then may still run when it wakes up. So until it answers again (a PING probe, or a new
 * connection), requests fail at once, and writes can say that nothing was sent.
 */
class ConnectionHealth {
  private silent = false;
  /** A connection attempt began since the client was last ready: its failure means Redis is down. */
  private attempting = false;
  /**
   * A wait for the connection to come back ran out (an attempt that neither fails nor finishes: a
   * Redis paused or still loading): until the client is ready again, requests fail at once
   * instead of each waiting as long again.
   */
  private stalled = false;
  private readonly waiting = new Set<(ready: boolean) => void>();

  constructor(private readonly redis: Client) {
    loopWatch ??= new LoopWatch();
    redis.on('connecting', () => (this.attempting = true));
    redis.on('ready', () => {
      this.silent = false;
      this.attempting = false;
      this.stalled = false;
      this.wake(true);
    });
    redis.on('reconnecting', () => {
      if (!this.attempting) return;
      this.attempting = false;
      this.wake(false);
    });
    redis.on('end', () => this.wake(false));
  }

  get answering(): boolean {
    return !this.silent;
  }

  /**
   * A command timed out. True when that says nothing of Redis: this process' own event loop was
   * held up past the timeout (LoopWatch), so the answer may well be waiting to be read. Else Redis
   * is taken as not answering, and probed, until it answers again.
   */
  timedOut(): boolean {
    const timeoutMs = (this.redis.isCluster ? (this.redis as Cluster).options.redisOptions?.commandTimeout : (this.redis as Redis).options.commandTimeout) ?? 0;
    if (loopWatch!.heldUpFor(timeoutMs)) return true;
    if (this.silent) return false;
    this.silent = true;
    void this.probe();
    return false;
  }

  private async probe(): Promise<void> {
    while (this.silent) {
      try {
        await this.redis.ping();
        this.silent = false;
      } catch {
        // A connection that is down fails the probe at once; a hung one after a whole timeout.
        await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
      }
    }
  }

  /**
   * True once the client can send again (within `waitMs`); false when it stays down. `sent`:
   * whether the failed command went out. One that did failed because its connection closed, so a
   * client that is ready again is on a new connection; one that could not be sent may have met a
   * connection that is closed but not yet noticed, so it waits for the next one.
   */
  async reconnected(waitMs: number, sent: boolean): Promise<boolean> {
    const redis = this.redis;
    if (redis.isCluster) {
      await new Promise((resolve) => setTimeout(resolve, CLUSTER_RETRY_PAUSE_MS));
      return redis.status === 'ready';
    }
    if (sent && redis.status === 'ready') return true;
    if (redis.status === 'end' || this.stalled) return false;
    return new Promise<boolean>((resolve) => {
      const settle = (ready: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(settle);
        resolve(ready);
      };
      const timer = setTimeout(() => {
        this.stalled = true;
        settle(false);
      }, waitMs);
      this.waiting.add(settle);
    });
  }

  private wake(ready: boolean): void {
    for (const settle of [...this.waiting]) settle(ready);
  }
}

const healthOf = new WeakMap<Client, ConnectionHealth>();

function health(redis: Client): ConnectionHealth {
  let known = healthOf.get(redis);
  if (!known) healthOf.set(redis, (known = new ConnectionHealth(redis)));
  return known;
}

/**
 * Runs one Redis command (or script) that only reads, or whose repetition is harmless (a rate
 * limit count, a subscription): outages become UNAVAILABLE; a script's own error replies go on
 * as they are, for its command module to decode (commands/scriptErrors.ts). A read the
 * connection dropped under, or that could not be sent, is tried once more when the connection
 * is back within a moment.
 */
export function redisRead<T>(redis: Client, op: () => Promise<T>): Promise<T> {
  return call(redis, op, false);
}

/**
 * Runs one Redis command that changes data, at most once: it is repeated only when it never
 * left this process. An outage is UNAVAILABLE with `outcome` NOT_APPLIED when nothing reached
 * Redis, UNKNOWN when the command may have run. `key`: one key it writes, which on a Cluster
 * names the master whose replicas must confirm it (see requireReplicas); a write without one
 * there answers UNKNOWN when replicas are required.
 */
export async function redisWrite<T>(redis: Client, op: () => Promise<T>, key?: string): Promise<T> {
  const result = await call(redis, op, true);
  const replication = replicationOf.get(redis);
  if (replication) await confirmReplicated(redis, key, replication);
  return result;
}

/** When a write counts as acknowledged (REDIS_MIN_REPLICAS, REDIS_REPLICA_TIMEOUT_MS). */
export interface Replication {
  /** Replicas that must have a write before it is answered (Redis WAIT); 0: the master's word is enough. */
  minReplicas: number;
  /** How long a write waits for them before answering UNAVAILABLE with outcome UNKNOWN. */
  timeoutMs: number;
}

const replicationOf = new WeakMap<Client, Replication>();

/**
 * From now on every redisWrite on this client answers only once `minReplicas` replicas have the
 * write, so that a failover (which promotes a replica) cannot lose a write that was acknowledged.
 */
export function requireReplicas(redis: Client, replication: Replication): void {
  if (replication.minReplicas > 0) replicationOf.set(redis, replication);
  else replicationOf.delete(redis);
}

/**
 * WAIT on the connection that ran the write: it counts the replicas that have everything that
 * connection wrote so far. On a Cluster that is the connection to the master owning the key's slot.
 */
async function confirmReplicated(redis: Client, key: string | undefined, { minReplicas, timeoutMs }: Replication): Promise<void> {
  let confirmed: number;
  try {
    confirmed = await connectionFor(redis, key).wait(minReplicas, timeoutMs);
  } catch (err) {
    const outage = unavailable('Redis applied the write but did not say whether its replicas have it', WriteOutcome.UNKNOWN);
    outage.cause = err;
    throw outage;
  }
  if (confirmed < minReplicas) {
    throw unavailable(
      `Only ${confirmed} of the ${minReplicas} replicas required confirmed the write in time: it is applied, but a failover now could lose it`,
      WriteOutcome.UNKNOWN,
    );
  }
}

function connectionFor(redis: Client, key: string | undefined): Redis {
  if (!(redis instanceof Cluster)) return redis;
  if (key === undefined) throw new Error('a write on a Cluster must name a key for WAIT');
  const owner = redis.slots[calculateSlot(key)]?.[0];
  const node = redis.nodes('master').find(({ options }) => `${options.host}:${options.port}` === owner);
  if (!node) throw new Error(`no connection to the master of slot ${calculateSlot(key)}`);
  return node;
}

async function call<T>(redis: Client, op: () => Promise<T>, write: boolean): Promise<T> {
  const state = health(redis);
  if (!state.answering) throw unavailable('Redis is not answering', write ? WriteOutcome.NOT_APPLIED : undefined);
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      const failure = failureOf(err);
      if (failure === undefined) throw err;
      // A read timed out by this process' own hold-up is sent again: Redis was never in doubt.
      const ownHoldUp = failure === 'timeout' && state.timedOut();
      const repeatable = failure === 'unsent' || (!write && (failure === 'lost' || ownHoldUp));
      if (attempt === 1 && repeatable && (await state.reconnected(RECONNECT_WAIT_MS, failure !== 'unsent'))) continue;
      const applied = failure === 'unsent' || failure === 'refused' ? WriteOutcome.NOT_APPLIED : WriteOutcome.UNKNOWN;
      const outage = unavailable(failure === 'timeout' ? 'Redis did not answer in time' : 'Redis is unavailable', write ? applied : undefined);
      outage.cause = err;
      throw outage;
    }
  }
}
