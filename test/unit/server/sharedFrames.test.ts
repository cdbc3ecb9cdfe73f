// Shared results over a real WebSocket pair on loopback: each subscriber's `next` arrives whole,
// as the bytes graphql-ws would send, while a result shared by several is formatted and turned
// into JSON once.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { ExecutionResult } from 'graphql';
import { WebSocket, WebSocketServer } from 'ws';
import { createSharedFrames } from '../../../src/server/sharedFrames';

let server: WebSocketServer;
const serverSockets: WebSocket[] = [];

beforeEach(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
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

it('sends every subscriber the message graphql-ws would, with a shared result formatted and made into JSON once', async () => {
  let formats = 0;
  const senderOf = createSharedFrames((result) => {
    formats++;
    return { ...result, extensions: { formatted: true } };
  });
  const result: ExecutionResult = { data: { topChanged: { version: '7', entries: [{ playerId: 'a"\u0000é', rank: 1 }] } } };
  const pairs = [await connect(), await connect(), await connect()];
  const ids = ['1', 'two', 'a "quoted" \u0000 id'];
  for (const [i, pair] of pairs.entries()) {
    const received = once(pair.client, 'message');
    expect(senderOf(pair.socket, ids[i])(result, () => undefined)).toBe(true);
    const [data, isBinary] = await received;
    expect(isBinary).toBe(false);
    expect(String(data)).toBe(JSON.stringify({ id: ids[i], type: 'next', payload: { ...result, extensions: { formatted: true } } }));
  }
  expect(formats).toBe(1);
  pairs.forEach(({ client }) => client.close());
});

it('gives each result its own payload, in the order they are sent', async () => {
  const pair = await connect();
  const send = createSharedFrames((result) => result)(pair.socket, 'a');
  const received: unknown[] = [];
  const both = new Promise<void>((resolve) => pair.client.on('message', (data) => received.push(JSON.parse(String(data))) === 2 && resolve()));
  send({ data: { n: 2 } }, () => undefined);
  send({ data: { n: 1 } }, () => undefined);
  await both;
  expect(received).toEqual([{ id: 'a', type: 'next', payload: { data: { n: 2 } } }, { id: 'a', type: 'next', payload: { data: { n: 1 } } }]);
  pair.client.close();
});

it('sends nothing on a socket that is closing', async () => {
  const pair = await connect();
  const send = createSharedFrames((result) => result)(pair.socket, 'a');
  const received: unknown[] = [];
  pair.client.on('message', (data) => received.push(data));
  pair.socket.close();
  expect(send({ data: { n: 1 } }, () => undefined)).toBe(true);
  const [code] = await once(pair.client, 'close');
  expect(code).toBe(1005);
  expect(received).toEqual([]);
});

it('tells a sender whose socket has a backlog to wait, and when the frame is written', async () => {
  const pair = await connect();
  const send = createSharedFrames((result) => result)(pair.socket, 'a');
  // A client that reads nothing, and more than the kernel's buffers hold on their way to it.
  (pair.client as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  expect(send({ data: { big: 'x'.repeat(16 * 2 ** 20) } }, () => undefined)).toBe(true);
  let drained = false;
  const written = new Promise<void>((resolve) => {
    expect(send({ data: { n: 1 } }, () => ((drained = true), resolve()))).toBe(false);
  });
  expect(drained).toBe(false);
  const last = new Promise<unknown>((resolve) => pair.client.on('message', (data) => JSON.parse(String(data)).payload.data.n && resolve(JSON.parse(String(data)))));
  (pair.client as unknown as { _socket: { resume(): void } })._socket.resume();
  await written;
  expect(await last).toEqual({ id: 'a', type: 'next', payload: { data: { n: 1 } } });
  pair.client.close();
});
