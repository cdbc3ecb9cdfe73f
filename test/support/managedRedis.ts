// The Redis servers tests and benches start: throwaway ones, and development's AOF servers on a
// data dir of the test's own. A test or bench process has no shutdown of its own (the server's is
// in main.ts), so this stops whatever it started when the process exits or is interrupted.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type ManagedRedis,
  type ManagedRedisOptions,
  type SpawnOptions,
  spawnRedisServer,
  startManagedRedis as startDevelopmentRedis,
} from '../../src/dev/managedRedis';

export type { ManagedRedis };

/** Development's server: data kept in an append-only file that survives restarts. */
export interface DevRedisOptions extends ManagedRedisOptions {
  persistence: 'aof';
}

/** A throwaway server in a temp dir, nothing written to disk. */
export interface TestRedisOptions extends SpawnOptions {
  persistence: 'none';
  /** More redis-server arguments, e.g. `['--cluster-enabled', 'yes']` for a Cluster node. */
  extraArgs?: string[];
}

/** For each server still running: how to end it when the process exits, where nothing can be awaited. */
const running = new Set<() => void>();

export async function startManagedRedis(options: TestRedisOptions | DevRedisOptions): Promise<ManagedRedis> {
  installExitHooks();
  if (options.persistence === 'aof') {
    const server = await startDevelopmentRedis(options);
    // SIGTERM still lets it flush its AOF.
    return track(server, () => server.kill('SIGTERM'));
  }

  // 6379 is where a developer's real Redis lives; a test must never touch it.
  if (options.port === 6379) throw new Error('a test Redis must not use port 6379');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-redis-'));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const server = await spawnRedisServer(dir, ['--appendonly', 'no', ...(options.extraArgs ?? [])], options);
    const endNow = () => {
      server.kill('SIGKILL'); // nothing to lose
      removeDir();
    };
    return track(server, endNow, removeDir);
  } catch (error) {
    removeDir();
    throw error;
  }
}

function track(server: ManagedRedis, endNow: () => void, afterStop = () => {}): ManagedRedis {
  running.add(endNow);
  return {
    ...server,
    stop: async () => {
      running.delete(endNow);
      await server.stop();
      afterStop();
    },
  };
}

let hooksInstalled = false;

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => running.forEach((endNow) => endNow()));
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    const onSignal = (): void => {
      // Someone else listens: that is the owner's graceful shutdown, which stops its servers.
      if (process.listenerCount(name) > 1) return;
      running.forEach((endNow) => endNow());
      // Nobody else listens, so the default was to die: re-raise the signal without us to do exactly that.
      process.removeListener(name, onSignal);
      process.kill(process.pid, name);
    };
    process.on(name, onSignal);
  }
}
