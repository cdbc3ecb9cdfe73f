import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type ApiKey, parseKeyFile, parseKeyList } from './auth/apiKeys';
import {
  DEFAULT_COMBINED_VIEW_TTL_MS, DEFAULT_LIVE_COST_PER_CLIENT, DEFAULT_LIVE_COST_PER_CONNECTION, DEFAULT_VIEW_ENTRIES_PER_REQUEST, MAX_COMBINED_VIEW_TTL_MS,
} from '../domain/limits';
import type { Replication } from '../store/redisCall';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './connections';
import { DEFAULT_COMMAND_TIMEOUT_MS } from './redis';

export type NodeEnv = 'development' | 'production' | 'test';
export type Appendfsync = 'everysec' | 'always';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface RateLimits {
  /** Requests one writer or admin key may make per window, across all instances; 0: no limit. */
  perKey: number;
  /** Requests one client address may make per window without a key or with a reader key; 0: no limit. */
  perIp: number;
  windowMs: number;
  /**
   * Entries the combined-view builds of one key (writer, admin) or client address (reader,
   * anonymous) may read per window; 0 or unset: no limit.
   */
  viewEntries?: number;
}

/**
 * What live subscriptions may cost together (see src/graphql/liveCost.ts), counted in each server
 * process, not across instances or workers; 0: no limit.
 */
export interface LiveCostLimits {
  /** The subscriptions one WebSocket connection holds. */
  perConnection: number;
  /**
   * The subscriptions of one client over all its connections: the API key for writer and admin
   * keys, the client address for reader keys and connections without a key.
   */
  perClient: number;
}

/** A Redis Cluster to use instead of one server (REDIS_CLUSTER_NODES, REDIS_PASSWORD). */
export interface RedisCluster {
  /** Where the client starts: it learns the rest of the cluster from any one of them. */
  nodes: { host: string; port: number }[];
  /** Sent to every node; null: the nodes ask for none. */
  password: string | null;
}

/** A Redis master found through Sentinels (REDIS_SENTINELS, REDIS_SENTINEL_NAME, REDIS_PASSWORD). */
export interface RedisSentinel {
  /** Sentinels to ask where the master is: the client learns of the others from them. */
  sentinels: { host: string; port: number }[];
  /** The master group's name, as the sentinels' `sentinel monitor <name> ...` says. */
  name: string;
  /** Sent to the master (not to the sentinels); null: it asks for none. */
  password: string | null;
}

export interface Config {
  port: number;
  host: string;
  /** One Redis server. Both this and `redisCluster` null (never in production): run a private redis-server (see src/dev/managedRedis.ts) with its data under `redisDataDir`. */
  redisUrl: string | null;
  redisCluster: RedisCluster | null;
  redisSentinel: RedisSentinel | null;
  /** REDIS_MIN_REPLICAS and REDIS_REPLICA_TIMEOUT_MS: when a write counts as acknowledged. */
  redisReplication: Replication;
  redisDataDir: string;
  /** Bound on waiting for Redis to answer PING at start-up. */
  redisReadyTimeoutMs: number;
  /** How long a Redis command may wait for its answer (see ClientOptions in redis.ts). */
  redisCommandTimeoutMs: number;
  /** fsync policy of the managed Redis' append-only file. */
  redisAppendfsync: Appendfsync;
  nodeEnv: NodeEnv;
  /** From STANDINGS_API_KEYS and STANDINGS_API_KEYS_FILE, hashed. */
  apiKeys: ApiKey[];
  anonymousReads: boolean;
  rateLimits: RateLimits;
  liveCostLimits: LiveCostLimits;
  /** Reverse proxies in front of the service whose X-Forwarded-For is believed (0: none). */
  trustProxyHops: number;
  /** Connections one peer address may hold open on this process (0: no cap); off by default behind proxies. */
  maxConnectionsPerIp: number;
  /** HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS. */
  httpTimeouts: HttpTimeouts;
  /** Web origins (scheme://host[:port]) whose pages may call the API from a browser (see cors.ts). */
  corsOrigins: string[];
  /** How long SIGTERM may take, in-flight requests included, before the process exits anyway. */
  shutdownGraceMs: number;
  logLevel: LogLevel;
  /** Whether a browser opening the GraphQL URL gets the explorer (GraphiQL); it brings introspection with it. */
  explorer: boolean;
  /** Processes serving the port (STANDINGS_WORKERS; see src/server/workers.ts); 1: this process alone. */
  workers: number;
  /** How long a combined view, once built, answers reads before the next read builds it again (ms; 0: every read builds). */
  combinedViewTtlMs: number;
  /** Entries the combined-view builds one request starts may read in all. */
  viewEntriesPerRequest: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];
const APPENDFSYNCS: readonly Appendfsync[] = ['everysec', 'always'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** host:port, the host a name, an IPv4 address, or an IPv6 address in brackets. */
const NODE = /^(?:\[([0-9a-fA-F:.]+)\]|([\w.-]+)):(\d{1,5})$/;
const BOOLEANS = new Map([['true', true], ['false', false], ['1', true], ['0', false]]);

/**
 * Reads and checks the environment once, at start-up, reporting every problem at once rather
 * than failing on the first or later at the first request. Unset and empty mean the default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const read = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

  const nodeEnv = oneOf(read('NODE_ENV'), 'NODE_ENV', NODE_ENVS, 'development', problems);

  const port = integer(read('PORT'), 'PORT', 4000, 0, 65535, problems);
  // Listening on every interface is for deployments; a developer's machine keeps to loopback.
  const host = read('HOST') ?? (nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1');

  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !isRedisUrl(redisUrl)) {
    problems.push('REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://localhost:6379');
  }
  const redisClusterNodes = read('REDIS_CLUSTER_NODES');
  const redisSentinels = read('REDIS_SENTINELS');
  const redisCluster = readRedisCluster(redisClusterNodes, redisSentinels === undefined ? read('REDIS_PASSWORD') : undefined, problems);
  if (redisUrl !== null && redisCluster !== null) {
    problems.push('REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis server, or REDIS_CLUSTER_NODES for a Redis Cluster');
  }
  const redisSentinel = readRedisSentinel(redisSentinels, read('REDIS_SENTINEL_NAME'), read('REDIS_PASSWORD'), problems);
  if (redisSentinels !== undefined && (redisUrl !== null || redisClusterNodes !== undefined)) {
    problems.push('REDIS_SENTINELS is set with REDIS_URL or REDIS_CLUSTER_NODES: set only one of the three');
  }
  const redisDataDir = path.resolve(read('REDIS_DATA_DIR') ?? path.join('.data', 'redis'));
  const redisReadyTimeoutMs = integer(read('REDIS_READY_TIMEOUT_MS'), 'REDIS_READY_TIMEOUT_MS', 10_000, 1, 600_000, problems);
  const redisCommandTimeoutMs = integer(read('REDIS_COMMAND_TIMEOUT_MS'), 'REDIS_COMMAND_TIMEOUT_MS', DEFAULT_COMMAND_TIMEOUT_MS, 10, 60_000, problems);
  const redisAppendfsync = oneOf(read('REDIS_APPENDFSYNC'), 'REDIS_APPENDFSYNC', APPENDFSYNCS, 'everysec', problems);
  const redisReplication = readReplication(read('REDIS_MIN_REPLICAS'), read('REDIS_REPLICA_TIMEOUT_MS'), redisCommandTimeoutMs, problems);

  const apiKeys = readApiKeys(read('STANDINGS_API_KEYS'), read('STANDINGS_API_KEYS_FILE'), problems);
  // Open reads make a developer's explorer work at once; a deployment decides for itself.
  const anonymousReads = boolean(read('ANONYMOUS_READS'), 'ANONYMOUS_READS', nodeEnv !== 'production', problems);
  if (nodeEnv === 'production' && apiKeys.length === 0 && !anonymousReads && problems.length === 0) {
    problems.push('NODE_ENV=production with no API keys and ANONYMOUS_READS off would refuse every request: set STANDINGS_API_KEYS or STANDINGS_API_KEYS_FILE');
  }
  // The private redis-server is development tooling: a deployment that forgot its Redis must not
  // quietly keep its data on the container's disk. Checked after the keys, whose check above keeps
  // quiet while any other problem stands.
  if (nodeEnv === 'production' && redisUrl === null && redisClusterNodes === undefined && redisSentinels === undefined) {
    problems.push('NODE_ENV=production needs a Redis: set REDIS_URL (one server), REDIS_CLUSTER_NODES (a Redis Cluster) or REDIS_SENTINELS (Sentinel)');
  }
  const rateLimits: RateLimits = {
    perKey: integer(read('RATE_LIMIT_PER_KEY'), 'RATE_LIMIT_PER_KEY', 5_000, 0, 1_000_000_000, problems),
    perIp: integer(read('RATE_LIMIT_PER_IP'), 'RATE_LIMIT_PER_IP', 1_000, 0, 1_000_000_000, problems),
    windowMs: integer(read('RATE_LIMIT_WINDOW_MS'), 'RATE_LIMIT_WINDOW_MS', 10_000, 100, 3_600_000, problems),
    viewEntries: integer(read('RATE_LIMIT_VIEW_ENTRIES'), 'RATE_LIMIT_VIEW_ENTRIES', 500_000, 0, 1_000_000_000_000, problems),
  };
  const liveCostLimits: LiveCostLimits = {
    perConnection: integer(read('LIVE_COST_PER_CONNECTION'), 'LIVE_COST_PER_CONNECTION', DEFAULT_LIVE_COST_PER_CONNECTION, 0, 1_000_000_000, problems),
    perClient: integer(read('LIVE_COST_PER_CLIENT'), 'LIVE_COST_PER_CLIENT', DEFAULT_LIVE_COST_PER_CLIENT, 0, 1_000_000_000, problems),
  };
  const trustProxyHops = integer(read('TRUST_PROXY_HOPS'), 'TRUST_PROXY_HOPS', 0, 0, 10, problems);
  // Behind proxies every connection comes from one of them: a cap per peer would cap the proxy.
  const maxConnectionsPerIp = integer(read('MAX_CONNECTIONS_PER_IP'), 'MAX_CONNECTIONS_PER_IP', trustProxyHops > 0 ? 0 : 256, 0, 1_000_000, problems);
  const httpTimeouts = readHttpTimeouts(read('HTTP_HEADERS_TIMEOUT_MS'), read('HTTP_REQUEST_TIMEOUT_MS'), problems);
  const corsOrigins = readOrigins(read('CORS_ORIGINS'), problems);
  const shutdownGraceMs = integer(read('SHUTDOWN_GRACE_MS'), 'SHUTDOWN_GRACE_MS', 10_000, 100, 600_000, problems);
  const logLevel = oneOf(read('LOG_LEVEL'), 'LOG_LEVEL', LOG_LEVELS, 'info', problems);
  const workers = read('STANDINGS_WORKERS') === 'auto'
    ? os.availableParallelism()
    : integer(read('STANDINGS_WORKERS'), 'STANDINGS_WORKERS (or "auto")', 1, 1, 256, problems);

  const combinedViewTtlMs = integer(read('COMBINED_VIEW_TTL_MS'), 'COMBINED_VIEW_TTL_MS', DEFAULT_COMBINED_VIEW_TTL_MS, 0, MAX_COMBINED_VIEW_TTL_MS, problems);
  const viewEntriesPerRequest = integer(read('VIEW_ENTRIES_PER_REQUEST'), 'VIEW_ENTRIES_PER_REQUEST', DEFAULT_VIEW_ENTRIES_PER_REQUEST, 1, 1_000_000_000, problems);

  // The explorer is a developer's tool: a deployment opts in, and with it into introspection,
  // which the explorer's docs and completion are made from.
  const explorer = boolean(read('EXPLORER'), 'EXPLORER', nodeEnv !== 'production', problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port, host, redisUrl, redisCluster, redisSentinel, redisReplication, redisDataDir, redisReadyTimeoutMs, redisCommandTimeoutMs, redisAppendfsync, nodeEnv, apiKeys, anonymousReads,
    rateLimits, liveCostLimits, trustProxyHops, maxConnectionsPerIp, httpTimeouts, corsOrigins, shutdownGraceMs, logLevel, explorer, workers, combinedViewTtlMs,
    viewEntriesPerRequest,
  };
}

function readRedisCluster(list: string | undefined, password: string | undefined, problems: string[]): RedisCluster | null {
  if (list === undefined) {
    // A single server's password is part of REDIS_URL.
    if (password !== undefined) problems.push('REDIS_PASSWORD is for REDIS_CLUSTER_NODES; with REDIS_URL, put the password in the URL (redis://:password@host:port)');
    return null;
  }
  const nodes = readNodes(list, 'REDIS_CLUSTER_NODES', '10.0.0.1:7000', problems);
  return nodes && { nodes, password: password ?? null };
}

function readRedisSentinel(list: string | undefined, name: string | undefined, password: string | undefined, problems: string[]): RedisSentinel | null {
  if (list === undefined) {
    if (name !== undefined) problems.push('REDIS_SENTINEL_NAME is set without REDIS_SENTINELS (the sentinels\' host:port list)');
    return null;
  }
  if (name === undefined) problems.push('REDIS_SENTINELS needs REDIS_SENTINEL_NAME: the master group the sentinels monitor, e.g. mymaster');
  const sentinels = readNodes(list, 'REDIS_SENTINELS', '10.0.0.1:26379', problems);
  return sentinels && name !== undefined ? { sentinels, name, password: password ?? null } : null;
}

/** A host:port list; null (with a problem per bad item) when any item is not one. */
function readNodes(list: string, name: string, example: string, problems: string[]): { host: string; port: number }[] | null {
  const items = list.split(',');
  const nodes: { host: string; port: number }[] = [];
  items.forEach((item, i) => {
    const match = NODE.exec(item.trim());
    const port = Number(match?.[3]);
    // Not echoed: a URL with a password in it would end up in the log.
    if (!match || !(port >= 1 && port <= 65535)) problems.push(`${name} item ${i + 1}: expected host:port with a port from 1 to 65535, e.g. ${example}`);
    else nodes.push({ host: match[1] ?? match[2], port });
  });
  return nodes.length === items.length ? nodes : null;
}

/**
 * WAIT blocks the connection it is sent on, and every request shares that connection: the commands
 * queued behind a WAIT must still get their answers within the command timeout, hence the bound.
 */
function readReplication(minReplicas: string | undefined, timeoutMs: string | undefined, commandTimeoutMs: number, problems: string[]): Replication {
  const replication = {
    minReplicas: integer(minReplicas, 'REDIS_MIN_REPLICAS', 0, 0, 16, problems),
    timeoutMs: integer(timeoutMs, 'REDIS_REPLICA_TIMEOUT_MS', Math.floor(commandTimeoutMs / 4), 1, 60_000, problems),
  };
  if (replication.timeoutMs * 2 > commandTimeoutMs) {
    problems.push(`REDIS_REPLICA_TIMEOUT_MS must be at most half of REDIS_COMMAND_TIMEOUT_MS (${commandTimeoutMs}), so that commands queued behind a write waiting for its replicas still get their answers`);
  }
  return replication;
}

/** Node refuses a headers timeout longer than the request's, of which the headers are a part. */
function readHttpTimeouts(headersMs: string | undefined, requestMs: string | undefined, problems: string[]): HttpTimeouts {
  const timeouts = {
    headersMs: integer(headersMs, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.headersMs, 100, 600_000, problems),
    requestMs: integer(requestMs, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.requestMs, 100, 3_600_000, problems),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must be at most HTTP_REQUEST_TIMEOUT_MS (${timeouts.requestMs}): the headers are part of the request`);
  }
  return timeouts;
}

/** Exact origins, as a browser sends them in Origin: no path, no trailing slash, no wildcard. */
function readOrigins(list: string | undefined, problems: string[]): string[] {
  if (list === undefined) return [];
  const origins = list.split(',').map((item) => item.trim());
  origins.forEach((origin, i) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      problems.push(`CORS_ORIGINS item ${i + 1} must be an origin such as https://game.example.com or http://localhost:3000 (no path, no trailing slash), got "${origin}"`);
    }
  });
  return origins;
}

function readApiKeys(list: string | undefined, file: string | undefined, problems: string[]): ApiKey[] {
  const keys = list === undefined ? [] : parseKeyList(list, problems);
  if (file !== undefined) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`STANDINGS_API_KEYS_FILE cannot be read: ${(err as Error).message}`);
    }
    if (text !== undefined) keys.push(...parseKeyFile(text, file, problems));
  }
  const hashes = keys.map((key) => key.hash.toString('hex'));
  if (new Set(hashes).size < hashes.length) problems.push('an API key is configured more than once');
  return keys;
}

function oneOf<T extends string>(value: string | undefined, name: string, allowed: readonly T[], fallback: T, problems: string[]): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
    return fallback;
  }
  return value as T;
}

function boolean(value: string | undefined, name: string, fallback: boolean, problems: string[]): boolean {
  if (value === undefined) return fallback;
  const parsed = BOOLEANS.get(value);
  if (parsed === undefined) problems.push(`${name} must be true or false, got "${value}"`);
  return parsed ?? fallback;
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
