import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a cross-origin page may send: the key, JSON, and the headers that mark a request as not simple. */
const ALLOWED_HEADERS = 'authorization, content-type, apollo-require-preflight, x-apollo-operation-name, x-request-id';
/** What it may read besides the simple response headers. */
const EXPOSED_HEADERS = 'x-request-id, retry-after, www-authenticate';
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin access for browsers, by exact origin (CORS_ORIGINS): a web game or spectator page
 * hosted elsewhere may call the API with a key. A page of the server's own origin needs none of it
 * over HTTP; over WebSocket, where browsers send an Origin and no preflight, that origin and the
 * listed ones are admitted and any other refused, so a page elsewhere cannot ride on a visitor's
 * connection. Clients that are not browsers send no Origin and are not concerned.
 */
export class Cors {
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.origins = new Set(origins);
  }

  /**
   * Adds the headers that let an allowed origin read the answer; answers a preflight (OPTIONS with
   * Access-Control-Request-Method) itself and returns true, with no CORS headers for an origin
   * that is not allowed, so that the browser refuses the request.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    const allowed = origin !== undefined && this.origins.has(origin);
    if (allowed) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    }
    if (origin !== undefined) res.setHeader('vary', 'Origin');
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
    if (allowed) {
      res.setHeader('access-control-allow-methods', 'GET, POST');
      res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
      res.setHeader('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    res.statusCode = 204;
    res.end();
    return true;
  }

  /** Whether a WebSocket upgrade may go on: no Origin (not a browser), the server's own, or a listed one. */
  admitsSocket(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || this.origins.has(origin)) return true;
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }
}
