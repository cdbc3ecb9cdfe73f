// Shared payloads over a real WebSocket pair on loopback: each subscriber's message arrives whole
// and exact, while a payload shared by several is turned into JSON once.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { createFrameSharing } from '../../../src/server/sharedFrames';

let server: WebSocketServer;
let frames: ReturnType<typeof createFrameSharing>;
const serverSockets: WebSocket[] = [];

beforeEach(async () => {
  frames = createFrameSharing();
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', WebSocket: frames.WebSocket });
  server.on('connection', (socket) => serverSockets.push(socket));
  await once(server, 'listening');
});
afterEach(async () => {
  serverSockets.splice(0).forEach((socket) => socket.terminate());
  await new Promise((resolve) => server.close(resolve));
});

/** A connected client, and the server's end of it. */
async function connect(): Promise<{ client: WebSocket; socket: WebSocket }> {
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const count = serverSockets.length;
  await once(client, 'open');
  while (serverSockets.length === count) await new Promise((resolve) => setImmediate(resolve));
  return { client, socket: serverSockets[serverSockets.length - 1] };
}

async function sendAndReceive(pair: { client: WebSocket; socket: WebSocket }, message: object): Promise<unknown> {
  const received = once(pair.client, 'message');
  pair.socket.send(JSON.stringify(message, frames.replacer));
  const [data] = await received;
  return JSON.parse(String(data));
}

it('sends every subscriber its own message with the shared payload in it, made into JSON once', async () => {
  let reads = 0;
  const payload = frames.share({ data: { get topChanged() { reads++; return { version: '7', entries: [{ playerId: 'a"\u0000', rank: 1 }] }; } } });
  const expected = { data: { topChanged: { version: '7', entries: [{ playerId: 'a"\u0000', rank: 1 }] } } };
  const pairs = [await connect(), await connect(), await connect()];
  // The last id looks like a marker: it must come back as it was sent.
  const ids = ['1', 'two', '\u0000shared-payload:0'];
  for (const [i, pair] of pairs.entries()) {
    expect(await sendAndReceive(pair, { id: ids[i], type: 'next', payload })).toEqual({ id: ids[i], type: 'next', payload: expected });
  }
  expect(reads).toBe(1);
  pairs.forEach(({ client }) => client.close());
});

it('gives each message its own payload, whatever order messages are stringified and sent in', async () => {
  const pair = await connect();
  const first = JSON.stringify({ id: 'a', type: 'next', payload: frames.share({ data: { n: 1 } }) }, frames.replacer);
  const second = JSON.stringify({ id: 'b', type: 'next', payload: frames.share({ data: { n: 2 } }) }, frames.replacer);
  const received: unknown[] = [];
  const both = new Promise<void>((resolve) => pair.client.on('message', (data) => received.push(JSON.parse(String(data))) === 2 && resolve()));
  pair.socket.send(second);
  pair.socket.send(first);
  await both;
  expect(received).toEqual([{ id: 'b', type: 'next', payload: { data: { n: 2 } } }, { id: 'a', type: 'next', payload: { data: { n: 1 } } }]);
  pair.client.close();
});

it('leaves a marker-like id of a message without a payload as it is', async () => {
  const pair = await connect();
  await sendAndReceive(pair, { id: 'x', type: 'next', payload: frames.share({ data: { shared: true } }) });
  expect(await sendAndReceive(pair, { id: '\u0000shared-payload:0', type: 'complete' })).toEqual({ id: '\u0000shared-payload:0', type: 'complete' });
  pair.client.close();
});

it('leaves other messages as they are', async () => {
  const pair = await connect();
  expect(await sendAndReceive(pair, { id: 'x', type: 'error', payload: [{ message: 'no' }] })).toEqual({ id: 'x', type: 'error', payload: [{ message: 'no' }] });
  expect(await sendAndReceive(pair, { type: 'pong', payload: { payload: 1 } })).toEqual({ type: 'pong', payload: { payload: 1 } });
  pair.client.close();
});

it('leaves a payload nobody shares (a query\'s one answer) to JSON.stringify', () => {
  const message = { id: 'q', type: 'next', payload: { data: { n: 1 } } };
  expect(JSON.stringify(message, frames.replacer)).toBe(JSON.stringify(message));
});
