import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type ApolloServer, HeaderMap } from '@apollo/server';
import type { ExecutionResult } from 'graphql';
import { ErrorCode, WriteOutcome } from '../errors';
import { presetOutcome } from '../graphql/execution/apollo';
import type { ExecutionCore } from '../graphql/execution/core';
import type { Cors } from './cors';
import type { Context } from '../graphql/context';
import type { FastLane, FastLaneRequest } from './fastLane';
import { type Logger, REQUEST_ID_HEADER, requestIdOf } from './logger';
import { countError, countLane, metricsText, registry } from './metrics';
import { BodyError, readJsonBody } from './requestBody';
import type { WebRoutes } from './webAssets';

export interface Routes {
  /** Where GraphQL is served (also with a trailing slash). */
  graphqlPath: string;
  /** Which browser pages elsewhere may call the API. */
  cors: Cors;
  apollo: ApolloServer<Context>;
  /** What Apollo executes with; known operations run on it directly. */
  core: ExecutionCore;
  /** Which requests the fast lane takes; undefined: Apollo serves every request. */
  fastLane?: FastLane;
  /**
   * The context of one GraphQL request, or a promise of it when admission waits for Redis (rate
   * limits); throws or rejects to refuse it (see refusedRequest).
   */
  context(req: IncomingMessage, requestId: string): Context | Promise<Context>;
  /** Resolves when the service can serve (Redis answers); /readyz reports it. */
  ready(): Promise<unknown>;
  logger: Logger;
  /** The spectator page and the built browser assets, outside the GraphQL path. */
  web?: WebRoutes;
  /** Whether the server still accepts requests; once it does not, they are refused with 503 (nothing done). */
  admission: Admission;
}

/**
 * Whether the HTTP server still accepts requests, which its responses and the request handler
 * share. Once stopped, every response closes its connection, those already running included, so
 * that a client on a kept-alive connection never sends a request that a closing server would run
 * without answering. Node reads a response's `shouldKeepAlive` when its head is written, in
 * writeHead (which write() and end() call when no head was written), so the server's responses
 * check then and no response is recorded anywhere. Not a set of the responses still open: a
 * long-lived set with one added and one deleted per request makes V8 keep each request's objects
 * through two young collections (bench/notes/allocations.md, "Each request's objects kept by a set's old tables").
 */
export class Admission {
  private open = true;
  /** The class of the server's responses (http.createServer's `ServerResponse` option). */
  readonly ServerResponse = closingResponses(this);

  get accepting(): boolean {
    return this.open;
  }

  stop(): void {
    this.open = false;
  }
}

function closingResponses(admission: Admission) {
  return class ClosingResponse extends ServerResponse {
    // A fixed list of parameters rather than a rest one, which would cost an array per response.
    override writeHead(statusCode: number, reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
      if (!admission.accepting) this.shouldKeepAlive = false;
      return super.writeHead(statusCode, reason as string, headers);
    }
  };
}

/**
 * The HTTP server's request listener: GraphQL through Apollo, the health probes and /metrics.
 * Plain node:http rather than a web framework, because each request pays for every layer it
 * crosses and these few routes need none of a framework's (bench:profile measured Express and
 * its middleware at about 15% of a read request's CPU).
 */
export function createRequestHandler(routes: Routes): (req: IncomingMessage, res: ServerResponse) => void {
  const { graphqlPath, logger, admission } = routes;
  return (req, res) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    if (!admission.accepting) {
      return sendError(res, 503, ErrorCode.UNAVAILABLE, 'The server is shutting down and did not run this request: send it again', {
        outcome: WriteOutcome.NOT_APPLIED,
      });
    }
    if (routes.cors.handle(req, res)) return;
    // One listener for both: Node emits 'close' after 'finish', and also for a response cut short (not logged).
    // 'close' comes once: `on` spares the wrapper `once` makes.
    res.on('close', () => {
      if (!res.writableFinished) return;
      const failed = res.statusCode >= 500;
      if (!failed && logger.isLevelEnabled?.('debug') === false) return;
      const fields = { requestId, method: req.method, path, status: res.statusCode, durationMs: Number(process.hrtime.bigint() - started) / 1e6 };
      if (failed) logger.warn(fields, 'request failed');
      else logger.debug(fields, 'request');
    });
    const handled =
      path === graphqlPath || path === `${graphqlPath}/`
        ? serveGraphQL(routes, req, res, requestId, query < 0 ? '' : url.slice(query))
        : (routes.web?.serve(req, res, path) ?? serveProbe(routes, req, res, path));
    handled.catch((err: unknown) => {
      logger.error({ requestId }, `Unexpected error in the HTTP layer: ${(err as Error).stack ?? String(err)}`);
      if (res.headersSent) res.destroy();
      else sendError(res, 500, ErrorCode.INTERNAL, 'Internal server error');
    });
  };
}

async function serveGraphQL(routes: Routes, req: IncomingMessage, res: ServerResponse, requestId: string, search: string): Promise<void> {
  let body: unknown;
  try {
    if (req.method === 'POST') body = await readJsonBody(req);
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    return sendError(res, err.status, ErrorCode.BAD_REQUEST, `Invalid request body: ${err.message}`);
  }
  const known = body === undefined ? undefined : routes.fastLane?.match(body, req.headers.accept);
  countLane(known !== undefined);
  if (known) return serveKnown(routes, req, res, requestId, search, body, known);
  return serveThroughApollo(routes, req, res, requestId, search, body, async () => routes.context(req, requestId));
}

/**
 * Executes a known operation (see fastLane.ts) on the execution core and writes its result
 * as Apollo would. What Apollo would answer otherwise (a refused request, errors) it answers,
 * with the context or the execution's outcome this request already has.
 */
async function serveKnown(
  routes: Routes, req: IncomingMessage, res: ServerResponse, requestId: string, search: string, body: unknown, known: FastLaneRequest,
): Promise<void> {
  let context: Context;
  try {
    const admitted = routes.context(req, requestId);
    // Most requests wait for nothing here: no await, which would cost a turn of the promise jobs.
    context = admitted instanceof Promise ? await admitted : admitted;
  } catch (err) {
    return serveThroughApollo(routes, req, res, requestId, search, body, () => Promise.reject(err));
  }
  const outcome = routes.core.execute(known.operation, context, known.variables);
  let result: ExecutionResult | undefined;
  try {
    result = await outcome;
  } catch {
    // Apollo answers an execution that threw as it answers one it ran itself.
  }
  if (!result || result.errors) {
    presetOutcome(context, outcome);
    return serveThroughApollo(routes, req, res, requestId, search, body, async () => context);
  }
  res.statusCode = 200;
  res.setHeader('content-type', known.contentType);
  res.end(routes.core.stringify(result, known.operation));
}

async function serveThroughApollo(
  routes: Routes, req: IncomingMessage, res: ServerResponse, requestId: string, search: string, body: unknown,
  context: () => Promise<Context>,
): Promise<void> {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The id chosen for this request, for Apollo plugins to log with.
  headers.set(REQUEST_ID_HEADER, requestId);
  const method = (req.method ?? 'GET').toUpperCase();
  const response = await routes.apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method, headers, search, body }, context });
  for (const [name, value] of response.headers) {
    // Vary may already name Origin (see cors.ts): both hold.
    const before = name === 'vary' ? res.getHeader('vary') : undefined;
    res.setHeader(name, before === undefined ? value : `${before}, ${value}`);
  }
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    const contentType = response.headers.get('content-type');
    if (method === 'POST' && res.statusCode === 200 && contentType) routes.fastLane?.answered(req.headers.accept, contentType);
    return void res.end(response.body.string);
  }
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}

async function serveProbe(routes: Routes, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const probe = PROBES[path];
  if (!probe) return sendError(res, 404, ErrorCode.NOT_FOUND, `Nothing at ${path}; GraphQL is at ${routes.graphqlPath}`);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendError(res, 405, ErrorCode.BAD_REQUEST, `${path} answers GET`);
  }
  await probe(routes, res);
}

const PROBES: Record<string, (routes: Routes, res: ServerResponse) => Promise<void>> = {
  '/healthz': async (_routes, res) => sendJson(res, 200, { status: 'ok' }),
  '/readyz': async (routes, res) => {
    try {
      await routes.ready();
      sendJson(res, 200, { status: 'ready' });
    } catch (err) {
      sendJson(res, 503, { status: 'unavailable', reason: (err as Error).message });
    }
  },
  '/metrics': async (_routes, res) => {
    const text = await metricsText();
    res.setHeader('content-type', registry.contentType);
    res.end(text);
  },
};

/** An error outside GraphQL execution (body, route), shaped like a GraphQL response so clients read it alike. */
function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): void {
  countError(code);
  sendJson(res, status, { errors: [{ message, extensions: { code, ...extensions } }] });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(value));
}
