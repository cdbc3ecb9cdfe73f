// Helpers for *.redis.test.ts files. They all share ONE throwaway Redis (started by globalSetup),
// so they isolate themselves by key names, never by FLUSHALL.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Redis, { type RedisOptions } from 'ioredis';
import { startManagedRedis, type DevRedisOptions, type ManagedRedis, type TestRedisOptions } from './managedRedis';

export function testRedisUrl(): string {
  const url = process.env.STANDINGS_TEST_REDIS_URL;
  if (!url) {
    throw new Error(
      'STANDINGS_TEST_REDIS_URL is not set: tests that use Redis must be named *.redis.test.ts, ' +
        'so that they run in the "redis" Jest project whose globalSetup starts the test Redis',
    );
  }
  return url;
}

/** A client to the shared test Redis. The test must quit() it (afterAll), or Jest will not exit. */
export function newTestClient(options: RedisOptions = {}): Redis {
  return new Redis(testRedisUrl(), options);
}

/**
 * The client's next 'ready'. Not events.once: that rejects on the 'error' events of the
 * reconnection attempts that fail while Redis is still down.
 */
export function nextReady(client: { once(event: 'ready', listener: () => void): unknown }): Promise<void> {
  return new Promise((resolve) => client.once('ready', resolve));
}

/** `${prefix}-<random>`: test files run in parallel on one server, so every key/board needs its own id. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/** Every key of the board, found as an operator would (SCAN), for tests that show none is left. */
export async function scanBoardKeys(redis: Redis, boardId: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `st:{${boardId}}:*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/**
 * A server of the test's own, for tests that would disturb or be disturbed by the shared one
 * (counting commands with INFO commandstats, restarting Redis). The test must stop() it.
 */
export function startDedicatedRedis(options: TestRedisOptions | DevRedisOptions = { persistence: 'none' }): Promise<ManagedRedis> {
  return startManagedRedis(options);
}

/**
 * A dedicated Redis that keeps every acknowledged write across restarts (append-only file,
 * fsynced on every write) in a temporary directory of its own: for tests that stop or kill Redis
 * and bring it back on the same data and port.
 */
export class DurableRedis {
  private constructor(
    private readonly dataDir: string,
    private server: ManagedRedis,
  ) {}

  static async start(): Promise<DurableRedis> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-durable-'));
    return new DurableRedis(dataDir, await startDedicatedRedis({ persistence: 'aof', dataDir, appendfsync: 'always' }));
  }

  get url(): string {
    return this.server.url;
  }

  get pid(): number {
    return this.server.pid;
  }

  /**
   * Stops the server (if it still runs) and starts it again on the same data and port; `whileDown`
   * runs in between, for a test that watches what clients do while Redis is gone.
   */
  async restart(whileDown?: () => Promise<void>): Promise<void> {
    await this.server.stop();
    await whileDown?.();
    this.server = await startDedicatedRedis({ persistence: 'aof', dataDir: this.dataDir, appendfsync: 'always', port: this.server.port });
  }

  /** Stops the server and deletes its data. */
  async close(): Promise<void> {
    await this.server.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
