// The WebSocket server on a schema of its own (no Redis): what it does with an error nothing
// expected (in a subscription's event, its stream, or admitting a connection), which the
// execution core logs once, with the connection's id, through the server's logger (never the
// console, where graphql-ws' own socket glue writes); refusals are not logged.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { GraphQLBoolean, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ANONYMOUS_READER, type Principal } from '../../../src/domain/access';
import { LiveStream } from '../../../src/domain/live/liveStream';
import { ErrorCode, StandingsError, unavailable } from '../../../src/errors';
import type { Services } from '../../../src/graphql/context';
import { createExecutionCore } from '../../../src/graphql/execution/core';
import { attachWebSocket, isLostConnection } from '../../../src/server/websocket';

/** The stream of each `counter` subscriber, which a test pushes states into, as the live layer does. */
const counters: LiveStream<{ counter: string }>[] = [];

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      broken: {
        type: GraphQLBoolean,
        subscribe: async function* () {
          yield {};
        },
        resolve: () => {
          throw new Error('kaput: a bug deep inside');
        },
      },
      counter: {
        type: GraphQLString,
        subscribe: () => {
          const stream = new LiveStream<{ counter: string }>(1, () => undefined);
          counters.push(stream);
          return stream;
        },
      },
      brokenFeed: {
        type: GraphQLBoolean,
        subscribe: async function* () {
          yield { brokenFeed: true };
          throw new Error('the feed broke');
        },
      },
    },
  }),
});

/** A server on `schema` whose connections `authenticate` admits, a client sending `x-request-id: conn-7`, and what was logged. */
async function serve(authenticate: () => Promise<Principal> = async () => ANONYMOUS_READER) {
  const httpServer = http.createServer();
  const logged: { requestId?: string; message: string }[] = [];
  const core = createExecutionCore({
    schema, services: {} as Services, production: true,
    logger: { error: ({ requestId }, message) => logged.push({ requestId, message }) },
    observeOperation: () => undefined,
    countError: () => undefined,
    countUserError: () => undefined,
  });
  attachWebSocket({
    httpServer, path: '/graphql', core, production: true,
    admitsUpgrade: () => true,
    countUpgrade: () => undefined,
    authenticate,
    admitOperation: async () => undefined,
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  let closed!: (code: number) => void;
  const closeCode = new Promise<number>((resolve) => (closed = resolve));
  const client = createClient({
    url: `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols: string | string[]) {
        super(url, protocols, { headers: { 'x-request-id': 'conn-7' } });
      }
    },
    retryAttempts: 0,
    on: { closed: (event) => closed((event as { code: number }).code) },
  });
  const close = async () => {
    await client.dispose();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  };
  return { client, logged, closeCode, close, url: `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}/graphql` };
}

let consoleErrors: jest.SpyInstance;
beforeEach(() => (consoleErrors = jest.spyOn(console, 'error')));
afterEach(() => {
  expect(consoleErrors).not.toHaveBeenCalled();
  consoleErrors.mockRestore();
});

/** The subscription's results until it ends, and how it ended. */
function collect(client: ReturnType<typeof createClient>, query: string) {
  const results: unknown[] = [];
  return new Promise<{ results: unknown[]; error?: unknown }>((resolve) => {
    client.subscribe({ query }, {
      next: (result) => results.push(result),
      error: (error) => resolve({ results, error }),
      complete: () => resolve({ results }),
    });
  });
}

it('masks an internal error in a subscription and logs it with its place, stack and connection id', async () => {
  const { client, logged, close } = await serve();
  try {
    const first = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: 'subscription { broken }' }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(first).toEqual({
      data: { broken: null },
      errors: [{ message: 'Internal server error', locations: [{ line: 1, column: 16 }], path: ['broken'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    // Logged once for every subscriber sharing the event's result: no one connection's.
    expect(logged).toEqual([{ requestId: undefined, message: expect.stringMatching(/^Internal error at broken: Error: kaput: a bug deep inside\n\s+at /) }]);
  } finally {
    await close();
  }
});

it('logs an error thrown by a subscription\'s event stream, with the connection id', async () => {
  const { client, logged, close } = await serve();
  try {
    const { results, error } = await collect(client, 'subscription { brokenFeed }');
    expect(results).toEqual([{ data: { brokenFeed: true } }]);
    // graphql-ws sends the stream's error as the subscription's `error`, masked.
    expect(error).toEqual([{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
    expect(logged).toEqual([{ requestId: 'conn-7', message: expect.stringMatching(/^Internal error at request: Error: the feed broke\n\s+at /) }]);
  } finally {
    await close();
  }
});

it('holds back a subscriber that reads slowly: once it reads again it gets the latest state, not every one it missed', async () => {
  const { url, close } = await serve();
  const socket = new WebSocket(url, 'graphql-transport-ws');
  try {
    const messages: { type: string; payload?: { data: { counter: string } } }[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'connection_init' }));
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { counter }' } }));
    while (counters.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const stream = counters.pop()!;
    // The client stops reading, and the first frame is more than the kernel's buffers hold.
    const { _socket: tcp } = socket as unknown as { _socket: { pause(): void; resume(): void } };
    tcp.pause();
    stream.push({ counter: 'x'.repeat(16 * 2 ** 20) });
    for (let n = 1; n <= 50; n++) stream.push({ counter: String(n) });
    tcp.resume();
    while (messages.at(-1)?.payload?.data.counter !== '50') await new Promise((resolve) => setTimeout(resolve, 5));
    const counts = messages.filter((message) => message.type === 'next').map((message) => message.payload!.data.counter);
    // The first frame written, the one sent while it waited, and the latest: none of those in between.
    expect(counts.map((count) => (count.length > 10 ? 'big' : count))).toEqual(['big', '1', '50']);
  } finally {
    socket.terminate();
    await close();
  }
});

describe('admitting a connection', () => {
  it('logs an unexpected error of authenticate with the connection id, and closes with 4500', async () => {
    const { client, logged, closeCode, close } = await serve(async () => {
      throw new TypeError('keys not loaded');
    });
    try {
      const { error } = await collect(client, 'subscription { brokenFeed }');
      expect(error).toBeDefined();
      expect(await closeCode).toBe(4500);
      expect(logged).toEqual([{ requestId: 'conn-7', message: expect.stringMatching(/^Internal error at request: TypeError: keys not loaded\n\s+at /) }]);
    } finally {
      await close();
    }
  });

  it.each([
    ['a refused key', new StandingsError(ErrorCode.UNAUTHENTICATED, 'unknown key'), 4403],
    ['Redis unavailable', unavailable('Redis did not answer'), 4500],
  ])('logs nothing for %s', async (_name, refusal, code) => {
    const { client, logged, closeCode, close } = await serve(async () => {
      throw refusal;
    });
    try {
      await collect(client, 'subscription { brokenFeed }');
      expect(await closeCode).toBe(code);
      expect(logged).toEqual([]);
    } finally {
      await close();
    }
  });
});

it('tells a client gone away (a write to a reset or closed connection) from an internal error', () => {
  const failed = (code: string) => Object.assign(new Error(`write ${code}`), { code });
  for (const code of ['ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']) expect(isLostConnection(failed(code))).toBe(true);
  for (const err of [failed('ENOMEM'), new Error('kaput'), undefined, 'ECONNRESET']) expect(isLostConnection(err)).toBe(false);
});
