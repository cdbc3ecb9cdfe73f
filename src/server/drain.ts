import type * as http from 'node:http';
import type { WebSocketEndpoint } from './websocket';

/**
 * Stops an HTTP server as a rolling restart needs: no new connections, idle kept-alive ones closed
 * at once (Node's server.close), requests in flight left to finish and sockets asked to close.
 * Every response sent from now on must close its connection (the server's responses do once its
 * Admission stops, see requestHandler.ts), or a kept-alive one holds the drain up to the end.
 * Whatever is still open after `graceMs` is cut. Resolves when the last connection is gone.
 *
 * Node's own connection tracking rather than Apollo's drain plugin, which counts the requests of
 * every connection with a listener of its own on each request and each response.
 */
export async function drainServer(httpServer: http.Server, sockets: WebSocketEndpoint, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
  const cut = setTimeout(() => {
    httpServer.closeAllConnections();
    sockets.terminate();
  }, graceMs);
  try {
    await Promise.all([closed, sockets.close()]);
  } finally {
    clearTimeout(cut);
  }
}
