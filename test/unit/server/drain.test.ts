import * as http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { drainServer } from '../../../src/server/drain';
import type { WebSocketEndpoint } from '../../../src/server/websocket';

/** WebSockets whose close the test decides: `closed()` ends it, as does being terminated. */
function fakeSockets() {
  let finish!: () => void;
  const closing = new Promise<void>((resolve) => (finish = resolve));
  const sockets = {
    terminated: false,
    closeCalled: false,
    close: () => {
      sockets.closeCalled = true;
      return closing;
    },
    terminate: () => {
      sockets.terminated = true;
      finish();
    },
    closed: () => finish(),
  };
  return sockets satisfies WebSocketEndpoint;
}

/** A server whose /hold requests wait until the test releases them; other paths answer at once. */
async function serverHoldingRequests() {
  const held: http.ServerResponse[] = [];
  const arrived: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    if (req.url !== '/hold') return void res.end('at once');
    held.push(res);
    arrived.shift()?.();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  // One connection per request: none of them reuses another's.
  const agents: http.Agent[] = [];
  const get = (path: string) => new Promise<{ body: string; socket: Socket }>((resolve, reject) => {
    const agent = new http.Agent({ keepAlive: true });
    agents.push(agent);
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ body, socket: req.socket! }));
    });
    req.on('error', reject);
  });
  const nextHeld = () => new Promise<void>((resolve) => arrived.push(resolve));
  return { server, agents, held, get, nextHeld };
}

describe('drainServer', () => {
  it('closes idle connections at once, lets requests in flight finish, and resolves when all are gone', async () => {
    const { server, agents, held, get, nextHeld } = await serverHoldingRequests();
    const sockets = fakeSockets();
    try {
      const { socket: idle } = await get('/');
      const idleClosed = once(idle, 'close');
      const arrival = nextHeld();
      const inFlight = get('/hold');
      await arrival;

      let drained = false;
      const draining = drainServer(server, sockets, 60_000).then(() => (drained = true));
      await idleClosed;
      expect(sockets.closeCalled).toBe(true);
      sockets.closed();
      // The request in flight holds the drain up.
      await new Promise((resolve) => setImmediate(resolve));
      expect(drained).toBe(false);

      // As the server's responses answer once its Admission stops (requestHandler.ts).
      held[0].shouldKeepAlive = false;
      held[0].end('finished');
      expect((await inFlight).body).toBe('finished');
      await draining;
      expect(sockets.terminated).toBe(false);
    } finally {
      for (const agent of agents) agent.destroy();
      server.closeAllConnections();
    }
  });

  it('cuts what is still open, requests and WebSockets, once the grace period is over', async () => {
    const { server, agents, get, nextHeld } = await serverHoldingRequests();
    const sockets = fakeSockets();
    try {
      const arrival = nextHeld();
      const neverAnswered = get('/hold');
      await arrival;

      await drainServer(server, sockets, 0);
      expect(sockets.terminated).toBe(true);
      await expect(neverAnswered).rejects.toThrow(/socket hang up|ECONNRESET/);
    } finally {
      for (const agent of agents) agent.destroy();
      server.closeAllConnections();
    }
  });
});
