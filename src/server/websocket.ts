import type * as http from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  type DocumentNode, type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult, getOperationAST, getVariableValues,
  GraphQLError, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode, parse, specifiedRules, validate,
} from 'graphql';
import { CloseCode, MessageType, parseMessage } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { MAX_KEPT_QUERIES, MAX_KEPT_QUERY_LENGTH } from '../domain/limits';
import { ErrorCode, RateLimitedError, StandingsError } from '../errors';
import type { CompiledExecution } from '../graphql/compiledExecution';
import { describeInternalError, isInternalError, operationNotFound } from '../graphql/errors';
import { createSharedSubscribe } from '../graphql/liveExecution';
import { parseOptions, validationRules } from '../graphql/validationRules';
import { setBounded } from './boundedMap';
import { observeOperation, setActiveSubscriptions } from './metrics';
import { BODY_LIMIT_BYTES } from './requestBody';
import { createFrameSharing } from './sharedFrames';

/** The same rules and parse limits as Apollo's over HTTP (see validationRules.ts). */
const RULES = [...specifiedRules, ...validationRules];
/**
 * Subscriptions one connection may hold at once, counting those still being set up, even ended
 * ones (their set-up will make a stream): a client cannot grow the server without bound (see
 * ConnectionSubscriptions).
 */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
/** A close frame's reason holds at most 123 bytes. */
const closeReason = (text: string) => (Buffer.byteLength(text) <= 123 ? text : `${Buffer.from(text).subarray(0, 120).toString().replace(/\uFFFD$/, '')}...`);
/** Refusals that close a connection with 4403; anything else (Redis unreachable) is an error (4500). */
const REFUSALS: ReadonlySet<string> = new Set([ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN]);
/**
 * HTTP's 429 in the range the WebSocket protocol leaves to applications; the reason carries the
 * hint. Not 4429: graphql-ws closes with that for a second connection_init (its CloseCode enum
 * holds its own codes), and a client must be able to tell a limit it can wait out from its own bug.
 */
export const CLOSE_RATE_LIMITED = 4029;

export interface WebSocketOptions<A> {
  httpServer: http.Server;
  path: string;
  /** The same schema object the HTTP endpoint executes against. */
  schema: GraphQLSchema;
  /** The HTTP endpoint's formatError, so errors look and are masked alike. */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  /** Where the errors formatError masks as internal are logged, as internalErrorLog does over HTTP. */
  logger: { error(message: string): void };
  /** A context for `auth` (what `authenticate` returned for the connection): one per operation. */
  context(auth: A): unknown;
  /**
   * A context made fresh for each event's execution: nobody's, since an event's result is shared
   * by every subscriber of the same operation (see createEventContext).
   */
  eventContext(): unknown;
  /** Tests: freeze what subscribers share, so that changing it throws (see liveExecution.ts). */
  freezeShared?: boolean;
  production: boolean;
  /** What HTTP executes queries and mutations with (compiled once per operation, see compiledExecution.ts). */
  execution: CompiledExecution;
  /**
   * Counts a query or mutation sent over the socket against the rate limits, as an HTTP request
   * is counted; throwing RateLimitedError refuses it with the error HTTP would give.
   */
  admitOperation(auth: A, request: http.IncomingMessage): Promise<void>;
  /** Whether an upgrade may go on, by its request alone (a browser page's Origin); refused ones get HTTP 401. */
  admitsUpgrade(request: http.IncomingMessage): boolean;
  /**
   * Admits a connection from its connection_init payload (graphql-ws' `connectionParams`, e.g.
   * `{ authorization: "Bearer <key>" }`) and the upgrade request. Throwing UNAUTHENTICATED or
   * FORBIDDEN closes the socket with 4403 and `CODE: message` as the reason, RateLimitedError
   * with CLOSE_RATE_LIMITED; anything else is an internal error (4500).
   */
  authenticate(connectionParams: Readonly<Record<string, unknown>> | undefined, request: http.IncomingMessage): Promise<A>;
}

export interface WebSocketEndpoint {
  /** Closes every socket (1001 Going away) and stops accepting new ones; Apollo's drain calls it. */
  drainPlugin: ApolloServerPlugin;
}

type Prepared = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * GraphQL over graphql-ws on the HTTP server's port and path: subscriptions, and queries and
 * mutations (one `next`, then `complete`) for clients that keep one socket open. graphql-ws
 * parses, validates and executes by itself, past Apollo's plugins and formatError, so this does
 * what Apollo does for HTTP: the same validation rules and parse limits, Apollo's error codes,
 * errors formatted by the same function, the same compiled execution, rate limits counted per
 * query or mutation, and operation metrics.
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
  /** Each subscription by the arguments onSubscribe gave graphql-ws, which it passes to `subscribe`. */
  const setUps = new WeakMap<ExecutionArgs, Subscription>();
  const subscribe = createSharedSubscribe(options.eventContext, { freezeShared: options.freezeShared });
  /** Each query or mutation by the arguments onSubscribe gave graphql-ws, which it passes to `execute`. */
  const operations = new WeakMap<ExecutionArgs, OperationDefinitionNode>();

  const frames = createFrameSharing();
  const wsServer = new WebSocketServer({
    server: options.httpServer, path: options.path, maxPayload: BODY_LIMIT_BYTES, WebSocket: frames.WebSocket,
    // One message at a time, with graphql-ws' work on it (short of Redis) done before the next: a
    // `subscribe` right after a `complete` for the same id then finds the id let go of, not taken
    // back by the old subscription's set-up (see Subscription.setUp).
    allowSynchronousEvents: false,
    verifyClient: ({ req }: { req: http.IncomingMessage }) => options.admitsUpgrade(req),
  });
  const server = useServer<Record<string, unknown> | undefined, { auth: A; subscriptions: ConnectionSubscriptions }>(
    {
      schema,
      jsonMessageReplacer: frames.replacer,
      async onConnect(ctx) {
        try {
          ctx.extra.auth = await options.authenticate(ctx.connectionParams, ctx.extra.request);
          ctx.extra.subscriptions = new ConnectionSubscriptions(ctx.extra.socket);
          return true;
        } catch (err) {
          if (err instanceof RateLimitedError) {
            ctx.extra.socket.close(CLOSE_RATE_LIMITED, closeReason(`RATE_LIMITED: retry in ${err.retryAfterSeconds} s`));
            return false;
          }
          if (err instanceof StandingsError && REFUSALS.has(err.code)) {
            // graphql-ws would close with a bare "Forbidden": the reason says which, as HTTP's code does.
            ctx.extra.socket.close(CloseCode.Forbidden, closeReason(`${err.code}: ${err.message}`));
            return false;
          }
          throw err;
        }
      },
      async onSubscribe(ctx, id, payload) {
        const ready = prepare(payload.query);
        if ('errors' in ready) return ready.errors;
        const operation = getOperationAST(ready.document, payload.operationName);
        if (!operation) return [withCode(operationNotFound(payload.operationName), ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE)];
        const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {});
        if (coerced.errors) return coerced.errors.map((error) => withCode(error, ErrorCode.BAD_USER_INPUT));
        // graphql-ws takes operations only on connections onConnect admitted.
        const argsFor = (): ExecutionArgs => ({
          schema,
          document: ready.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: context(ctx.extra.auth!),
        });
        if (operation.operation !== 'subscription') {
          // Queries and mutations hold no place: like HTTP requests, they are bounded by the rate limits.
          try {
            await options.admitOperation(ctx.extra.auth!, ctx.extra.request);
          } catch (err) {
            if (!(err instanceof StandingsError)) throw err;
            return [new GraphQLError(err.message, { originalError: err })];
          }
          const args = argsFor();
          operations.set(args, operation);
          return args;
        }
        const subscription = ctx.extra.subscriptions!.add(id);
        if (!subscription) {
          return [new GraphQLError(`A connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions at once`, {
            extensions: { code: ErrorCode.BAD_REQUEST, details: { limit: 'subscriptions', maximum: MAX_SUBSCRIPTIONS_PER_CONNECTION } },
          })];
        }
        const args = argsFor();
        setUps.set(args, subscription);
        return args;
      },
      subscribe: (args) => setUps.get(args)!.setUp(() => subscribe(args)),
      async execute(args) {
        const operation = operations.get(args)!;
        const started = process.hrtime.bigint();
        const result = await options.execution.execute(args.document, operation, args.contextValue, args.variableValues ?? undefined);
        observeOperation(operation, started);
        return result;
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

/** Places held on every connection of the process: the metric is the process', however many servers run in it. */
let held = 0;

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * One connection's subscriptions, counted and ended here rather than left to graphql-ws' record of
 * them, which it keys by id and consults only once a set-up (Redis reads) is over: a `complete`
 * during a set-up reaches nothing there, and a set-up of an id since completed and reused takes
 * the new subscription's entry or deletes it, leaving a stream that nothing ends. Here each
 * subscription holds one of the connection's places from `subscribe` until it has ended and its
 * set-up is over (one still running will make a stream), and ends on the client's `complete` for
 * its id, when graphql-ws lets go of it, when its stream ends, or when the socket closes.
 */
class ConnectionSubscriptions {
  /** Those the client can still complete, by id. */
  private readonly open = new Map<string, Subscription>();
  private places = 0;

  constructor(socket: WebSocket) {
    // Read here too: graphql-ws tells nothing of a `complete` for a subscription it holds no
    // stream of (one being set up, or one whose entry a reused id's set-up took).
    socket.on('message', (data) => {
      if (this.open.size === 0) return;
      const id = completedId(data);
      if (id !== undefined) this.open.get(id)?.end();
    });
    socket.once('close', () => {
      for (const subscription of this.open.values()) subscription.end();
    });
  }

  /**
   * A new subscription under `id`, or none when every place is held. graphql-ws only takes an id
   * it holds nothing under; whatever of ours still runs under it could not be told from the new
   * one by the client any more, so it ends.
   */
  add(id: string): Subscription | undefined {
    this.open.get(id)?.end();
    if (this.places >= MAX_SUBSCRIPTIONS_PER_CONNECTION) return undefined;
    this.places++;
    setActiveSubscriptions(++held);
    const subscription = new Subscription(
      () => this.open.delete(id),
      () => {
        this.places--;
        setActiveSubscriptions(--held);
      },
    );
    this.open.set(id, subscription);
    return subscription;
  }
}

/** The id a `complete` message ends; nothing for other messages, or for one graphql-ws refuses (it closes the socket). */
function completedId(data: RawData): string | undefined {
  try {
    const message = parseMessage(String(data));
    return message.type === MessageType.Complete ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A subscription as graphql-ws iterates it: its stream from the live layer once set up, returned
 * as soon as the subscription ends, however that happens and whether or not the set-up is over.
 */
class Subscription implements AsyncIterableIterator<ExecutionResult> {
  private stream: AsyncIterator<ExecutionResult> | undefined;
  private ended = false;
  private settingUp = false;
  private settled = false;
  /** Lets graphql-ws go on when the subscription ends during its set-up. */
  private endSetUp: (() => void) | undefined;

  /** `onEnded`: it can no longer be completed; `release`: its place is free. */
  constructor(
    private readonly onEnded: () => void,
    private readonly release: () => void,
  ) {}

  /**
   * `subscribe`'s result as graphql-ws awaits it. It comes as soon as the subscription ends, not
   * when Redis answers, so that graphql-ws lets go of the id before it reads another message; a
   * stream set up after the end is returned at once, and the place is held until then.
   */
  setUp(subscribe: () => Promise<ExecutionResult | AsyncIterable<ExecutionResult>>): Promise<ExecutionResult | this> {
    if (this.ended) return Promise.resolve(this);
    this.settingUp = true;
    return new Promise((resolve, reject) => {
      this.endSetUp = () => resolve(this);
      subscribe()
        .then((result) => {
          // Errors while subscribing, which graphql-ws sends: there is nothing to stream.
          if (!(Symbol.asyncIterator in result)) return resolve(result);
          this.stream = result[Symbol.asyncIterator]();
          resolve(this);
        })
        .catch(reject)
        .finally(() => {
          this.settingUp = false;
          if (!this.stream) this.end();
          this.settle();
        });
    });
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.ended) return DONE;
    try {
      // graphql-ws iterates what setUp resolved with: set up, unless it has ended.
      const result = await this.stream!.next();
      if (result.done) this.end();
      return result;
    } catch (err) {
      this.end();
      throw err;
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.end();
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnded();
    this.endSetUp?.();
    this.settle();
  }

  /** Once ended and set up: returns the stream (which ends a `next` waiting on it) and frees the place. */
  private settle(): void {
    if (!this.ended || this.settingUp || this.settled) return;
    this.settled = true;
    void this.stream?.return?.();
    this.release();
  }
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
