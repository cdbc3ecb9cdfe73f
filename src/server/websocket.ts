import type * as http from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  type DocumentNode, type ExecutionResult, type FormattedExecutionResult, getOperationAST, getVariableValues, GraphQLError,
  type GraphQLFormattedError, type GraphQLSchema, parse, specifiedRules, validate,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { MAX_KEPT_QUERIES, MAX_KEPT_QUERY_LENGTH } from '../domain/limits';
import { ErrorCode, RateLimitedError, StandingsError } from '../errors';
import { describeInternalError, isInternalError } from '../graphql/errors';
import { createSharedSubscribe } from '../graphql/liveExecution';
import { parseOptions, validationRules } from '../graphql/validationRules';
import { setBounded } from './boundedMap';
import { setActiveSubscriptions } from './metrics';
import { BODY_LIMIT_BYTES } from './requestBody';
import { createFrameSharing } from './sharedFrames';

/** The same rules and parse limits as Apollo's over HTTP (see validationRules.ts). */
const RULES = [...specifiedRules, ...validationRules];
/** Subscriptions one connection may hold at once: a client cannot grow the server without bound. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
/** Refusals that close a connection with 4403; anything else (Redis unreachable) is an error (4500). */
const REFUSALS: ReadonlySet<string> = new Set([ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN]);
/** HTTP's 429 in the range the WebSocket protocol leaves to applications; the reason carries the hint. */
export const CLOSE_RATE_LIMITED = 4429;

export interface WebSocketOptions<A> {
  httpServer: http.Server;
  path: string;
  /** The same schema object the HTTP endpoint executes against. */
  schema: GraphQLSchema;
  /** The HTTP endpoint's formatError, so errors look and are masked alike. */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  /** Where the errors formatError masks as internal are logged, as internalErrorLog does over HTTP. */
  logger: { error(message: string): void };
  /**
   * A context for `auth` (what `authenticate` returned for the connection): one per subscription
   * for its subscribe resolver, and one made fresh for each event's execution (with `auth`
   * undefined: an event's result is shared by every subscriber of the same operation).
   */
  context(auth: A | undefined): unknown;
  production: boolean;
  /**
   * Admits a connection from its connection_init payload (graphql-ws' `connectionParams`, e.g.
   * `{ authorization: "Bearer <key>" }`) and the upgrade request. Throwing a StandingsError
   * refuses it: the socket is closed with 4403 Forbidden.
   */
  authenticate(connectionParams: Readonly<Record<string, unknown>> | undefined, request: http.IncomingMessage): Promise<A>;
}

export interface WebSocketEndpoint {
  /** Closes every socket (1001 Going away) and stops accepting new ones; Apollo's drain calls it. */
  drainPlugin: ApolloServerPlugin;
}

type Prepared = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * Subscriptions over graphql-ws on the HTTP server's port and path. graphql-ws parses, validates
 * and executes by itself, past Apollo's plugins and formatError, so this does what Apollo does for
 * HTTP: the same validation rules and parse limits, Apollo's error codes, and errors formatted by
 * the same function. It serves subscriptions only: queries and mutations go over HTTP, where the
 * plugins that watch them run.
 */
export function attachWebSocket<A>(options: WebSocketOptions<A>): WebSocketEndpoint {
  const { schema, context } = options;
  /** Parsed and validated query texts (clients send the same few; long ones are never kept). */
  const prepared = new Map<string, Prepared>();
  const prepare = (query: string): Prepared => {
    let known = prepared.get(query);
    if (!known) {
      known = parseAndValidate(schema, query);
      if (query.length <= MAX_KEPT_QUERY_LENGTH) setBounded(prepared, query, known, MAX_KEPT_QUERIES);
    }
    return known;
  };
  const format = (error: GraphQLError) => {
    if (isInternalError(error)) options.logger.error(describeInternalError(error.path, error.originalError ?? error));
    // As Apollo does before its formatError: an error without a code is an internal one.
    return options.formatError({ ...error.toJSON(), extensions: { ...error.extensions, code: error.extensions.code ?? ErrorCode.INTERNAL } }, error);
  };
  const formattedResults = new WeakMap<ExecutionResult, FormattedExecutionResult>();
  /** Open subscriptions, by connection, for the metric. */
  const streaming = new WeakMap<object, Set<string>>();
  let open = 0;

  const frames = createFrameSharing();
  const wsServer = new WebSocketServer({
    server: options.httpServer, path: options.path, maxPayload: BODY_LIMIT_BYTES, WebSocket: frames.WebSocket,
  });
  const server = useServer<Record<string, unknown> | undefined, { auth: A }>(
    {
      schema,
      jsonMessageReplacer: frames.replacer,
      async onConnect(ctx) {
        try {
          ctx.extra.auth = await options.authenticate(ctx.connectionParams, ctx.extra.request);
          return true;
        } catch (err) {
          if (err instanceof RateLimitedError) {
            ctx.extra.socket.close(CLOSE_RATE_LIMITED, `RATE_LIMITED: retry in ${err.retryAfterSeconds} s`);
            return false;
          }
          if (err instanceof StandingsError && REFUSALS.has(err.code)) return false;
          throw err;
        }
      },
      onSubscribe(ctx, _id, payload) {
        // graphql-ws has already recorded this one.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          return [new GraphQLError(`A connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions at once`, {
            extensions: { code: ErrorCode.BAD_REQUEST, details: { limit: 'subscriptions', maximum: MAX_SUBSCRIPTIONS_PER_CONNECTION } },
          })];
        }
        const ready = prepare(payload.query);
        if ('errors' in ready) return ready.errors;
        const operation = getOperationAST(ready.document, payload.operationName);
        if (!operation) {
          return [new GraphQLError('Name the operation to run (operationName): the document has none or several', {
            extensions: { code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE },
          })];
        }
        if (operation.operation !== 'subscription') {
          return [new GraphQLError('Only subscriptions are served over WebSocket: send queries and mutations over HTTP', {
            nodes: operation,
            extensions: { code: ErrorCode.BAD_REQUEST },
          })];
        }
        const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {});
        if (coerced.errors) return coerced.errors.map((error) => withCode(error, ErrorCode.BAD_USER_INPUT));
        return {
          schema,
          document: ready.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: context(ctx.extra.auth),
        };
      },
      subscribe: createSharedSubscribe(() => context(undefined)),
      onOperation(ctx, id, _payload, _args, result) {
        if (!(Symbol.asyncIterator in result)) return;
        let ids = streaming.get(ctx);
        if (!ids) streaming.set(ctx, (ids = new Set()));
        ids.add(id);
        setActiveSubscriptions(++open);
      },
      onComplete(ctx, id) {
        if (streaming.get(ctx)?.delete(id)) setActiveSubscriptions(--open);
      },
      // The same result object for every subscriber of an event's result (graphql-ws would copy
      // it for each), so that its JSON is made once (see sharedFrames.ts).
      onNext(_ctx, _id, _payload, _args, result) {
        if (!result.errors) return result;
        let formatted = formattedResults.get(result);
        if (!formatted) formattedResults.set(result, (formatted = { ...result, errors: result.errors.map(format) }));
        return formatted;
      },
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
      isProd: options.production,
    },
    wsServer,
  );

  return {
    drainPlugin: {
      async serverWillStart() {
        return {
          async drainServer() {
            await server.dispose();
          },
        };
      },
    },
  };
}

function parseAndValidate(schema: GraphQLSchema, query: string): Prepared {
  let document: DocumentNode;
  try {
    document = parse(query, parseOptions);
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    return { errors: [withCode(err, ApolloServerErrorCode.GRAPHQL_PARSE_FAILED)] };
  }
  const errors = validate(schema, document, RULES);
  if (errors.length === 0) return { document };
  return { errors: errors.map((error) => withCode(error, ErrorCode.GRAPHQL_VALIDATION_FAILED)) };
}

/** The error with `code` unless it has one; its nodes stay, which formatError looks at. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}
