import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Cluster, Redis } from 'ioredis';
import { ANONYMOUS_READER, hasRole, type Principal } from '../domain/access';
import { Leaderboards } from '../domain/leaderboards';
import { DEFAULT_LIVE_COST_PER_CLIENT, DEFAULT_LIVE_COST_PER_CONNECTION, UPDATE_INTERVAL_MS } from '../domain/limits';
import { LiveBoards } from '../domain/live/liveBoards';
import type { Clock } from '../domain/live/refreshScheduler';
import type { MomentClock } from '../domain/periods/clock';
import { RedisMomentClock } from '../domain/periods/redisClock';
import { Players } from '../domain/players';
import { ReadCache } from '../domain/readCache';
import { StandingsError } from '../errors';
import type { Context, Services } from '../graphql/context';
import { refusedRequest } from '../graphql/errorFormat';
import { apolloOptions } from '../graphql/execution/apollo';
import { createExecutionCore } from '../graphql/execution/core';
import { buildSchema } from '../graphql/schema';
import { EventBridge } from '../store/eventBridge';
import { LeaderboardStore } from '../store/leaderboardStore';
import { PlayerStore } from '../store/playerStore';
import { RateLimitStore } from '../store/rateLimitStore';
import { redisTimeMicros } from '../store/redisTime';
import { type AccessOptions, authenticate, webSocketCredentials } from './auth/authenticate';
import type { LiveCostLimits, NodeEnv, RateLimits } from './config';
import { capConnectionsPerAddress, DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts, timeoutOptions } from './connections';
import { FastLane } from './fastLane';
import type { Logger } from './logger';
import { Cors } from './cors';
import { drainServer } from './drain';
import { explorerLandingPage } from './explorer';
import { countError, countUserError, observeOperation, timeRedisCommands } from './metrics';
import { clientOf, RateLimiter } from './rateLimit';
import { createSubscriberClient } from './redis';
import { Admission, createRequestHandler } from './requestHandler';
import { createWebRoutes } from './webAssets';
import { attachWebSocket } from './websocket';

export const GRAPHQL_PATH = '/graphql';

export interface StandingsServerOptions {
  redis: Redis | Cluster;
  nodeEnv: NodeEnv;
  logger: Logger;
  /** The board store; default one on `redis`. Benches pass a variant to compare write paths. */
  store?: LeaderboardStore;
  /**
   * Tests: Node's "now" for its period decisions (which period "current" names), moved with the
   * store's test clock (LeaderboardStore testNow). Not a setting of config.ts.
   */
  momentClock?: MomentClock;
  /**
   * Tests: this machine's clock (µs) as the server reads it, set off from Redis' to show that
   * the default momentClock follows Redis' clock. Not a setting of config.ts.
   */
  localClock?: () => number;
  /** Tests: time and timers of live updates (refreshes, period rollovers), moved by the test with `momentClock`. */
  liveClock?: Clock;
  /** API keys, and whether requests without one may read. */
  access: AccessOptions;
  /** Requests per window for each key and client address; default: no limits. */
  rateLimits?: RateLimits;
  /** What the live subscriptions of a connection and of a client may cost together; default the service's (DEFAULT_LIVE_COST_*). */
  liveCostLimits?: LiveCostLimits;
  /** Reverse proxies whose X-Forwarded-For is believed for client addresses; default 0. */
  trustProxyHops?: number;
  /** Connections one peer address may hold open on this server, HTTP and WebSocket (connections.ts); default 0: no cap. */
  maxConnectionsPerIp?: number;
  /** How long a client may take to send a request's headers, and all of it; default DEFAULT_HTTP_TIMEOUTS. */
  httpTimeouts?: HttpTimeouts;
  /** Web origins whose pages may call the API from a browser (see cors.ts); default none. */
  corsOrigins?: string[];
  /** How long `stop()` lets requests in flight run before closing their connections; default 10 s. */
  drainMs?: number;
  /** Whether hot reads are kept in memory (src/domain/readCache.ts); default true. */
  cacheReads?: boolean;
  /** How long a combined view answers reads before it is built again (ms); default DEFAULT_COMBINED_VIEW_TTL_MS. */
  combinedViewTtlMs?: number;
  /** Entries the view builds one request starts may read in all; default DEFAULT_VIEW_ENTRIES_PER_REQUEST. */
  viewEntriesPerRequest?: number;
  /** Tests: the clock (ms) a combined view's time to live is counted on. */
  viewClock?: () => number;
  /**
   * Whether operations Apollo has validated once are executed at once when they come again
   * (src/server/fastLane.ts); default true.
   */
  fastLane?: boolean;
  /** Tests: what live subscribers share is frozen, so that changing it after it was shared throws. */
  freezeShared?: boolean;
  /** Whether browsers opening the GraphQL URL get the explorer (and introspection is on); default: outside production. */
  explorer?: boolean;
  /** The admin key `npm start` made for this run, which the explorer may offer (see explorer.ts). */
  developmentKey?: string;
}

export interface StandingsServer {
  /** Serves GraphQL over HTTP and WebSocket (graphql-ws) on GRAPHQL_PATH; not listening yet. */
  httpServer: http.Server;
  schema: GraphQLSchema;
  services: Services;
  /** Resolves with the base URL, e.g. http://127.0.0.1:4000. */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (bounded), then stops Apollo. Leaves Redis open. Once: a second call gets the first one's promise. */
  stop(): Promise<void>;
}

/**
 * One HTTP server carrying the GraphQL endpoint and the health probes. `stop()` drains it
 * (drain.ts), so requests in flight finish before Apollo shuts down.
 */
export async function createStandingsServer(options: StandingsServerOptions): Promise<StandingsServer> {
  const { redis, nodeEnv, logger, access } = options;
  // Every command this server sends is timed for /metrics, the live connection's too.
  timeRedisCommands(redis);
  const subscriber = createSubscriberClient(redis);
  timeRedisCommands(subscriber);
  const boardEvents = new EventBridge(subscriber, logger);
  const readCache = options.cacheReads === false ? undefined : new ReadCache(boardEvents);
  const store = options.store ?? new LeaderboardStore(redis);
  // Reads decide "the current period" by Redis' clock, as writes do (see RedisMomentClock).
  const redisClock = options.momentClock ? undefined : new RedisMomentClock(() => redisTimeMicros(redis), options.localClock);
  const momentClock = options.momentClock ?? redisClock;
  const services: Services = {
    leaderboards: new Leaderboards(store, readCache, momentClock, {
      ttlMs: options.combinedViewTtlMs, nowMs: options.viewClock, entriesPerRequest: options.viewEntriesPerRequest,
    }),
    players: new Players(new PlayerStore(redis)),
    // Live updates keep their own states from the board's events, and hold their own board subscriptions: through
    // the cache, a board would stay subscribed after its last subscriber left.
    live: new LiveBoards(new Leaderboards(store, undefined, momentClock), boardEvents, UPDATE_INTERVAL_MS, options.liveClock),
  };
  const schema = buildSchema();
  const admission = new Admission();
  const httpServer = http.createServer({ ServerResponse: admission.ServerResponse, ...timeoutOptions(options.httpTimeouts ?? DEFAULT_HTTP_TIMEOUTS) });
  if (options.maxConnectionsPerIp) capConnectionsPerAddress(httpServer, options.maxConnectionsPerIp);
  const development = nodeEnv !== 'production';
  const explorer = options.explorer ?? development;
  const cors = new Cors(options.corsOrigins ?? []);
  const rateLimiter = options.rateLimits && new RateLimiter(new RateLimitStore(redis), options.rateLimits, options.trustProxyHops ?? 0);
  /**
   * Lets a request in or refuses it (UNAUTHENTICATED, RATE_LIMITED): its credentials ("Bearer
   * <key>" or nothing) and the request that carried them (for the client address). Every HTTP
   * request passes here, and every WebSocket connection at its connection_init, whose address was
   * counted at its upgrade unless `countAddress` says otherwise (see countsUpgrade). When no rate
   * limit applies it answers at once (a refusal is thrown), so that a request waits for no promise here.
   */
  const admit = (authorization: unknown, request: http.IncomingMessage, countAddress = true): Principal | Promise<Principal> => {
    let principal: Principal;
    try {
      principal = authenticate(authorization, access);
    } catch (err) {
      // Refused keys count against their address as anonymous requests do, or guessing keys
      // (or calling without one where reads need one) would be the one thing never limited.
      const counted = countAddress ? rateLimiter?.check(ANONYMOUS_READER, request) : undefined;
      if (counted === undefined) throw err;
      return counted.then(() => Promise.reject(err));
    }
    const counted = countAddress ? rateLimiter?.check(principal, request) : rateLimiter?.checkKey(principal);
    return counted === undefined ? principal : counted.then(() => principal);
  };
  /**
   * Whether a WebSocket upgrade counts against its address when it arrives: unless it shows a
   * writer's or admin's key in its own Authorization header. Those are backends, counted per key
   * only as over HTTP; any other connection's key is only known at connection_init, too late for a
   * socket that never sends one. Read again at connection_init, so an address is counted once.
   */
  const countsUpgrade = (request: http.IncomingMessage): boolean => {
    try {
      return !hasRole(authenticate(request.headers.authorization, access), 'writer');
    } catch {
      return true;
    }
  };
  // Every transport parses, validates, executes and formats through this one core (see ARCHITECTURE.md).
  const core = createExecutionCore({
    schema, services, production: !development, introspection: explorer, logger, observeOperation, countError, countUserError,
    freezeShared: options.freezeShared,
  });
  /** Why an HTTP request was not admitted, as the error its response carries. */
  const refuse = (err: unknown, requestId: string): never => {
    // Refused before any field runs: the whole response says so, with its HTTP status.
    if (err instanceof StandingsError) throw refusedRequest(err);
    core.logInternalError(err, requestId);
    throw err;
  };
  const websocket = attachWebSocket({
    httpServer,
    path: GRAPHQL_PATH,
    core,
    production: !development,
    admitsUpgrade: (request) => cors.admitsSocket(request),
    countUpgrade: (request) => (countsUpgrade(request) ? rateLimiter?.checkAddress(request) : undefined),
    // A connection whose upgrade was not counted (a writer's) is counted here as an HTTP request would be.
    authenticate: async (params, request) => admit(webSocketCredentials(params, request), request, !countsUpgrade(request)),
    admitOperation: async (principal, request) => rateLimiter?.check(principal, request),
    chargeViews: (principal, request) => rateLimiter?.chargeViews(principal, request),
    liveCost: {
      limits: options.liveCostLimits ?? { perConnection: DEFAULT_LIVE_COST_PER_CONNECTION, perClient: DEFAULT_LIVE_COST_PER_CLIENT },
      clientOf: (principal, request) => clientOf(principal, request, options.trustProxyHops ?? 0),
    },
    liveRedis: boardEvents,
  });

  const fastLane = options.fastLane === false ? undefined : new FastLane(core.documents);
  const { plugins: corePlugins, ...onCore } = apolloOptions<Context>(core);
  const apollo = new ApolloServer<Context>({
    ...onCore,
    // Clients get stable codes and messages; stacks go to the log (see formatError).
    includeStacktraceInErrorResponses: false,
    // A request carrying Authorization cannot be a simple cross-site one (a browser preflights it),
    // so a GET with a key needs no other header: urql sends queries as GET without a content type.
    // Keyless simple GETs stay refused.
    csrfPrevention: { requestHeaders: ['x-apollo-operation-name', 'apollo-require-preflight', 'authorization'] },
    // main.ts owns shutdown; Apollo's own handlers would re-raise the signal and cut it short.
    stopOnTerminationSignals: false,
    plugins: [
      explorer
        ? explorerLandingPage({ graphqlPath: GRAPHQL_PATH, developmentKey: options.developmentKey, address: () => httpServer.address() })
        : ApolloServerPluginLandingPageDisabled(),
      // We send no cache hints; left on, these two hook every field of every request.
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ...corePlugins,
    ],
  });
  await apollo.start();

  const requestHandler = createRequestHandler({
    graphqlPath: GRAPHQL_PATH,
    cors,
    apollo,
    core,
    fastLane,
    logger,
    ready: () => redis.ping(),
    web: createWebRoutes(),
    admission,
    context(req, requestId) {
      let admitted: Principal | Promise<Principal>;
      try {
        admitted = admit(req.headers.authorization, req);
      } catch (err) {
        return refuse(err, requestId);
      }
      if (admitted instanceof Promise) {
        return admitted.then((principal) => core.context(principal, requestId, rateLimiter?.chargeViews(principal, req)), (err: unknown) => refuse(err, requestId));
      }
      return core.context(admitted, requestId, rateLimiter?.chargeViews(admitted, req));
    },
  });
  httpServer.on('request', requestHandler);
  let stopped: Promise<void> | undefined;

  return {
    httpServer,
    schema,
    services,
    listen: async (port, host) => {
      await redisClock?.start();
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address() as AddressInfo;
          resolve(`http://${urlHost(address)}:${address.port}`);
        });
      });
    },
    stop: () => (stopped ??= (async () => {
      admission.stop();
      fastLane?.close();
      await drainServer(httpServer, websocket, options.drainMs ?? 10_000);
      await apollo.stop();
      readCache?.close();
      boardEvents.close();
      redisClock?.stop();
    })()),
  };
}

/** A URL someone can open: a wildcard address is reachable as localhost. */
function urlHost({ address, family }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return family === 'IPv6' ? `[${address}]` : address;
}
