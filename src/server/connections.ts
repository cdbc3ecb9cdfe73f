import type * as http from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '../errors';
import { countError } from './metrics';

/** How long a client may take to send a request (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS). */
export interface HttpTimeouts {
  /** From the connection's opening, or the first byte of a request on a kept-alive one, to the end of its headers. */
  headersMs: number;
  /** The same to the end of its body. Not the time the answer takes, nor a WebSocket's life (an upgraded socket is Node's no more). */
  requestMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/**
 * How often Node looks for requests past their timeouts: its own default (30 s) would let a client
 * that trickles its headers hold a connection for up to 30 s past them.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/**
 * An idle kept-alive connection is closed after this (Node adds 1 s of its own). Node's default,
 * written here so that a Node upgrade does not change what docs/access-and-configuration.md ("Slow clients") promises.
 */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** The timeouts of http.createServer: a client that sends its request slowly is answered 408 and its connection closed. */
export function timeoutOptions({ headersMs, requestMs }: HttpTimeouts): http.ServerOptions {
  return {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  };
}

/**
 * Caps the connections one peer address holds open on `httpServer` at `maximum`, HTTP and
 * WebSocket alike (a WebSocket keeps the connection it was upgraded from). One over the cap is
 * answered 429 and closed without reaching Node's HTTP server, so nothing it sends becomes a
 * request. Counted by the connection's own peer, never X-Forwarded-For (nothing is read yet), and
 * in this process only: each worker of STANDINGS_WORKERS keeps its own count. Call it before
 * anything else listens to the server's 'connection'.
 */
export function capConnectionsPerAddress(httpServer: http.Server, maximum: number): void {
  const open = new Map<string, number>();
  const refusal = refusalResponse(maximum);
  // Node's own listener, which makes a connection HTTP (its parser, its timeouts): only those under the cap get it.
  const serveHttp = httpServer.listeners('connection') as ((socket: Socket) => void)[];
  httpServer.removeAllListeners('connection');
  httpServer.on('connection', (socket: Socket) => {
    // Gone already: nothing to count or answer.
    const address = socket.remoteAddress;
    if (address === undefined) return void socket.destroy();
    const held = open.get(address) ?? 0;
    if (held >= maximum) {
      countError(ErrorCode.RATE_LIMITED);
      // Nothing else listens to this socket: a reset by the client must not go unhandled.
      socket.on('error', () => socket.destroy());
      socket.end(refusal, () => socket.destroy());
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    for (const listener of serveHttp) listener.call(httpServer, socket);
  });
}

/** The whole answer to a connection over the cap, shaped like the service's other refusals. */
function refusalResponse(maximum: number): string {
  const body = JSON.stringify({
    errors: [{
      message: `Too many open connections from this address: at most ${maximum}; close one before opening another`,
      extensions: { code: ErrorCode.RATE_LIMITED, details: { limit: 'connections', maximum } },
    }],
  });
  return [
    'HTTP/1.1 429 Too Many Requests',
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}
