import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault,
} from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Cluster, Redis } from 'ioredis';
import { Leaderboards } from '../domain/leaderboards';
import { Players } from '../domain/players';
import { type Context, createContext } from '../graphql/context';
import { createFormatError } from '../graphql/errors';
import type { Services } from '../graphql/loaders';
import { buildSchema } from '../graphql/schema';
import { LeaderboardStore } from '../store/leaderboardStore';
import { PlayerStore } from '../store/playerStore';
import type { NodeEnv } from './config';
import type { Logger } from './logger';

export const GRAPHQL_PATH = '/graphql';

export interface StandingsServerOptions {
  redis: Redis | Cluster;
  nodeEnv: NodeEnv;
  logger: Logger;
  /** More Apollo plugins, e.g. one that drains a WebSocket server attached to `httpServer`. */
  plugins?: ApolloServerPlugin<Context>[];
}

export interface StandingsServer {
  app: express.Express;
  /** Not listening yet: attach upgrade handlers (graphql-ws on GRAPHQL_PATH) before `listen`. */
  httpServer: http.Server;
  schema: GraphQLSchema;
  services: Services;
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
  const { redis, nodeEnv, logger } = options;
  const services: Services = {
    leaderboards: new Leaderboards(new LeaderboardStore(redis)),
    players: new Players(new PlayerStore(redis)),
  };
  const schema = buildSchema();
  const app = express();
  app.disable('x-powered-by');
  const httpServer = http.createServer(app);
  const development = nodeEnv !== 'production';

  const apollo = new ApolloServer<Context>({
    schema,
    formatError: createFormatError(logger),
    // Clients get stable codes and messages; stacks go to the log (see formatError).
    includeStacktraceInErrorResponses: false,
    introspection: development,
    // main.ts owns shutdown; Apollo's own handlers would re-raise the signal and cut it short.
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      development
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, footer: false })
        : ApolloServerPluginLandingPageProductionDefault({ footer: false }),
      ...(options.plugins ?? []),
    ],
  });
  await apollo.start();

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
    expressMiddleware(apollo, { context: async () => createContext(services) }),
  );

  return {
    app,
    httpServer,
    schema,
    services,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address() as AddressInfo;
          resolve(`http://${urlHost(address)}:${address.port}`);
        });
      }),
    stop: () => apollo.stop(),
  };
}

/** A URL someone can open: a wildcard address is reachable as localhost. */
function urlHost({ address, family }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return family === 'IPv6' ? `[${address}]` : address;
}
