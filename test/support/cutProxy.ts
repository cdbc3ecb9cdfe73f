// A TCP proxy in front of a Redis server that can lose an answer on purpose: the command reaches
// Redis and runs, and the connection is cut before its reply gets back. That is what a crash or
// a network fault does at the worst moment, made to happen on the next command instead of by chance.
import * as net from 'node:net';
import type { ManagedRedis } from '../../src/dev/managedRedis';
import { TestServer } from './harness';
import { startDedicatedRedis } from './redis';

export class CutProxy {
  private armed = false;
  /** The command (as the client writes its name in RESP) whose connection is cut before it reaches Redis. */
  private cutBefore: string | undefined;
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly server: net.Server) {}

  static async start(target: { host: string; port: number }): Promise<CutProxy> {
    let proxy: CutProxy | undefined;
    const server = net.createServer((client) => proxy!.relay(client, target));
    proxy = new CutProxy(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** The next connection to send a command has it delivered, and its reply swallowed with the connection. */
  cutAfterNextCommand(): void {
    this.armed = true;
  }

  /**
   * The next connection to send `command` (a name as ioredis writes it, lower case) is cut
   * before that command reaches Redis: whatever the client sends with it is lost as well.
   */
  cutBeforeCommand(command: string): void {
    this.cutBefore = `\r\n$${command.length}\r\n${command}\r\n`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(client: net.Socket, target: { host: string; port: number }): void {
    const upstream = net.connect(target.port, target.host);
    let doomed = false;
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (data) => {
      if (this.cutBefore !== undefined && data.includes(this.cutBefore)) {
        this.cutBefore = undefined;
        return cut();
      }
      if (this.armed) {
        this.armed = false;
        doomed = true;
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => (doomed ? cut() : client.write(data)));
    client.on('close', cut);
    upstream.on('close', cut);
  }
}

/**
 * A describe block's own Redis with a CutProxy in front and a server on the proxy, started before
 * its tests and stopped after them.
 */
export function behindCutProxy(): { redis: ManagedRedis; proxy: CutProxy; server: TestServer } {
  const own = {} as { redis: ManagedRedis; proxy: CutProxy; server: TestServer };
  beforeAll(async () => {
    own.redis = await startDedicatedRedis();
    own.proxy = await CutProxy.start({ host: '127.0.0.1', port: own.redis.port });
    own.server = await TestServer.start(own.proxy.url);
  });
  afterAll(async () => {
    await own.server?.stop();
    await own.proxy?.close();
    await own.redis?.stop();
  });
  return own;
}
