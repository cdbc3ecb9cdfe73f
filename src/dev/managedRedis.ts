// Development's Redis: with neither REDIS_URL nor REDIS_CLUSTER_NODES set, `npm start` runs a
// private redis-server with its data in an append-only file, so a developer needs no Redis service.
// Production never loads this module (main.ts requires it only on that path, and config.ts refuses
// production without a Redis). It installs nothing and hooks no signals: installing redis-server is
// scripts/ensure-redis.js' job, and stopping it is its owner's (main.ts, or test/support).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Redis from 'ioredis';

export interface SpawnOptions {
  /** Default: a port that is free right now. */
  port?: number;
  /** Bound on each wait while starting (PING; for development's server also the lock and a previous server). Default 10000. */
  readyTimeoutMs?: number;
  /** A configuration file, read before the command line's settings: what a sentinel needs (it writes its state there). */
  configFile?: string;
}

export interface ManagedRedisOptions extends SpawnOptions {
  /** Holds the append-only file, which survives restarts, and the record of who runs Redis there. */
  dataDir: string;
  appendfsync?: 'everysec' | 'always';
}

export interface ManagedRedis {
  url: string;
  port: number;
  pid: number;
  /** True when a server left running on the same data dir (e.g. by a crashed process) was adopted. */
  reused: boolean;
  /** Stops the server and waits until it has exited. Safe to call more than once. */
  stop(): Promise<void>;
  /**
   * Signals the server without waiting, for an 'exit' handler, where nothing can be awaited. Does
   * nothing once it is stopping or has exited: its pid may be someone else's by then.
   */
  kill(signal?: NodeJS.Signals): void;
}

const HOST = '127.0.0.1';
const REDIS_SERVER = 'redis-server';
// In the data dir: who runs Redis there ({pid, port}), who is starting one, and its log.
const STATE_FILE = 'managed-redis.json';
const LOCK_FILE = 'managed-redis.lock';
const LOG_FILE = 'redis.log';
const POLL_MS = 50;
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
export const MISSING_REDIS =
  'redis-server not found: install Redis 7 (`sudo apt-get install redis-server` on Debian/Ubuntu, ' +
  '`brew install redis` on macOS), or set REDIS_URL to an existing Redis';

/** Development's server on dataDir: adopts one a previous owner left running there, else starts one. */
export async function startManagedRedis(options: ManagedRedisOptions): Promise<ManagedRedis> {
  const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir, timeoutMs);
  try {
    const previous = await findServerOf(dataDir, timeoutMs);
    if (previous) return handle(previous.pid, previous.port, true, () => forgetServer(dataDir, previous.pid));

    const port = options.port ?? (await freePort());
    const args = ['--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'everysec'];
    // Recorded as soon as it exists: if we die while it starts, the next start finds it instead of
    // launching a second server on the same files.
    const child = await launch(dataDir, port, args, timeoutMs, (pid) =>
      writeJsonAtomically(path.join(dataDir, STATE_FILE), { pid, port }),
    ).catch((error: unknown) => {
      fs.rmSync(path.join(dataDir, STATE_FILE), { force: true });
      throw error;
    });
    return handle(child.pid!, port, false, () => forgetServer(dataDir, child.pid!), child);
  } finally {
    unlock();
  }
}

/**
 * A redis-server with its files and log in dir and `args` on its command line, answering PING:
 * what tests build their throwaway servers from. Nothing keeps two of them off one dir.
 */
export async function spawnRedisServer(dir: string, args: string[], options: SpawnOptions = {}): Promise<ManagedRedis> {
  const port = options.port ?? (await freePort());
  const child = await launch(dir, port, args, options.readyTimeoutMs ?? READY_TIMEOUT_MS, undefined, options.configFile);
  return handle(child.pid!, port, false, () => {}, child);
}

function handle(pid: number, port: number, reused: boolean, cleanUp: () => void, child?: ChildProcess): ManagedRedis {
  let stopping: Promise<void> | undefined;
  let exited = false;
  child?.once('exit', () => (exited = true));
  return {
    url: `redis://${HOST}:${port}`,
    port,
    pid,
    reused,
    // SIGTERM is Redis' graceful shutdown (it fsyncs the AOF; with `save ""` it writes no RDB) and,
    // unlike SHUTDOWN over a connection, it also reaches a server that stopped answering.
    stop: () =>
      (stopping ??= (async () => {
        signal(pid, 'SIGTERM');
        if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
          signal(pid, 'SIGKILL');
          if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) throw new Error(`redis-server ${pid} survived SIGKILL`);
        }
        cleanUp();
      })()),
    kill: (name = 'SIGTERM') => {
      if (!stopping && !exited) signal(pid, name);
    },
  };
}

/** Spawns redis-server on dir:port and waits until it answers PING; kills it again if it never does. */
async function launch(
  dir: string,
  port: number,
  args: string[],
  timeoutMs: number,
  onSpawn?: (pid: number) => void,
  configFile?: string,
): Promise<ChildProcess> {
  const binary = findRedisServer();
  if (!binary) throw new Error(MISSING_REDIS);
  const logPath = path.join(dir, LOG_FILE);
  // A file rather than a pipe: nobody has to keep draining it (a full pipe would block Redis),
  // and it stays readable after we are gone.
  const log = fs.openSync(logPath, 'w');
  let child: ChildProcess;
  try {
    child = spawn(
      binary,
      [...(configFile ? [configFile] : []), '--bind', HOST, '--port', String(port), '--dir', dir, '--save', '', '--daemonize', 'no', ...args],
      // Its own process group: a terminal's Ctrl-C reaches only us, so our owner can finish the
      // work in flight before it stops Redis.
      { detached: true, stdio: ['ignore', log, log] },
    );
  } finally {
    fs.closeSync(log);
  }
  // The owner decides how long the server lives; the child alone must not keep us running.
  child.unref();
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  onSpawn?.(child.pid!);

  const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await answersPing(port)) return child;
    const failure = hasExited()
      ? `redis-server exited (${child.exitCode ?? child.signalCode}) before answering PING on ${HOST}:${port}`
      : Date.now() >= deadline
        ? `redis-server did not answer PING on ${HOST}:${port} within ${timeoutMs} ms`
        : undefined;
    if (failure) {
      signal(child.pid!, 'SIGKILL');
      await waitForExit(child.pid!, STOP_TIMEOUT_MS);
      throw new Error(`${failure}. Last lines of ${logPath}:\n${lastLines(logPath, 20)}`);
    }
    await delay(POLL_MS);
  }
}

/**
 * The server that a previous owner (maybe a crashed process) left running on this data dir, if
 * any. Waits while it is still loading or shutting down, so two servers never share the files.
 */
async function findServerOf(dataDir: string, timeoutMs: number): Promise<{ pid: number; port: number } | undefined> {
  const statePath = path.join(dataDir, STATE_FILE);
  const state = readJson<{ pid: number; port: number }>(statePath);
  if (!state) return undefined;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Not a live redis-server: it died (stale file) or the pid was recycled after a reboot.
    if (liveProcessName(state.pid) !== REDIS_SERVER) {
      fs.rmSync(statePath, { force: true });
      return undefined;
    }
    if (await servesDataDir(state.port, dataDir)) return state;
    if (Date.now() >= deadline) {
      throw new Error(
        `redis-server ${state.pid}, recorded in ${statePath}, does not answer on port ${state.port} ` +
          `within ${timeoutMs} ms: stop it, or delete that file if the process is not ours`,
      );
    }
    await delay(POLL_MS);
  }
}

/** Serialises starts on one data dir (two `npm start` at once) so only one of them launches Redis. */
async function lockDataDir(dataDir: string, timeoutMs: number): Promise<() => void> {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // An empty file is a lock being written right now, not a stale one.
    const holder = Number(readText(lockPath) || NaN);
    if (holder > 0 && liveProcessName(holder) === undefined) {
      fs.rmSync(lockPath, { force: true }); // its holder crashed while starting Redis
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `process ${holder} has been starting Redis in ${dataDir} for over ${timeoutMs} ms: ` +
          `stop it, or delete ${lockPath} if the process is not ours`,
      );
    }
    await delay(POLL_MS);
  }
}

function forgetServer(dataDir: string, pid: number): void {
  const statePath = path.join(dataDir, STATE_FILE);
  // Only our own record: a newer server may already have replaced it.
  if (readJson<{ pid: number }>(statePath)?.pid === pid) fs.rmSync(statePath, { force: true });
}

async function answersPing(port: number): Promise<boolean> {
  return (await probe(port, (client) => client.ping())) === 'PONG';
}

/** Answers PING (so it has finished loading) and keeps its files in dataDir. */
async function servesDataDir(port: number, dataDir: string): Promise<boolean> {
  const reply = await probe(port, async (client) => {
    await client.ping();
    return client.config('GET', 'dir');
  });
  return Array.isArray(reply) && reply[1] === fs.realpathSync(dataDir);
}

/** Runs one exchange on a short-lived connection; any failure (refused, LOADING, ...) gives undefined. */
async function probe<T>(port: number, exchange: (client: Redis) => Promise<T>): Promise<T | undefined> {
  const client = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    // Fail fast instead of ioredis' reconnect-and-queue: the caller polls.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableReadyCheck: false,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    // Don't wait (2 s by default) for a polite close, which keeps a process alive needlessly.
    disconnectTimeout: 0,
  });
  client.on('error', () => {}); // reported through the result instead
  try {
    await client.connect();
    return await exchange(client);
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** Polls because an adopted server is not our child: there is no exit event to wait for. */
async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (liveProcessName(pid) !== undefined) {
    if (Date.now() >= deadline) return false;
    await delay(POLL_MS);
  }
  return true;
}

/**
 * Name of a running process, or undefined. Zombies count as gone: an orphaned server that has
 * exited stays a zombie until init reaps it, which some containers' init never does.
 */
function liveProcessName(pid: number): string | undefined {
  if (fs.existsSync('/proc/self/stat')) {
    // "pid (comm) state ...": comm may itself contain spaces and parentheses.
    const stat = readText(`/proc/${pid}/stat`);
    if (!stat) return undefined;
    const close = stat.lastIndexOf(')');
    return /^[ZX]/.test(stat.slice(close + 2)) ? undefined : stat.slice(stat.indexOf('(') + 1, close);
  }
  try {
    // No /proc (macOS): "STAT COMM", where COMM may be a full path.
    const [state, ...comm] = execFileSync('ps', ['-o', 'stat=,comm=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/);
    return !state || state.startsWith('Z') ? undefined : path.basename(comm.join(' '));
  } catch {
    return undefined; // ps exits non-zero when there is no such process
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // already gone is fine
  }
}

/** A port that is free right now; the OS never hands out 6379 from its ephemeral range. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

/**
 * `count` ports free right now and different from each other: all are held open until every one
 * is known, since a port just released may be handed out again at once.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  const ports = servers.map(
    (server) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, HOST, () => resolve((server.address() as net.AddressInfo).port));
      }),
  );
  try {
    return await Promise.all(ports);
  } finally {
    // Every listen settled first: one that failed must not leave another opening after the close.
    await Promise.allSettled(ports);
    await Promise.all(servers.filter((server) => server.listening).map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export function findRedisServer(): string | undefined {
  // Debian puts it in /usr/bin, but PATH may lack the sbin/local dirs (cron, IDEs, sudo).
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, REDIS_SERVER);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function writeJsonAtomically(file: string, value: unknown): void {
  // Rename is atomic, so a concurrent reader sees the old record or the new one, never half of one.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value));
  fs.renameSync(`${file}.tmp`, file);
}

function readJson<T>(file: string): T | undefined {
  const text = readText(file);
  try {
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined; // unreadable record: treat as none
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function lastLines(file: string, count: number): string {
  return (readText(file) ?? '(no output)').trimEnd().split('\n').slice(-count).join('\n');
}
