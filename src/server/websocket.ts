import type * as http from 'node:http';
import type { Writable } from 'node:stream';
import { type ExecutionArgs, type ExecutionResult, GraphQLError } from 'graphql';
import { CloseCode, handleProtocols, makeServer, MessageType, parseMessage, type Server } from 'graphql-ws';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { Principal } from '../domain/access';
import { ErrorCode, overLiveLimit, RateLimitedError, StandingsError } from '../errors';
import type { ChargeViews } from '../graphql/context';
import type { ExecutionCore } from '../graphql/execution/core';
import type { PreparedOperation } from '../graphql/execution/documents';
import { subscriptionCost } from '../graphql/liveCost';
import { LiveResults, type ResultSink } from '../graphql/execution/live';
import type { LiveCostLimits } from './config';
import { KeepAlive } from './keepAlive';
import { REQUEST_ID_HEADER, requestIdOf } from './logger';
import { setActiveSubscriptions } from './metrics';
import { BODY_LIMIT_BYTES } from './requestBody';
import { createSharedFrames, type FrameTarget, type NextSender, nextPrefix } from './sharedFrames';

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

export interface WebSocketOptions {
  httpServer: http.Server;
  path: string;
  /** What parses, validates, executes and formats every operation (the HTTP endpoint's too). */
  core: ExecutionCore;
  production: boolean;
  /**
   * Counts a query or mutation sent over the socket against the rate limits, as an HTTP request
   * is counted; throwing RateLimitedError refuses it with the error HTTP would give.
   */
  admitOperation(principal: Principal, request: http.IncomingMessage): Promise<void>;
  /** What charges the combined views a query sent over the socket builds to its client, as over HTTP (RateLimiter.chargeViews). */
  chargeViews?(principal: Principal, request: http.IncomingMessage): ChargeViews | undefined;
  /** Whether an upgrade may go on, by its request alone (a browser page's Origin); refused ones get HTTP 401. */
  admitsUpgrade(request: http.IncomingMessage): boolean;
  /**
   * Counts an upgrade against the rate limit of its address as it arrives, before any graphql-ws
   * message, so that a socket that never sends connection_init is counted too; undefined when
   * nothing is counted. A RateLimitedError refuses the upgrade with HTTP 429 (see refuseUpgrade).
   */
  countUpgrade(request: http.IncomingMessage): Promise<void> | undefined;
  /**
   * Admits a connection from its connection_init payload (graphql-ws' `connectionParams`, e.g.
   * `{ authorization: "Bearer <key>" }`) and the upgrade request. Throwing UNAUTHENTICATED or
   * FORBIDDEN closes the socket with 4403 and `CODE: message` as the reason, RateLimitedError
   * with CLOSE_RATE_LIMITED; anything else closes it with 4500, and is logged unless it is a
   * StandingsError (Redis unavailable: the client's reason says so).
   */
  authenticate(connectionParams: Readonly<Record<string, unknown>> | undefined, request: http.IncomingMessage): Promise<Principal>;
  /**
   * The Redis connection live updates come over (the board event bridge): whether it is up, told
   * to every admitted connection (see RedisState), so that a client can tell a quiet board from a
   * server that lost Redis without asking anything.
   */
  liveRedis?: { onConnectionChange(listener: (connected: boolean) => void): () => void };
  /** What the subscriptions of one connection, and of one client, may cost together (see LiveBudget); default: no limit. */
  liveCost?: {
    limits: LiveCostLimits;
    /** The client whose subscriptions a connection's count with for `limits.perClient` (see clientOf in rateLimit.ts). */
    clientOf(principal: Principal, request: http.IncomingMessage): string;
  };
}

/**
 * What the server says of its Redis: in `connection_ack`'s payload, and in a graphql-ws `ping`
 * (payload `{ redis }`) to every admitted connection when it changes. A lost Redis ends no
 * subscription: when it is back every subscription gets a fresh snapshot (see docs/live-updates.md, "Redis restarts").
 */
export type RedisState = 'up' | 'down';
const redisState = (connected: boolean): { redis: RedisState } => ({ redis: connected ? 'up' : 'down' });

export interface WebSocketEndpoint {
  /**
   * Stops accepting sockets and asks every open one to close (1001 Going away); resolves once all
   * have closed, which a client that never answers the close can hold up: see `terminate`.
   */
  close(): Promise<void>;
  /** Cuts every socket still open at once (the shutdown's grace period is over). */
  terminate(): void;
}

/**
 * GraphQL over graphql-ws on the HTTP server's port and path: subscriptions, and queries and
 * mutations (one `next`, then `complete`) for clients that keep one socket open. graphql-ws would
 * parse, validate and execute by itself; here the execution core does, as for HTTP (the same
 * document cache, rules, variables, context, execution, error format, metrics and logs), and
 * this adds what only a socket has: admitting connections, rate limits per query or mutation,
 * and the subscriptions a connection holds.
 */
export function attachWebSocket(options: WebSocketOptions): WebSocketEndpoint {
  const { core } = options;
  /** Subscriptions send their results themselves, formatted and made into JSON once for all the subscribers sharing them. */
  const sendNext = createSharedFrames(core.formatResult);
  /** Each subscription by the arguments onSubscribe gave graphql-ws, which it passes to `subscribe`. */
  const setUps = new WeakMap<ExecutionArgs, Subscription>();
  /** Each operation by the arguments onSubscribe gave graphql-ws, which it passes to `execute` or `subscribe`. */
  const operations = new WeakMap<ExecutionArgs, PreparedOperation>();
  /** The live cost each client's subscriptions hold on this server, by client (see LiveBudget). */
  const costsByClient = new Map<string, number>();

  /** Connections onConnect admitted, still open: those told when Redis is lost or back. */
  const admitted = new Set<WebSocket>();
  // The server listens only once Redis answers: up until told otherwise.
  let redisConnected = true;
  const stopWatchingRedis = options.liveRedis?.onConnectionChange((connected) => {
    redisConnected = connected;
    const ping = JSON.stringify({ type: MessageType.Ping, payload: redisState(connected) });
    for (const socket of admitted) socket.send(ping);
  });

  const wsServer = new WebSocketServer({
    server: options.httpServer, path: options.path, maxPayload: BODY_LIMIT_BYTES,
    // One message at a time, with graphql-ws' work on it (short of Redis) done before the next: a
    // `subscribe` right after a `complete` for the same id then finds the id let go of, not taken
    // back by the old subscription's set-up (see Subscription.setUp).
    allowSynchronousEvents: false,
    // Uncompressed, ws writes each frame to the connection as it is sent, which the shared frames,
    // written to the connection directly, rely on to stay in order (sharedFrames.ts).
    perMessageDeflate: false,
    verifyClient: ({ req }: { req: http.IncomingMessage }, verified: UpgradeVerdict) => {
      if (!options.admitsUpgrade(req)) return verified(false, 401);
      const counted = options.countUpgrade(req);
      if (counted === undefined) return verified(true);
      counted.then(() => verified(true), (err: unknown) => refuseUpgrade(err, req, verified));
    },
  });
  /**
   * An upgrade over the rate limit gets what an HTTP request over it gets: 429, Retry-After, and
   * the error as JSON (ws writes the body and closes the connection). Anything else is logged: 500.
   */
  const refuseUpgrade = (err: unknown, req: http.IncomingMessage, verified: UpgradeVerdict): void => {
    if (!(err instanceof RateLimitedError)) {
      core.logInternalError(err, requestIdOf(req.headers[REQUEST_ID_HEADER]));
      return verified(false, 500);
    }
    const body = JSON.stringify({ errors: core.formatErrors([new GraphQLError(err.message, { originalError: err })]) });
    verified(false, 429, body, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': String(err.retryAfterSeconds) });
  };
  const server = serveOnSockets(
    makeServer<Record<string, unknown> | undefined, ConnectionExtra>({
      schema: core.schema,
      async onConnect(ctx) {
        // What the connection's internal errors are logged with, as an HTTP request's id is.
        const connectionId = (ctx.extra.connectionId = requestIdOf(ctx.extra.request.headers[REQUEST_ID_HEADER]));
        try {
          ctx.extra.auth = await options.authenticate(ctx.connectionParams, ctx.extra.request);
          const { liveCost } = options;
          ctx.extra.subscriptions = new ConnectionSubscriptions(
            ctx.extra.socket, ctx.extra.request.socket, sendNext, (err) => core.logInternalError(err, connectionId),
            liveCost && new LiveBudget(liveCost.limits, liveCost.clientOf(ctx.extra.auth, ctx.extra.request), costsByClient),
          );
          const { socket } = ctx.extra;
          // A socket that closed while it was being admitted would never leave the set.
          if (socket.readyState === socket.OPEN) {
            admitted.add(socket);
            socket.once('close', () => admitted.delete(socket));
          }
          return options.liveRedis ? redisState(redisConnected) : true;
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
          // serveOnSockets logs it and closes the socket with 4500.
          throw err;
        }
      },
      async onSubscribe(ctx, id, payload) {
        const prepared = core.prepare(payload.query, payload.operationName);
        if (!('operation' in prepared)) return prepared;
        // graphql-ws takes operations only on connections onConnect admitted.
        const principal = ctx.extra.auth!;
        const args: ExecutionArgs = {
          schema: core.schema,
          document: prepared.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: core.context(principal, ctx.extra.connectionId, options.chargeViews?.(principal, ctx.extra.request)),
        };
        if (prepared.operation.operation !== 'subscription') {
          // Queries and mutations hold no place: like HTTP requests, they are bounded by the rate
          // limits; their variables are judged as they execute, as over HTTP.
          try {
            await options.admitOperation(principal, ctx.extra.request);
          } catch (err) {
            if (!(err instanceof StandingsError)) throw err;
            return [new GraphQLError(err.message, { originalError: err })];
          }
          operations.set(args, prepared);
          return args;
        }
        const variables = core.coerceVariables(prepared.operation, payload.variables);
        if (variables.errors) return variables.errors;
        // Its cost as it will run: from its variables' values, as graphql-js will find its field.
        const subscription = ctx.extra.subscriptions!.add(id, subscriptionCost(core.schema, prepared, variables.coerced));
        if (subscription instanceof StandingsError) return [new GraphQLError(subscription.message, { originalError: subscription })];
        setUps.set(args, subscription);
        operations.set(args, prepared);
        return args;
      },
      subscribe: (args) => setUps.get(args)!.setUp(() => core.subscribe(args, operations.get(args))),
      execute: (args) => core.execute(operations.get(args)!, args.contextValue as object, args.variableValues),
      // A query's or mutation's one result: subscriptions send theirs without graphql-ws (see Subscription).
      onNext: (_ctx, _id, _payload, _args, result) => core.formatResult(result),
      onError: (_ctx, _id, _payload, errors) => core.formatErrors(errors),
    }),
    wsServer,
    (socket, err, connectionId) => {
      // The client went away while something was being sent to it: nothing to log or tell.
      if (isLostConnection(err)) return socket.terminate();
      core.logInternalError(err, connectionId);
      const reason = options.production ? 'Internal server error' : closeReason(err instanceof Error ? err.message : String(err));
      socket.close(CloseCode.InternalServerError, reason);
    },
  );

  return {
    async close() {
      stopWatchingRedis?.();
      await server.dispose();
    },
    terminate() {
      for (const socket of wsServer.clients) socket.terminate();
    },
  };
}

/** ws' answer to an upgrade it asked verifyClient about: go on, or refuse it with this status, body and headers. */
type UpgradeVerdict = (admit: boolean, status?: number, body?: string, headers?: http.OutgoingHttpHeaders) => void;

/** Errors of a write to a connection the client has closed or reset: its going away, not a fault of the server's. */
const LOST_CONNECTION: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);
export const isLostConnection = (err: unknown): boolean => LOST_CONNECTION.has(String((err as NodeJS.ErrnoException | undefined)?.code));

/** What a connection carries from graphql-ws' callbacks to ours: its socket and upgrade request, then what onConnect admitted. */
interface ConnectionExtra {
  socket: WebSocket;
  request: http.IncomingMessage;
  connectionId: string;
  auth?: Principal;
  subscriptions?: ConnectionSubscriptions;
}

/** How often connections are pinged, and how long a pong may take before its connection is cut: graphql-ws' own default. */
const KEEP_ALIVE_MS = 12_000;

/**
 * graphql-ws' server on `ws` sockets, as graphql-ws/use/ws's useServer puts it (protocols,
 * keep-alive pings, message handling one at a time, closing), except for two things. Internal
 * errors: a socket's error, or one thrown while a message was handled (onConnect's unexpected
 * errors among them), goes to `internalError`, which logs it through the server's JSON logger and
 * closes the socket with 4500, where useServer wrote it to the console. And the keep-alive pings
 * go out on one timer for all sockets (keepAlive.ts), not one per socket. `connectionId` is set
 * once onConnect has run.
 */
function serveOnSockets(
  server: Server<ConnectionExtra>,
  wsServer: WebSocketServer,
  internalError: (socket: WebSocket, err: unknown, connectionId?: string) => void,
): { dispose(): Promise<void> } {
  wsServer.options.handleProtocols = handleProtocols;
  wsServer.once('error', (err) => {
    for (const socket of wsServer.clients) internalError(socket, err);
  });
  const keepAlive = new KeepAlive(wsServer.clients, KEEP_ALIVE_MS);
  wsServer.on('connection', (socket, request) => {
    const extra = { socket, request } as ConnectionExtra;
    socket.once('error', (err) => internalError(socket, err, extra.connectionId));
    socket.on('pong', () => keepAlive.answered(socket));
    const closed = server.opened({
      protocol: socket.protocol,
      send: (data) => new Promise<void>((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        socket.send(data, (err) => (err ? reject(err) : resolve()));
      }),
      close: (code, reason) => socket.close(code, reason),
      // graphql-ws' handler is async: whatever it throws arrives as its promise's rejection.
      onMessage: (handle) => socket.on('message', (data) => {
        handle(String(data)).catch((err: unknown) => internalError(socket, err, extra.connectionId));
      }),
    }, extra);
    socket.once('close', (code, reason) => {
      void closed(code, String(reason));
    });
  });
  return {
    async dispose() {
      keepAlive.stop();
      for (const socket of wsServer.clients) socket.close(1001, 'Going away');
      wsServer.removeAllListeners();
      await new Promise<void>((resolve, reject) => wsServer.close((err) => (err ? reject(err) : resolve())));
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
 * its id, when graphql-ws lets go of it, when its stream ends, or when the socket closes. Its live
 * cost (see LiveBudget) is held for as long as its place.
 */
class ConnectionSubscriptions {
  /** Those the client can still complete, by id. */
  private readonly open = new Map<string, Subscription>();
  private places = 0;

  /**
   * `connection`: the upgrade request's socket, under `socket`; `send`: what sends a subscription's
   * results; `onStreamError`: a subscription's stream threw (graphql-ws then closes the socket with
   * 4500); `budget`: what its subscriptions' cost is counted against, if anything.
   */
  constructor(
    private readonly socket: WebSocket,
    private readonly connection: Writable,
    private readonly send: NextSender,
    private readonly onStreamError: (err: unknown) => void,
    private readonly budget: LiveBudget | undefined,
  ) {
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
   * A new subscription under `id` costing `cost`, or the refusal when every place is held or the
   * cost would pass a limit. graphql-ws only takes an id it holds nothing under; whatever of ours
   * still runs under it could not be told from the new one by the client any more, so it ends
   * (freeing its place and cost at once when its set-up is over).
   */
  add(id: string, cost: number): Subscription | StandingsError {
    this.open.get(id)?.end();
    if (this.places >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      return overLiveLimit(`A connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions at once`, {
        limit: 'subscriptions', maximum: MAX_SUBSCRIPTIONS_PER_CONNECTION,
      });
    }
    const refused = this.budget?.take(cost);
    if (refused) return refused;
    this.places++;
    setActiveSubscriptions(++held);
    const subscription = new Subscription(
      () => this.open.delete(id),
      () => {
        this.places--;
        this.budget?.give(cost);
        setActiveSubscriptions(--held);
      },
      this.send,
      this.onStreamError,
      this.socket,
      this.connection,
      nextPrefix(id),
    );
    this.open.set(id, subscription);
    return subscription;
  }
}

/** What the refusal of a subscription over a live cost limit says of costs, and how to need less. */
const COST_TERMS = 'a subscription costs the entries each of its updates may carry: 2 * radius + 1 for aroundChanged, first for topChanged, 1 for rankChanged and entrySubmitted';
const COST_REMEDY = 'ask for a smaller radius or first, or complete subscriptions no longer needed';

/**
 * The live cost one connection's subscriptions hold, counted against the connection's limit and,
 * with the other connections of its client to this server, against the client's (`byClient`, the
 * server's count by client). Counted in this process alone: each instance and each worker counts
 * its own connections (see docs/access-and-configuration.md, "Live cost").
 */
class LiveBudget {
  private held = 0;

  constructor(private readonly limits: LiveCostLimits, private readonly client: string, private readonly byClient: Map<string, number>) {}

  /** Holds `cost` more, or holds nothing and says which limit refuses it. */
  take(cost: number): StandingsError | undefined {
    const { perConnection, perClient } = this.limits;
    const connection = this.held + cost;
    if (perConnection > 0 && connection > perConnection) {
      return overLiveLimit(
        `This subscription costs ${cost} (${COST_TERMS}); with it this connection's subscriptions would cost ${connection}, ` +
          `over the ${perConnection} a connection may hold: ${COST_REMEDY}`,
        { limit: 'liveCost', maximum: perConnection, found: connection },
      );
    }
    const client = (this.byClient.get(this.client) ?? 0) + cost;
    if (perClient > 0 && client > perClient) {
      return overLiveLimit(
        `This subscription costs ${cost} (${COST_TERMS}); with it the subscriptions of this client (its API key, or its address ` +
          `for a reader key or none) on this server would cost ${client}, over the ${perClient} a client may hold: ${COST_REMEDY}, ` +
          'on any of its connections',
        { limit: 'liveCostPerClient', maximum: perClient, found: client },
      );
    }
    this.held = connection;
    this.byClient.set(this.client, client);
    return undefined;
  }

  /** Lets go of `cost`, which `take` held; a client holding nothing leaves the count. */
  give(cost: number): void {
    this.held -= cost;
    const client = (this.byClient.get(this.client) ?? 0) - cost;
    if (client === 0) this.byClient.delete(this.client);
    else this.byClient.set(this.client, client);
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
 * A subscription as graphql-ws iterates it: its results from the live layer once set up, ended
 * as soon as the subscription ends, however that happens and whether or not the set-up is over.
 * Its results it sends itself as they are pushed to it (LiveResults.pipe, sharedFrames.ts), in the
 * loop that hands an update to every subscriber: to graphql-ws it yields nothing, its one `next`
 * settling when the subscription ends, so graphql-ws still sends `complete` or `error` as it would.
 * It is its results' sink and its frames' target itself, so that loop touches one object of it.
 */
class Subscription implements AsyncIterableIterator<ExecutionResult>, ResultSink, FrameTarget {
  private results: LiveResults | undefined;
  private ended = false;
  private settled = false;
  /** While the set-up runs: lets graphql-ws go on when the subscription ends meanwhile. */
  private endSetUp: (() => void) | undefined;
  /** graphql-ws' wait in `next`, from the first call until the subscription ends. */
  private iteration: Promise<IteratorResult<ExecutionResult>> | undefined;
  private finishIteration: ((result: IteratorResult<ExecutionResult>) => void) | undefined;
  private failIteration: ((err: unknown) => void) | undefined;
  private readonly resume = () => this.results?.resume();

  /**
   * `onEnded`: it can no longer be completed; `release`: its place is free; `send`: sends a result
   * (to `socket` over `connection`, each message starting with `prefix`); `onStreamError`: its stream threw.
   */
  constructor(
    private readonly onEnded: () => void,
    private readonly release: () => void,
    private readonly send: NextSender,
    private readonly onStreamError: (err: unknown) => void,
    readonly socket: WebSocket,
    readonly connection: Writable,
    readonly prefix: Buffer,
  ) {}

  /**
   * `subscribe`'s result as graphql-ws awaits it. It comes as soon as the subscription ends, not
   * when Redis answers, so that graphql-ws lets go of the id before it reads another message;
   * results set up after the end are returned at once, and the place is held until then.
   */
  setUp(subscribe: () => Promise<ExecutionResult | LiveResults>): Promise<ExecutionResult | this> {
    if (this.ended) return Promise.resolve(this);
    return new Promise((resolve, reject) => {
      this.endSetUp = () => resolve(this);
      subscribe()
        .then((result) => {
          // Errors while subscribing, which graphql-ws sends: there is nothing to stream.
          if (!(result instanceof LiveResults)) return resolve(result);
          this.results = result;
          resolve(this);
        })
        .catch(reject)
        .finally(() => {
          this.endSetUp = undefined;
          if (!this.results) this.end();
          this.settle();
        });
    });
  }

  /** Starts sending once graphql-ws iterates (what setUp resolved with: set up, unless it has ended); settles at the end. */
  next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.iteration) return this.iteration;
    if (this.ended) return Promise.resolve(DONE);
    this.iteration = new Promise((resolve, reject) => {
      this.finishIteration = resolve;
      this.failIteration = reject;
    });
    this.results!.pipe(this);
    return this.iteration;
  }

  /** A result from the live layer. Ended while it was on its way (a `complete`): nothing more goes out. */
  take(result: ExecutionResult): boolean {
    return this.ended || this.send(this, result, this.resume);
  }

  /** Its stream threw. */
  error(err: unknown): void {
    const fail = this.failIteration!;
    this.finishIteration = undefined;
    this.end();
    this.onStreamError(err);
    fail(err);
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
    this.finishIteration?.(DONE);
    this.settle();
  }

  /** Once ended and set up: lets go of the results (the live layer's subscriber leaves) and frees the place. */
  private settle(): void {
    if (!this.ended || this.endSetUp !== undefined || this.settled) return;
    this.settled = true;
    this.results?.return();
    this.release();
  }
}
