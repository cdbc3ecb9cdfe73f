/**
 * The service as it ships, for the soak benches: src/server/main.ts in its own process as
 * `npm start` runs it (NODE_ENV=production, API keys and rate limits on), on loopback, and the
 * requests its clients send it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { BENCH_NODE_FLAGS } from './peers/launch';

export const KEYS = { admin: 'soak-admin-key-000000001', writer: 'soak-writer-key-00000002', reader: 'soak-reader-key-00000003' };

export interface MainProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The environment it runs with. */
  env: Record<string, string>;
  /** The lines it has logged at level error so far: internal errors among them. */
  errorLines(): string[];
}

/**
 * `env`: the settings a bench sets on top of production's (rate limits, timeouts). `built`: run
 * dist/server/main.js as `npm start` does (the bench's npm script builds it first) rather than the
 * sources through ts-node, whose compiler and source-map support (which every Error's stack
 * goes through) a shipped server does not carry.
 */
export async function startServer(redisUrl: string, env: Record<string, string>, options: { built?: boolean } = {}): Promise<MainProcess> {
  const root = join(__dirname, '..');
  const entry = options.built ? [join(root, 'dist', 'server', 'main.js')] : ['-r', 'ts-node/register/transpile-only', join(root, 'src', 'server', 'main.ts')];
  const serverEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    REDIS_URL: redisUrl,
    STANDINGS_API_KEYS: Object.entries(KEYS).map(([role, key]) => `${role}:${key}`).join(','),
    ...env,
  };
  const child = spawn(process.execPath, [...BENCH_NODE_FLAGS, ...entry], { env: serverEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = / ready at (http:\/\/\S+\/graphql)/.exec(output);
      if (ready) resolve(ready[1]);
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)));
  });
  return { url, child, exited, env: serverEnv, errorLines: () => output.split('\n').filter((line) => line.includes('"level":"error"')) };
}

/** SIGTERM, as an orchestrator stops it; the wait is bounded by the server's own SHUTDOWN_GRACE_MS. */
export async function stopServer(server: MainProcess): Promise<{ exitCode: number | null; shutdownMs: number }> {
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  const exitCode = await server.exited;
  return { exitCode, shutdownMs: Date.now() - signalled };
}

/** The parsed answer, whatever it says: for callers that look at the errors themselves. */
export async function post(url: string, key: string, body: string): Promise<{ status: number; result: { data?: unknown; errors?: unknown[] } }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
  return { status: response.status, result: (await response.json()) as { data?: unknown; errors?: unknown[] } };
}

/** The answer's data; anything else (an HTTP error, GraphQL errors) throws. */
export async function graphql(url: string, key: string, body: string): Promise<unknown> {
  const { status, result } = await post(url, key, body);
  if (status !== 200 || result.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(result).slice(0, 300)}`);
  return result.data;
}
