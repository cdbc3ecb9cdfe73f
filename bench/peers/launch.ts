/** The parent side of a bench peer (see ./host.ts): one child process per contender. */
import { fork } from 'node:child_process';
import { join } from 'node:path';

export type PeerName = 'standings' | 'standings-apollo' | 'standings-unfair' | 'mercurius' | 'mercurius-cached';

export interface Peer {
  name: PeerName;
  url: string;
  /** The peer's process, for benches that read its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

/** Every peer is given this writer key, and the benches send it with every request. */
export const BENCH_API_KEY = 'bench-writer-key-0123456789';
/**
 * Production settings, with the per-key rate limit off: it costs a Redis call per request that
 * the other peers do not make, and would refuse a bench's load (bench:soak runs with it on).
 */
const PEER_ENV = {
  NODE_ENV: 'production',
  STANDINGS_API_KEYS: `writer:${BENCH_API_KEY}`,
  RATE_LIMIT_PER_KEY: '0',
};

/**
 * Extra Node flags for every contender's process (and bench:live's floor), from BENCH_NODE_FLAGS:
 * e.g. `--perf-basic-prof`, so that Linux `perf` can name the JavaScript it samples.
 */
export const BENCH_NODE_FLAGS = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts bench/peers/<name>.ts against `redisUrl`; with `cpuProfileDir`, under `node --cpu-prof`;
 * with `checkout`, that checkout's peer (its own src/, e.g. main's, for a before/after comparison).
 */
export async function launchPeer(name: PeerName, redisUrl: string, cpuProfileDir?: string, checkout?: string): Promise<Peer> {
  const child = fork(checkout ? join(checkout, 'bench', 'peers', `${name}.ts`) : join(__dirname, `${name}.ts`), [], {
    execArgv: [...BENCH_NODE_FLAGS, ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []), '-r', 'ts-node/register/transpile-only'],
    env: { ...process.env, ...PEER_ENV, REDIS_URL: redisUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      child.once('message', (message: { url: string }) => {
        clearTimeout(timer);
        resolve(message.url);
      });
      void exited.then(() => reject(new Error(`${name} exited before listening`)));
    });
    return {
      name,
      url,
      pid: child.pid!,
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.send('stop');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}
