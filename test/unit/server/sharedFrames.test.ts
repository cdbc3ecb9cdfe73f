// Shared results over a real WebSocket pair on loopback: each subscriber's `next` arrives whole,
// as the bytes graphql-ws would send, while a result shared by several is formatted and turned
// into JSON once.
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import type { ExecutionResult } from 'graphql';
import { WebSocket, WebSocketServer } from 'ws';
import { createSharedFrames, type NextSender, nextPrefix } from '../../../src/server/sharedFrames';

let server: WebSocketServer;
const serverSockets: WebSocket[] = [];
/** Each server socket's connection: its upgrade request's socket, which the frames are written to. */
const connections = new Map<WebSocket, Socket>();

beforeEach(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  server.on('connection', (socket, request) => {
    connections.set(socket, request.socket as Socket);
    serverSockets.push(socket);
  });
  await once(server, 'listening');
});
afterEach(async () => {
  serverSockets.splice(0).forEach((socket) => socket.terminate());
  await new Promise((resolve) => server.close(resolve));
});

/** A connected client, and the server's end of it. */
async function connect(): Promise<{ client: WebSocket; socket: WebSocket; connection: Socket }> {
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const count = serverSockets.length;
  await once(client, 'open');
  while (serverSockets.length === count) await new Promise((resolve) => setImmediate(resolve));
  const socket = serverSockets[serverSockets.length - 1];
  return { client, socket, connection: connections.get(socket)! };
}

/** What sends subscription `id`'s results to the pair's client. */
function senderFor(sendNext: NextSender, { socket, connection }: { socket: WebSocket; connection: Socket }, id: string) {
  const to = { socket, connection, prefix: nextPrefix(id) };
  return (result: ExecutionResult, drained: () => void) => sendNext(to, result, drained);
}

it('sends every subscriber the message graphql-ws would, with a shared result formatted and made into JSON once', async () => {
  let formats = 0;
  const sendNext = createSharedFrames((result) => {
    formats++;
    return { ...result, extensions: { formatted: true } };
  });
  const result: ExecutionResult = { data: { topChanged: { version: '7', entries: [{ playerId: 'a"\u0000é', rank: 1 }] } } };
  const pairs = [await connect(), await connect(), await connect()];
  const ids = ['1', 'two', 'a "quoted" \u0000 id'];
  for (const [i, pair] of pairs.entries()) {
    const received = once(pair.client, 'message');
    expect(senderFor(sendNext, pair, ids[i])(result, () => undefined)).toBe(true);
    const [data, isBinary] = await received;
    expect(isBinary).toBe(false);
    expect(String(data)).toBe(JSON.stringify({ id: ids[i], type: 'next', payload: { ...result, extensions: { formatted: true } } }));
  }
  expect(formats).toBe(1);
  pairs.forEach(({ client }) => client.close());
});

it('gives each result its own payload, in the order they are sent', async () => {
  const pair = await connect();
  const send = senderFor(createSharedFrames((result) => result), pair, 'a');
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
  const send = senderFor(createSharedFrames((result) => result), pair, 'a');
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
  const send = senderFor(createSharedFrames((result) => result), pair, 'a');
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

it('frames messages of every length, each header size included, in order with what ws sends itself', async () => {
  const pair = await connect();
  const send = senderFor(createSharedFrames((result) => result), pair, 'a');
  const overhead = JSON.stringify({ id: 'a', type: 'next', payload: { data: { s: '' } } }).length;
  // Messages just under and over the lengths where RFC 6455's header grows (126 and 65,536 bytes).
  const sizes = [125, 126, 127, 0xffff, 0x10000, 0x10001, 3 * 0x10000];
  // A string of `length` UTF-8 bytes, multi-byte characters included.
  const text = (length: number) => 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
  const lengths = sizes.map((size) => size - overhead);
  const received: string[] = [];
  const all = new Promise<void>((resolve, reject) => {
    pair.client.on('message', (data) => received.push(String(data)) === 2 * lengths.length && resolve());
    // A frame the client cannot read makes it close the connection.
    pair.client.once('close', (code) => reject(new Error(`closed with ${code} after ${received.length} messages`)));
  });
  const pongs: string[] = [];
  pair.client.on('ping', (data) => pongs.push(String(data)));
  for (const [i, length] of lengths.entries()) {
    send({ data: { s: text(length) } }, () => undefined);
    pair.socket.ping(String(i));
    pair.socket.send(`ws ${i}`);
  }
  await all;
  expect(received).toEqual(lengths.flatMap((length, i) => [
    JSON.stringify({ id: 'a', type: 'next', payload: { data: { s: text(length) } } }),
    `ws ${i}`,
  ]));
  expect(received.filter((_, i) => i % 2 === 0).map((message) => Buffer.byteLength(message))).toEqual(sizes);
  expect(pongs).toEqual(lengths.map((_, i) => String(i)));
  pair.client.close();
});
