// Starts servers of its own (not the shared test Redis): it is about starting and stopping them.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Redis from 'ioredis';
import { startManagedRedis, type ManagedRedis } from '../../../src/dev/managedRedis';
import { startManagedRedis as startTestRedis } from '../../support/managedRedis';

const projectRoot = path.join(__dirname, '..', '..', '..');
// The record managedRedis keeps in a data dir, checked here to prove a scenario really left it.
const STATE_FILE = 'managed-redis.json';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-managed-test-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function stopLater(server: ManagedRedis): ManagedRedis {
  cleanups.push(() => server.stop());
  return server;
}

function clientOf(server: ManagedRedis): Redis {
  const client = new Redis(server.url);
  cleanups.push(async () => void (await client.quit()));
  return client;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // An orphan that has exited stays a zombie until init reaps it, which some inits never do.
  // A zombie holds no port and no files: it is gone for our purposes.
  try {
    return !/\) [ZX]/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return !fs.existsSync('/proc/self/stat'); // no /proc (macOS): kill(pid, 0) has to do
  }
}

async function waitUntilGone(pid: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; isRunning(pid); ) {
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running`);
    await delay(20);
  }
}

test('a throwaway test server answers PING on its own port, persists nothing, and is gone after stop', async () => {
  const server = await startTestRedis({ persistence: 'none' });
  const client = new Redis(server.url);
  try {
    expect(server.port).not.toBe(6379);
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(await client.ping()).toBe('PONG');
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    expect(await client.config('GET', 'save')).toEqual(['save', '']);
    const [, dir] = (await client.config('GET', 'dir')) as [string, string];
    expect(dir.startsWith(fs.realpathSync(os.tmpdir()))).toBe(true);

    await client.quit();
    await server.stop();
    expect(isRunning(server.pid)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  } finally {
    client.disconnect();
    await server.stop();
  }
});

test('an AOF server writes an append-only file in its data dir and keeps data across stop and start', async () => {
  const dataDir = tempDataDir();
  const first = await startManagedRedis({ dataDir });
  const firstClient = new Redis(first.url);
  await firstClient.set('greeting', 'kept across restarts');
  await firstClient.quit();
  await first.stop();

  const aofDir = path.join(dataDir, 'appendonlydir');
  const aofFiles = fs.readdirSync(aofDir).filter((name) => name.endsWith('.aof'));
  const aofText = aofFiles.map((name) => fs.readFileSync(path.join(aofDir, name), 'utf8')).join('');
  expect(aofText).toContain('kept across restarts');
  expect(fs.existsSync(path.join(dataDir, STATE_FILE))).toBe(false);

  const second = stopLater(await startManagedRedis({ dataDir }));
  expect(second.reused).toBe(false);
  expect(second.pid).not.toBe(first.pid);
  expect(await clientOf(second).get('greeting')).toBe('kept across restarts');
});

test('a record left by a server that died is ignored: a fresh server starts on the same data', async () => {
  const dataDir = tempDataDir();
  const crashed = await startManagedRedis({ dataDir, appendfsync: 'always' });
  const client = new Redis(crashed.url);
  await client.set('survivor', 'yes');
  client.disconnect();
  process.kill(crashed.pid, 'SIGKILL');
  await waitUntilGone(crashed.pid);
  expect(fs.existsSync(path.join(dataDir, STATE_FILE))).toBe(true);

  const fresh = stopLater(await startManagedRedis({ dataDir }));
  expect(fresh.reused).toBe(false);
  expect(fresh.pid).not.toBe(crashed.pid);
  expect(await clientOf(fresh).get('survivor')).toBe('yes');
});

test('a server left running by a parent killed with SIGKILL is reused, then stopped by its new owner', async () => {
  const dataDir = tempDataDir();
  // A separate Node process plays the parent that crashes.
  const parent = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      '-e',
      `require('./src/dev/managedRedis')
        .startManagedRedis({ dataDir: process.env.DATA_DIR })
        .then((r) => { console.log(JSON.stringify({ pid: r.pid, port: r.port })); setInterval(() => {}, 60000); });`,
    ],
    { cwd: projectRoot, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => parent.once('exit', resolve));
  cleanups.push(async () => {
    parent.kill('SIGKILL');
    await exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    let output = '';
    parent.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.split('\n')[0]!);
    });
    parent.once('exit', (code) => reject(new Error(`parent exited (${code}) before starting Redis`)));
  });
  const orphan = JSON.parse(line) as { pid: number; port: number };
  const before = new Redis(`redis://127.0.0.1:${orphan.port}`);
  await before.set('left', 'behind');
  await before.quit();

  parent.kill('SIGKILL');
  await exited;
  expect(isRunning(orphan.pid)).toBe(true);

  const adopted = await startManagedRedis({ dataDir });
  cleanups.push(() => adopted.stop());
  expect(adopted).toMatchObject({ reused: true, pid: orphan.pid, port: orphan.port });
  const client = new Redis(adopted.url);
  expect(await client.get('left')).toBe('behind');
  await client.quit();

  await adopted.stop();
  expect(isRunning(orphan.pid)).toBe(false);
  expect(fs.existsSync(path.join(dataDir, STATE_FILE))).toBe(false);
});

test('simultaneous starts on one data dir share a single server', async () => {
  const dataDir = tempDataDir();
  const [a, b] = await Promise.all([
    startManagedRedis({ dataDir }),
    startManagedRedis({ dataDir }),
  ]);
  stopLater(a);
  stopLater(b);
  expect(a.pid).toBe(b.pid);
  expect([a.reused, b.reused].sort()).toEqual([false, true]);
});
