// An in-process Standings server on a free port, spoken to over real HTTP with fetch.
import type { Clock } from '../../src/domain/live/refreshScheduler';
import type { Cluster, Redis } from 'ioredis';
import { createStandingsServer, GRAPHQL_PATH, type StandingsServer } from '../../src/server/app';
import { ApiKeys, parseKeyList } from '../../src/server/auth/apiKeys';
import type { LiveCostLimits, NodeEnv, RateLimits } from '../../src/server/config';
import type { HttpTimeouts } from '../../src/server/connections';
import type { Logger } from '../../src/server/logger';
import { createClient, type RedisTarget, waitUntilReady } from '../../src/server/redis';
import { boardKeys } from '../../src/store/keys';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import type { Replication } from '../../src/store/redisCall';
import { newTestClient, testRedisUrl, uniqueId } from './redis';

export interface GraphQLError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; details?: Record<string, unknown>; retryAfterSeconds?: number; outcome?: string };
}

/** A mutation's expected failure, as its payload reports it. */
export interface UserError {
  code: 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT';
  field: string[] | null;
  message: string;
}

export interface GraphQLResponse {
  // Tests read arbitrary shapes out of responses; their assertions are what check them.
  data?: any;
  errors?: GraphQLError[];
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Keeps what the server logged, so tests can assert on it and the test output stays quiet. */
export class MemoryLogger implements Logger {
  readonly lines: { level: Level; message: string; fields?: Record<string, unknown> }[] = [];
  debug = this.recorder('debug');
  info = this.recorder('info');
  warn = this.recorder('warn');
  error = this.recorder('error');

  private recorder(level: Level) {
    return (first: string | Record<string, unknown>, message?: string) => {
      this.lines.push(typeof first === 'string' ? { level, message: first } : { level, message: message!, fields: first });
    };
  }
}

/** Keys the harness configures (STANDINGS_API_KEYS syntax); requests send the admin key unless told otherwise. */
export const TEST_KEYS = {
  admin: 'test-admin-key-0000000001',
  writer: 'test-writer-key-000000002',
  reader: 'test-reader-key-000000003',
  prefixedWriter: 'test-writer-key-000000004',
};
const TEST_KEY_LIST =
  `admin:${TEST_KEYS.admin},writer:${TEST_KEYS.writer},reader:${TEST_KEYS.reader},writer@tenant-a.:${TEST_KEYS.prefixedWriter}`;

/** The header a request presents a key in (for tests that call fetch themselves). */
export const authorization = (key = TEST_KEYS.admin) => ({ authorization: `Bearer ${key}` });

export interface TestServerOptions {
  /** `false` starts without the start-up PING, for a Redis that is not there. */
  waitForRedis?: boolean;
  nodeEnv?: NodeEnv;
  /** Whether requests without a key may read; off by default, so tests see the production rules. */
  anonymousReads?: boolean;
  /** Default: none, so that tests that are about something else are not limited. */
  rateLimits?: RateLimits;
  /** Default: the service's. */
  liveCostLimits?: LiveCostLimits;
  trustProxyHops?: number;
  /** Default: no cap (MAX_CONNECTIONS_PER_IP), so that tests opening many sockets from loopback are not refused. */
  maxConnectionsPerIp?: number;
  /** Default: the service's. */
  httpTimeouts?: HttpTimeouts;
  /** Default true, as in the service. */
  cacheReads?: boolean;
  /** Default true, as in the service. */
  fastLane?: boolean;
  /** Default: the service's. */
  commandTimeoutMs?: number;
  /** Replicas every write waits for (REDIS_MIN_REPLICAS); default none. */
  replication?: Replication;
  corsOrigins?: string[];
  /** Default: the service's (on outside production). */
  explorer?: boolean;
  /** The admin key the explorer puts in its headers, as for `npm start` without keys; default none. */
  developmentKey?: string;
  /** Default 0 (any free port); a test that restarts a server passes the port the first one got. */
  port?: number;
  /**
   * µs: the moment the submit script and Node's period decisions both take as "now" (the store's
   * test-only testNow and the app's momentClock); default their real clocks.
   */
  now?: () => number;
  /** µs: the server machine's clock, which a test sets off from Redis' (the app's localClock); default the real one. */
  localClock?: () => number;
  /** Time and timers of live updates (refreshes, period rollovers); default the real ones. */
  liveClock?: Clock;
  /** ms: the clock a combined view's time to live (COMBINED_VIEW_TTL_MS, `combinedViewTtlMs`) is counted on; default the real one. */
  viewClock?: () => number;
  combinedViewTtlMs?: number;
  /** Entries the view builds of one request may read (VIEW_ENTRIES_PER_REQUEST); default the service's. */
  viewEntriesPerRequest?: number;
}

/** What a request sends: `key: null` sends no Authorization header. */
export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
}

/** `L`: what the server logs through; a MemoryLogger unless the test passes its own `logger`. */
export class TestServer<L extends Logger = MemoryLogger> {
  private constructor(
    readonly baseUrl: string,
    readonly redis: Redis | Cluster,
    readonly server: StandingsServer,
    readonly logger: L,
  ) {}

  /** On the test Redis by default; `where` can name another server or a cluster. */
  static async start<L extends Logger = MemoryLogger>(
    where: RedisTarget = testRedisUrl(), options: TestServerOptions & { logger?: L } = {},
  ): Promise<TestServer<L>> {
    const { waitForRedis = true, nodeEnv = 'test', anonymousReads = false } = options;
    const logger = options.logger ?? (new MemoryLogger() as Logger as L);
    const redis = createClient(where, logger, { commandTimeoutMs: options.commandTimeoutMs, replication: options.replication });
    if (waitForRedis) await waitUntilReady(redis, where, 10_000);
    const keys = new ApiKeys(parseKeyList(TEST_KEY_LIST, []));
    const server = await createStandingsServer({
      redis, nodeEnv, logger, access: { keys, anonymousReads },
      rateLimits: options.rateLimits, liveCostLimits: options.liveCostLimits, trustProxyHops: options.trustProxyHops, corsOrigins: options.corsOrigins,
      maxConnectionsPerIp: options.maxConnectionsPerIp, httpTimeouts: options.httpTimeouts,
      cacheReads: options.cacheReads, fastLane: options.fastLane, freezeShared: true, explorer: options.explorer,
      developmentKey: options.developmentKey,
      ...(options.now && { store: new LeaderboardStore(redis, { testNow: options.now }), momentClock: { nowMicros: options.now } }),
      localClock: options.localClock, liveClock: options.liveClock, viewClock: options.viewClock, combinedViewTtlMs: options.combinedViewTtlMs,
      viewEntriesPerRequest: options.viewEntriesPerRequest,
    });
    const baseUrl = await server.listen(options.port ?? 0, '127.0.0.1');
    return new TestServer(baseUrl, redis, server, logger);
  }

  get graphqlUrl(): string {
    return `${this.baseUrl}${GRAPHQL_PATH}`;
  }

  async post(
    query: string, variables?: Record<string, unknown>, { key = TEST_KEYS.admin, headers = {} }: RequestOptions = {},
  ): Promise<{ status: number; body: GraphQLResponse; headers: Headers }> {
    const response = await fetch(this.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === null ? {} : authorization(key)), ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as GraphQLResponse, headers: response.headers };
  }

  /** The response's data; fails the test with the errors when there are any, `userErrors` of mutations included. */
  async data(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<any> {
    const { body } = await this.post(query, variables, options);
    if (body.errors?.length) throw new Error(`unexpected GraphQL errors: ${JSON.stringify(body.errors, null, 2)}`);
    const refused = userErrorsIn(body.data);
    if (refused.length) throw new Error(`unexpected userErrors: ${JSON.stringify(refused, null, 2)}`);
    return body.data;
  }

  /** The `userErrors` of the response's mutations; fails the test when there are none, or GraphQL errors. */
  async userErrors(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<UserError[]> {
    const { body } = await this.post(query, variables, options);
    if (body.errors?.length) throw new Error(`unexpected GraphQL errors: ${JSON.stringify(body.errors, null, 2)}`);
    const refused = userErrorsIn(body.data);
    if (!refused.length) throw new Error(`expected userErrors, got ${JSON.stringify(body)}`);
    return refused;
  }

  /** The response's errors; fails the test when there are none. */
  async errors(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<GraphQLError[]> {
    const { body } = await this.post(query, variables, options);
    if (!body.errors?.length) throw new Error(`expected GraphQL errors, got ${JSON.stringify(body)}`);
    return body.errors;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    this.redis.disconnect();
  }
}

/** The `userErrors` of every top-level field of `data` (a mutation's payload), in field order. */
export function userErrorsIn(data: unknown): UserError[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.values(data).flatMap((payload) => (payload as { userErrors?: UserError[] } | null)?.userErrors ?? []);
}

/** A UserError's fields, as every mutation test selects them. */
export const USER_ERRORS = 'userErrors { code field message }';

export const CREATE_BOARD = /* GraphQL */ `
  mutation ($input: CreateLeaderboardInput!) {
    createLeaderboard(input: $input) { leaderboard { id title sortOrder updatePolicy totalCount } ${USER_ERRORS} }
  }
`;

export const SUBMIT = /* GraphQL */ `
  mutation ($input: SubmitScoreInput!) {
    submitScore(input: $input) {
      entry { playerId score rank sharedRank percentile reachedAt }
      previousScore previousRank changed replayed ${USER_ERRORS}
    }
  }
`;

export async function createBoard(
  server: TestServer<Logger>,
  id: string,
  sortOrder: 'DESCENDING' | 'ASCENDING' = 'DESCENDING',
  updatePolicy: 'BEST' | 'LATEST' | 'INCREMENT' = 'BEST',
): Promise<void> {
  await server.data(CREATE_BOARD, { input: { id, sortOrder, updatePolicy } });
}

/** Submits the scores in order, one request each (live arrivals in that order). */
export async function submitAll(server: TestServer<Logger>, boardId: string, scores: [playerId: string, score: number][]) {
  for (const [playerId, score] of scores) {
    await server.data(SUBMIT, { input: { leaderboardId: boardId, playerId, score } });
  }
}

/**
 * A board whose ranking key holds the wrong type, so Redis itself refuses to read it: how tests
 * make a request fail in a way nothing expects (INTERNAL_SERVER_ERROR). Returns its id.
 */
export async function createBrokenBoard(server: TestServer<Logger>): Promise<string> {
  const id = uniqueId('broken');
  await createBoard(server, id);
  const redis = newTestClient();
  try {
    await redis.set(boardKeys(id).ranking, 'not a sorted set');
  } finally {
    await redis.quit();
  }
  return id;
}

/**
 * A describe block's own Redis (dedicated, or durable to survive restarts) and a server on it,
 * started before its tests and stopped after them. A test may replace `redis` (a restart on the
 * same port). One it paused (SIGSTOP) and failed before waking is woken, so stopping cannot hang.
 */
export function onOwnRedis<R extends { url: string; pid: number }>(
  start: () => Promise<R>, stop: (redis: R) => Promise<void>, options: TestServerOptions = {},
): { redis: R; server: TestServer } {
  const own = {} as { redis: R; server: TestServer };
  beforeAll(async () => {
    own.redis = await start();
    own.server = await TestServer.start(own.redis.url, options);
  });
  afterAll(async () => {
    if (own.redis) wake(own.redis.pid);
    await own.server?.stop();
    if (own.redis) await stop(own.redis);
  });
  return own;
}

function wake(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Not running (killed by the test): nothing to wake.
  }
}
