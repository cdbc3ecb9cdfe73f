// What one client may hold of the HTTP server: open connections per address (MAX_CONNECTIONS_PER_IP),
// and the time it may take to send a request (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS).
import { once } from 'node:events';
import * as net from 'node:net';
import WebSocket from 'ws';
import { TEST_KEYS, TestServer } from '../support/harness';

/** A raw TCP connection to the server and everything it answered, until it closes. */
interface RawConnection {
  socket: net.Socket;
  /** What the server sent, once it closed the connection (or the client did). */
  closed: Promise<string>;
}

async function connect(server: TestServer): Promise<RawConnection> {
  const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
  let received = '';
  socket.on('data', (data) => (received += data.toString()));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await once(socket, 'connect');
  return { socket, closed };
}

/**
 * What the server sent before it closed the connection; fails when it is still open after
 * `boundMs`, far beyond the timeouts under test, so that a server that never closes it fails the
 * test with this message rather than by Jest's timeout.
 */
async function closedWithin(connection: RawConnection, boundMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const stillOpen = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${boundMs} ms`)), boundMs);
  });
  try {
    return await Promise.race([connection.closed, stillOpen]);
  } finally {
    clearTimeout(timer);
    connection.socket.destroy();
  }
}

/** Writes `text` one byte at a time, a byte every `everyMs`, until the connection closes. */
function trickle(connection: RawConnection, text: string, everyMs: number): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < text.length && connection.socket.writable) connection.socket.write(text[sent++]);
  }, everyMs);
  void connection.closed.finally(() => clearInterval(timer));
}

describe('open connections per address (MAX_CONNECTIONS_PER_IP)', () => {
  const MAXIMUM = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start(undefined, { maxConnectionsPerIp: MAXIMUM });
  });
  afterAll(() => server.stop());

  it('answers a connection over the cap 429 and closes it, and frees a place when one closes', async () => {
    // The server's side of each connection, in the order it accepted them (after the cap counted them).
    const accepted: net.Socket[] = [];
    server.server.httpServer.on('connection', (socket: net.Socket) => accepted.push(socket));
    const held = [];
    for (let i = 0; i < MAXIMUM; i++) held.push(await connect(server));
    try {
      const refused = await closedWithin(await connect(server), 10_000);
      const [head, body] = refused.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
      expect(JSON.parse(body)).toEqual({
        errors: [{
          message: expect.stringMatching(/^Too many open connections from this address/),
          extensions: { code: 'RATE_LIMITED', details: { limit: 'connections', maximum: MAXIMUM } },
        }],
      });

      // One closes (the server has let go of it once its side closed): the next is served.
      const serverSide = once(accepted[0], 'close');
      held.shift()!.socket.destroy();
      await serverSide;
      const next = await connect(server);
      held.push(next);
      next.socket.write('GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n');
      expect(await closedWithin(next, 10_000)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });
});

describe('HTTP timeouts (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS)', () => {
  // Short, so that the test is quick; what is asserted is the outcome, within a bound far above them.
  const TIMEOUTS = { headersMs: 300, requestMs: 600 };
  const BOUND_MS = 10_000;
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start(undefined, { httpTimeouts: TIMEOUTS });
  });
  afterAll(() => server.stop());

  it('answers 408 and closes a connection that trickles its headers, and leaves WebSockets open', async () => {
    // Opened before the slow client: had the timeouts applied to upgraded sockets, it would be cut first.
    const live = new WebSocket(server.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
    const message = async () => JSON.parse(String((await once(live, 'message'))[0])) as { type: string; payload?: unknown };
    try {
      await once(live, 'open');
      live.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${TEST_KEYS.reader}` } }));
      expect((await message()).type).toBe('connection_ack');
      const slow = await connect(server);
      trickle(slow, 'GET /healthz HTTP/1.1\r\nhost: test\r\nx-padding: ' + 'x'.repeat(1_000) + '\r\n\r\n', 20);
      expect(await closedWithin(slow, BOUND_MS)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      live.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ player(id: "nobody") { id } }' } }));
      expect(await message()).toEqual({ id: '1', type: 'next', payload: { data: { player: null } } });
    } finally {
      live.close();
    }
  });

  it('answers 408 and closes a connection that sends its body slowly', async () => {
    const body = JSON.stringify({ query: '{ player(id: "nobody") { id } }', padding: 'x'.repeat(1_000) });
    const slow = await connect(server);
    slow.socket.write(
      `POST /graphql HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\nauthorization: Bearer ${TEST_KEYS.reader}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    trickle(slow, body, 20);
    expect(await closedWithin(slow, BOUND_MS)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // The client's slowness, not the server's fault: nothing logged as an error.
    expect(server.logger.lines.filter(({ level }) => level === 'error' || level === 'warn')).toEqual([]);
  });
});
