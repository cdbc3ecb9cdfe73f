// graphql-transport-ws spoken by hand on a raw socket, for tests that send what no well-behaved
// client would (reused ids, bursts, closing mid set-up), and what tells how many subscriptions the
// server holds. Waits are for concrete messages or conditions, with a deadline, never sleeps.
import { once } from 'node:events';
import type Redis from 'ioredis';
import type { Gauge } from 'prom-client';
import WebSocket from 'ws';
import { registry } from '../../src/server/metrics';
import { boardKeys } from '../../src/store/keys';
import { newTestClient, uniqueId } from './redis';
import { authorization, createBoard, submitAll, TestServer, type TestServerOptions } from './harness';

const WAIT_MS = 5_000;

interface ServerMessage {
  id?: string;
  type: string;
  payload?: any;
}

export interface RawLiveOptions {
  /** Default: the harness' admin key. */
  key?: string;
  /** On the upgrade request (X-Forwarded-For, say). */
  headers?: Record<string, string>;
}

export class RawLiveSocket {
  readonly messages: ServerMessage[] = [];
  /** Resolves with the close code once the socket is closed, by either side. */
  readonly closed: Promise<number>;
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as ServerMessage);
      this.listeners.forEach((check) => check());
    });
    this.closed = once(socket, 'close').then(([code]) => {
      this.listeners.forEach((check) => check());
      return code as number;
    });
  }

  /** Opened and acknowledged. */
  static async open(graphqlUrl: string, { key, headers }: RawLiveOptions = {}): Promise<RawLiveSocket> {
    const socket = new WebSocket(graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
    const raw = new RawLiveSocket(socket);
    await once(socket, 'open');
    raw.send({ type: 'connection_init', payload: authorization(key) });
    await raw.until(() => raw.messages.some((message) => message.type === 'connection_ack'), 'connection_ack');
    return raw;
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  subscribe(id: string, query: string, variables?: Record<string, unknown>): void {
    this.send({ id, type: 'subscribe', payload: { query, variables } });
  }

  complete(id: string): void {
    this.send({ id, type: 'complete' });
  }

  /**
   * Resolves once the server has handled everything sent before (it answers a ping after them),
   * or once the socket is closed. Set-ups those messages started may still be running.
   */
  async roundTrip(): Promise<void> {
    const pongs = () => this.messages.filter((message) => message.type === 'pong').length;
    const before = pongs();
    this.send({ type: 'ping' });
    await this.until(() => pongs() > before || !this.isOpen, 'pong');
  }

  /** The messages sent for `id`, in order. */
  about(id: string): ServerMessage[] {
    return this.messages.filter((message) => message.id === id);
  }

  /** Resolves when `done()` holds after a message arrives or the socket closes; fails after a deadline. */
  until(done: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      const check = () => {
        if (done()) finish(resolve);
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${what} within ${WAIT_MS} ms`))), WAIT_MS);
      this.listeners.add(check);
      check();
    });
  }

  /** Closes from the client side without waiting (see `closed`). */
  close(): void {
    this.socket.close();
  }

  private send(message: ServerMessage): void {
    // A socket the server closed (4409 for a duplicate id, say) takes nothing more.
    if (this.isOpen) this.socket.send(JSON.stringify(message));
  }
}

const gauge = () => registry.getSingleMetric('standings_active_subscriptions') as Gauge;

/** The process' `standings_active_subscriptions` now. */
async function activeSubscriptions(): Promise<number> {
  return (await gauge().get()).values[0]?.value ?? 0;
}

/** Polls until `done` (what the server lets go of when a socket closes is not acknowledged to anyone); fails after a deadline. */
async function pollUntil(done: () => Promise<boolean>, describe: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(await describe());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface LiveFixture {
  readonly server: TestServer;
  /** A board where player "p" has a score. */
  readonly board: string;
  /** A raw socket to the server, opened and acknowledged. */
  open(options?: RawLiveOptions): Promise<RawLiveSocket>;
  /**
   * The highest value the server's gauge of subscriptions took since `restartGauge`: it is set
   * whenever the count changes, and every value is recorded, not only those a test polls.
   */
  highestGauge(): number;
  restartGauge(): void;
  /** Waits until the server holds no subscription: by its gauge. */
  expectNoneActive(): Promise<void>;
  /**
   * Closes the sockets, then waits until the server holds no subscription: by its gauge, and by the
   * board's Redis subscription, which the live layer drops once every subscription to the board has
   * ended (a count that is not the WebSocket layer's own).
   */
  closeAndExpectNothingLeft(...sockets: RawLiveSocket[]): Promise<void>;
}

/** A server (with `options`) and a board for the file's tests, started before them and stopped after. */
export function useLiveFixture(options: TestServerOptions = {}): LiveFixture {
  const board = uniqueId('capped');
  let server: TestServer;
  let redis: Redis;
  let recorded: jest.SpyInstance;
  beforeAll(async () => {
    // Without the read cache, which would hold the board's Redis subscription for reads of its own.
    server = await TestServer.start(undefined, { ...options, cacheReads: false });
    redis = newTestClient();
    await createBoard(server, board);
    await submitAll(server, board, [['p', 1]]);
    recorded = jest.spyOn(gauge(), 'set');
  });
  afterAll(async () => {
    recorded.mockRestore();
    await Promise.all([server.stop(), redis.quit()]);
  });

  const redisSubscribers = async () => ((await redis.call('PUBSUB', 'SHARDNUMSUB', boardKeys(board).events)) as [string, number])[1];
  const expectNoneActive = () =>
    pollUntil(async () => (await activeSubscriptions()) === 0, async () => `${await activeSubscriptions()} subscriptions still active`);
  return {
    get server() {
      return server;
    },
    board,
    open: (socketOptions) => RawLiveSocket.open(server.graphqlUrl, socketOptions),
    highestGauge: () => Math.max(0, ...recorded.mock.calls.map(([value]) => value as number)),
    restartGauge: () => recorded.mockClear(),
    expectNoneActive,
    async closeAndExpectNothingLeft(...sockets) {
      sockets.forEach((socket) => socket.close());
      await Promise.all(sockets.map((socket) => socket.closed));
      await expectNoneActive();
      await pollUntil(async () => (await redisSubscribers()) === 0, async () => `the board still has ${await redisSubscribers()} Redis subscribers`);
    },
  };
}
