import * as path from 'node:path';

export type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  port: number;
  host: string;
  /** null: run a private redis-server (see managedRedis.ts) with its data under `redisDataDir`. */
  redisUrl: string | null;
  redisDataDir: string;
  /** Bound on waiting for Redis to answer PING at start-up. */
  redisReadyTimeoutMs: number;
  nodeEnv: NodeEnv;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];

/**
 * Reads and checks the environment once, at start-up, reporting every problem at once rather
 * than failing on the first or later at the first request. Unset and empty mean the default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const read = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

  const nodeEnv = (read('NODE_ENV') ?? 'development') as NodeEnv;
  if (!NODE_ENVS.includes(nodeEnv)) problems.push(`NODE_ENV must be one of ${NODE_ENVS.join(', ')}, got "${nodeEnv}"`);

  const port = integer(read('PORT'), 'PORT', 4000, 0, 65535, problems);
  // Listening on every interface is for deployments; a developer's machine keeps to loopback.
  const host = read('HOST') ?? (nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1');

  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !isRedisUrl(redisUrl)) {
    problems.push('REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://localhost:6379');
  }
  const redisDataDir = path.resolve(read('REDIS_DATA_DIR') ?? path.join('.data', 'redis'));
  const redisReadyTimeoutMs = integer(read('REDIS_READY_TIMEOUT_MS'), 'REDIS_READY_TIMEOUT_MS', 10_000, 1, 600_000, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return { port, host, redisUrl, redisDataDir, redisReadyTimeoutMs, nodeEnv };
}

function integer(value: string | undefined, name: string, fallback: number, min: number, max: number, problems: string[]) {
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(parsed >= min && parsed <= max)) {
    problems.push(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
    return fallback;
  }
  return parsed;
}

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}
