import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Cluster, Redis } from 'ioredis';
import { ANONYMOUS_READER, type Principal } from '../domain/access';
import { Leaderboards } from '../domain/leaderboards';
import { LiveBoards } from '../domain/live/liveBoards';
import { Players } from '../domain/players';
import { ErrorCode, StandingsError } from '../errors';
import { type Context, createContext } from '../graphql/context';
import { createFormatError, refusedRequest } from '../graphql/errors';
import type { Services } from '../graphql/loaders';
import { buildSchema } from '../graphql/schema';
import { parseOptions, validationRules } from '../graphql/validationRules';
import { EventBridge } from '../store/eventBridge';
import { LeaderboardStore } from '../store/leaderboardStore';
import { PlayerStore } from '../store/playerStore';
import { RateLimitStore } from '../store/rateLimitStore';
import { type AccessOptions, authenticate } from './auth/authenticate';
import type { NodeEnv, RateLimits } from './config';
import { inRequestScope, type Logger, requestLog } from './logger';
import { countError, countErrors, metricsPlugin, registry } from './metrics';
import { clientAddress, RateLimiter } from './rateLimit';
import { createSubscriberClient } from './redis';
import { attachWebSocket } from './websocket';

export const GRAPHQL_PATH = '/graphql';

export interface StandingsServerOptions {
  redis: Redis | Cluster;
  nodeEnv: NodeEnv;
  logger: Logger;
  /** More Apollo plugins, e.g. one that drains a WebSocket server attached to `httpServer`. */
  plugins?: ApolloServerPlugin<Context>[];
  /** The board store; default one on `redis`. Benches pass a variant to compare write paths. */
  store?: LeaderboardStore;
  /** API keys, and whether requests without one may read. */
  access: AccessOptions;
  /** Requests per window for each key and client address; default: no limits. */
  rateLimits?: RateLimits;
  /** Reverse proxies whose X-Forwarded-For is believed for client addresses; default 0. */
  trustProxyHops?: number;
  /** How long `stop()` lets requests in flight run before closing their connections; default 10 s. */
  drainMs?: number;
}

export interface StandingsServer {
  app: express.Express;
  /** Not listening yet: attach upgrade handlers (graphql-ws on GRAPHQL_PATH) before `listen`. */
  httpServer: http.Server;
  schema: GraphQLSchema;
  services: Services;
  /**
   * Lets a request in or refuses it (UNAUTHENTICATED, RATE_LIMITED): its credentials ("Bearer
   * <key>" or nothing) and the request that carried them (for the client address). The HTTP
   * endpoint calls it for every request; a WebSocket server calls it when a connection opens.
   */
  admit(authorization: unknown, request: http.IncomingMessage): Promise<Principal>;
  /** Resolves with the base URL, e.g. http://127.0.0.1:4000. */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (bounded), then stops Apollo. Leaves Redis open. */
  stop(): Promise<void>;
}

/**
 * One HTTP server carrying the GraphQL endpoint and the health probes. Apollo's drain plugin
 * owns closing it, so `stop()` finishes in-flight requests before Apollo shuts down.
 */
export async function createStandingsServer(options: StandingsServerOptions): Promise<StandingsServer> {
  const { redis, nodeEnv, logger, access } = options;
  const leaderboards = new Leaderboards(options.store ?? new LeaderboardStore(redis));
  const boardEvents = new EventBridge(createSubscriberClient(redis), logger);
  const services: Services = {
    leaderboards,
    players: new Players(new PlayerStore(redis)),
    live: new LiveBoards(leaderboards, boardEvents),
  };
  const schema = buildSchema();
  const app = express();
  app.disable('x-powered-by');
  const httpServer = http.createServer(app);
  const development = nodeEnv !== 'production';
  const rateLimiter = options.rateLimits && new RateLimiter(new RateLimitStore(redis), options.rateLimits);
  const admit = async (authorization: unknown, request: http.IncomingMessage): Promise<Principal> => {
    const principal = authenticate(authorization, access);
    await rateLimiter?.check(principal, clientAddress(request, options.trustProxyHops ?? 0));
    return principal;
  };
  const formatError = countErrors(createFormatError(logger));
  const websocket = attachWebSocket({
    httpServer, path: GRAPHQL_PATH, schema, formatError, production: !development, validationRules, parseOptions,
    authenticate: (params, request) => admit(params?.authorization, request),
    context: (principal?: Principal) => createContext(services, principal ?? ANONYMOUS_READER),
  });

  const apollo = new ApolloServer<Context>({
    schema,
    formatError,
    // Clients get stable codes and messages; stacks go to the log (see formatError).
    includeStacktraceInErrorResponses: false,
    introspection: development,
    parseOptions,
    validationRules: [...validationRules],
    // main.ts owns shutdown; Apollo's own handlers would re-raise the signal and cut it short.
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: options.drainMs ?? 10_000 }),
      development
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, footer: false })
        : ApolloServerPluginLandingPageDisabled(),
      metricsPlugin,
      websocket.drainPlugin,
      ...(options.plugins ?? []),
    ],
  });
  await apollo.start();

  app.use(requestLog(logger));
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await redis.ping();
      res.json({ status: 'ready' });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', reason: (err as Error).message });
    }
  });
  app.use(
    GRAPHQL_PATH,
    express.json({ limit: '1mb' }),
    inRequestScope,
    expressMiddleware(apollo, {
      async context({ req }) {
        try {
          return createContext(services, await admit(req.headers.authorization, req));
        } catch (err) {
          // Refused before any field runs: the whole response says so, with its HTTP status.
          throw err instanceof StandingsError ? refusedRequest(err) : err;
        }
      },
    }),
    sendBodyError(logger),
  );

  return {
    app,
    httpServer,
    schema,
    services,
    admit,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address() as AddressInfo;
          resolve(`http://${urlHost(address)}:${address.port}`);
        });
      }),
    stop: async () => {
      await apollo.stop();
      boardEvents.close();
    },
  };
}

/**
 * A body the JSON parser refused (malformed, too large, an unknown charset) gets a GraphQL-shaped
 * answer with a stable code instead of Express' HTML error page.
 */
function sendBodyError(logger: Logger) {
  return (err: Error & { status?: number; type?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const status = err.status ?? 500;
    const clientError = status >= 400 && status < 500;
    if (!clientError) logger.error(`Unexpected error in the HTTP layer: ${err.stack ?? err.message}`);
    const code = clientError ? ErrorCode.BAD_REQUEST : ErrorCode.INTERNAL;
    countError(code);
    res.status(status).json({
      errors: [{ message: clientError ? `Invalid request body: ${err.message}` : 'Internal server error', extensions: { code } }],
    });
  };
}

/** A URL someone can open: a wildcard address is reachable as localhost. */
function urlHost({ address, family }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return family === 'IPv6' ? `[${address}]` : address;
}
