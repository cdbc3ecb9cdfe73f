// The real entry point in a child process: configuration, the Redis wait, listening, signals.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { testRedisUrl } from '../support/redis';
import { freePort } from '../../src/server/managedRedis';

const MAIN = path.join(__dirname, '..', '..', 'src', 'server', 'main.ts');

interface Run {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first match in the output, rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', MAIN], {
    // Only what the test sets, so a developer's REDIS_URL or PORT cannot leak in.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    listeners.forEach((check) => check());
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            listeners.delete(check);
            resolve(match);
          }
        };
        listeners.add(check);
        check();
        void exited.then((code) => reject(new Error(`exited (${code}) before printing ${pattern}:\n${output}`)));
      }),
  };
}

/** A port nothing listens on: the OS hands it out, and it is closed again at once. */
const deadPort = freePort;

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});
const started = (env: Record<string, string>) => {
  const launched = run(env);
  running.add(launched.child);
  return launched;
};

it('starts on REDIS_URL, prints its URL, serves, and stops cleanly on SIGTERM', async () => {
  const server = started({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'test' });
  const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ leaderboard(id: "none") { id } }' }),
  });
  expect(await response.json()).toEqual({ data: { leaderboard: null } });
  expect((await fetch(url.replace('/graphql', '/readyz'))).status).toBe(200);

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  expect(server.output()).toMatch(/SIGTERM: finishing in-flight requests, then stopping\nStopped\n$/);
});

it('starts its own Redis when REDIS_URL is unset, and stops it again', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-main-'));
  try {
    const server = started({ PORT: '0', NODE_ENV: 'test', REDIS_DATA_DIR: dataDir });
    await server.waitFor(/started redis-server at redis:\/\/\S+ with data in /);
    const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
    const created = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { createLeaderboard(input: { id: "dev", sortOrder: DESCENDING, updatePolicy: BEST }) { id } }' }),
    });
    expect(await created.json()).toEqual({ data: { createLeaderboard: { id: 'dev' } } });

    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    // The data survives in the append-only file; the server recorded in the data dir is gone.
    expect(fs.readdirSync(dataDir)).toContain('appendonlydir');
    expect(fs.existsSync(path.join(dataDir, 'managed-redis.json'))).toBe(false);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('fails start-up with a clear message when Redis does not answer, without listening', async () => {
  const server = started({ REDIS_URL: `redis://127.0.0.1:${await deadPort()}`, REDIS_READY_TIMEOUT_MS: '300', PORT: '0' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toMatch(/Standings failed to start: Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer PING within 300 ms/);
  expect(server.output()).not.toMatch(/ready at/);
});

it('refuses invalid configuration before doing anything', async () => {
  const server = started({ PORT: 'eighty', NODE_ENV: 'staging' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toBe(
    'Invalid configuration:\n' +
      '  - NODE_ENV must be one of development, production, test, got "staging"\n' +
      '  - PORT must be an integer from 0 to 65535, got "eighty"\n',
  );
});
