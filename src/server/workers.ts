// STANDINGS_WORKERS=N: one primary process and N workers (node:cluster) sharing the port. The
// primary serves nothing itself: it starts the workers, hands them what must exist once per
// machine (development's Redis, development's admin key), answers /metrics for all of them,
// replaces a worker that crashes, and stops them all on a signal.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { readMetricsFrom, registry } from './metrics';
import type { Logger } from './logger';

/** The response header naming the worker that served a request (only with more than one). */
export const WORKER_HEADER = 'x-standings-worker';

type ToWorker = { type: 'standings:stop' } | { type: 'standings:metrics'; id: number; text?: string; error?: string };
type ToPrimary = { type: 'standings:ready'; url: string } | { type: 'standings:metrics'; id: number };

export interface WorkerOptions {
  workers: number;
  /** Variables the workers get on top of the primary's own environment. */
  env: Record<string, string>;
  /** How long the workers have to stop (each also keeps its own SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  logger: Logger;
  /** After the last worker exited: what the primary itself holds (development's Redis). */
  release(): Promise<void>;
}

/**
 * Forks the workers and resolves once every one of them listens. A worker that exits before it
 * listens fails the start (its reason, e.g. Redis not answering, would fail its replacement
 * too): the others are stopped and the primary exits 1. One that dies later is replaced.
 * SIGTERM or SIGINT stops every worker through its own shutdown; the primary exits 0 when all of
 * them stopped cleanly, 1 otherwise.
 */
export function superviseWorkers(options: WorkerOptions): Promise<string> {
  const { logger } = options;
  const aggregator = new AggregatorRegistry();
  /** Forked and not exited yet: cluster.workers may still hold a worker whose 'exit' has fired. */
  const alive = new Set<Worker>();
  const ready = new Set<Worker>();
  let stopping = false;
  let failed = false;
  /** Past the start: each new worker replaces one that died. */
  let replacing = false;

  return new Promise<string>((resolve) => {
    const fork = (): void => {
      const worker = cluster.fork(options.env);
      alive.add(worker);
      worker.on('message', (message: ToPrimary) => {
        if (message.type === 'standings:ready') {
          ready.add(worker);
          if (replacing) logger.info(`Worker ${worker.id} (pid ${worker.process.pid}) is serving`);
          if (ready.size === options.workers) resolve(message.url);
        } else if (message.type === 'standings:metrics') {
          aggregator.clusterMetrics().then(
            (text) => send(worker, { type: 'standings:metrics', id: message.id, text }),
            (err: Error) => send(worker, { type: 'standings:metrics', id: message.id, error: err.message }),
          );
        }
      });
      worker.on('exit', (code, signal) => {
        alive.delete(worker);
        const wasReady = ready.delete(worker);
        if (stopping) {
          if (code !== 0 || signal !== null) failed = true;
          if (alive.size === 0) finish();
          return;
        }
        const how = signal ?? `code ${code}`;
        if (!wasReady) {
          logger.error(`Worker ${worker.id} exited (${how}) before it listened (its lines above say why): Standings failed to start`);
          failed = true;
          return stop('Start-up failed');
        }
        logger.error(`Worker ${worker.id} (pid ${worker.process.pid}) exited (${how}): starting another`);
        replacing = true;
        fork();
      });
    };

    const stop = (reason: string): void => {
      if (stopping) return;
      stopping = true;
      logger.info(`${reason}: stopping ${alive.size} workers`);
      if (alive.size === 0) return finish();
      for (const worker of alive) send(worker, { type: 'standings:stop' });
      setTimeout(() => {
        logger.error(`Workers still running after SHUTDOWN_GRACE_MS (${options.shutdownGraceMs} ms): killing them`);
        for (const worker of alive) worker.process.kill('SIGKILL');
      }, options.shutdownGraceMs + KILL_MARGIN_MS).unref();
    };

    /** Once every worker is gone, whatever stopped them. */
    const finish = (): void => {
      options.release().then(
        () => process.exit(failed ? 1 : 0),
        (err: unknown) => {
          logger.error(`Shutdown failed: ${(err as Error).stack ?? String(err)}`);
          process.exit(1);
        },
      );
    };

    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (!stopping) return stop(signal);
        logger.warn(`${signal} again: killing the workers without waiting`);
        for (const worker of alive) worker.process.kill('SIGKILL');
        process.exit(1);
      });
    }

    for (let i = 0; i < options.workers; i++) fork();
  });
}

/** Each worker's own stop() takes up to SHUTDOWN_GRACE_MS; the primary waits a little longer than that. */
const KILL_MARGIN_MS = 1_000;

function send(worker: Worker, message: ToWorker): void {
  // A worker that just exited has no channel left; its exit handler deals with it.
  if (worker.isConnected()) worker.send(message);
}

/**
 * In a worker: tells the primary it listens, takes its stop message as a SIGTERM, leaves the
 * terminal's SIGINT (sent to the whole process group) to the primary, which forwards it as a
 * stop, and serves /metrics for the whole machine. Returns the function that names the worker
 * on each response.
 */
export function joinPrimary(stop: (reason: string) => void): { ready(url: string): void; worker: string } {
  const worker = cluster.worker!;
  process.on('SIGINT', () => {});
  process.on('message', (message: ToWorker) => {
    if (message.type === 'standings:stop') stop('Stop from the primary');
  });
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one is what makes a worker answer the primary's requests for its metrics.
  new AggregatorRegistry();
  readMetricsFrom(machineMetrics);
  return { ready: (url) => process.send!({ type: 'standings:ready', url } satisfies ToPrimary), worker: String(worker.id) };
}

let nextRequest = 0;
const METRICS_TIMEOUT_MS = 10_000;

/** Every worker's metrics, added up by the primary (prom-client's AggregatorRegistry). */
function machineMetrics(): Promise<string> {
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: ToWorker) => {
      if (message.type !== 'standings:metrics' || message.id !== id) return;
      settle();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(`the primary could not collect the workers' metrics: ${message.error}`));
    };
    const timer = setTimeout(() => {
      settle();
      reject(new Error('the primary did not answer with the metrics in time'));
    }, METRICS_TIMEOUT_MS);
    const settle = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ type: 'standings:metrics', id } satisfies ToPrimary);
  });
}
