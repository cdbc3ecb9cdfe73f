import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { unavailable } from '../errors';
import { type BoardEventMessage, parseBoardEvents } from './events';
import { boardKeys } from './keys';
import { redisCall } from './redisCall';

export interface BoardListener {
  /** One published message (one write call), in the order Redis published them. */
  events(message: BoardEventMessage): void;
  /** The board's channel is subscribed again after the connection dropped: messages may have been missed. */
  resubscribed(): void;
  /** The connection dropped: messages are being missed until `resubscribed`. */
  lost?(): void;
}

export interface BridgeLogger {
  info(message: string): void;
  warn(message: string): void;
}

interface Channel {
  listeners: Set<BoardListener>;
  /** Settles when Redis has acknowledged the first SSUBSCRIBE. */
  subscribed: Promise<unknown>;
}

/** How long a subscription made while the connection is still being set up waits for it. */
const FIRST_CONNECT_WAIT_MS = 2_000;

/**
 * Board events for this process over one dedicated Redis connection: a board with listeners is
 * ONE sharded subscription (SSUBSCRIBE on its st:{b}:events channel) however many listeners it
 * has, and the last listener leaving drops it. ioredis' own resubscription is turned off on the
 * connection: the bridge resubscribes itself after a reconnect, so it knows when each channel is
 * live again and can tell its listeners that messages published meanwhile were lost.
 */
export class EventBridge {
  private readonly channels = new Map<string, Channel>();
  private state: 'starting' | 'up' | 'down';

  constructor(
    private readonly connection: Redis,
    private readonly logger: BridgeLogger,
  ) {
    this.state = connection.status === 'ready' ? 'up' : 'starting';
    connection.on('smessage', (channel: string, message: string) => this.deliver(channel, message));
    // Reconnecting is ioredis' job; without a listener every failed attempt is printed as unhandled.
    connection.on('error', () => undefined);
    connection.on('close', () => {
      if (this.state !== 'up') return;
      this.state = 'down';
      for (const channel of this.channels.values()) for (const listener of [...channel.listeners]) listener.lost?.();
      if (this.channels.size > 0) logger.warn(`Lost the Redis connection of live updates; resubscribing to ${this.channels.size} board(s) when it is back`);
    });
    connection.on('ready', () => {
      const reconnected = this.state === 'down';
      this.state = 'up';
      if (reconnected) void this.resubscribeAll();
    });
  }

  /** Whether the connection is up; while it is not, messages are being missed. */
  get connected(): boolean {
    return this.state === 'up';
  }

  /**
   * Resolves once the board's channel is subscribed, so that anything read afterwards is followed
   * by every later change; call the returned function to stop listening. UNAVAILABLE when Redis
   * cannot be reached.
   */
  async listen(boardId: string, listener: BoardListener): Promise<() => void> {
    const name = boardKeys(boardId).events;
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { listeners: new Set(), subscribed: this.subscribe(name) };
      this.channels.set(name, channel);
    }
    channel.listeners.add(listener);
    try {
      await channel.subscribed;
    } catch (err) {
      this.remove(name, listener);
      throw err;
    }
    return () => this.remove(name, listener);
  }

  /** Drops every subscription with the connection; listeners hear nothing more. */
  close(): void {
    this.channels.clear();
    this.connection.disconnect();
  }

  private async subscribe(name: string): Promise<void> {
    if (this.state === 'starting' && this.connection.status !== 'ready') await this.firstConnection();
    await redisCall(() => this.connection.ssubscribe(name));
  }

  private async firstConnection(): Promise<void> {
    const signal = AbortSignal.timeout(FIRST_CONNECT_WAIT_MS);
    try {
      await once(this.connection, 'ready', { signal });
    } catch {
      throw unavailable('Redis is unavailable');
    }
  }

  private remove(name: string, listener: BoardListener): void {
    const channel = this.channels.get(name);
    if (!channel?.listeners.delete(listener) || channel.listeners.size > 0) return;
    this.channels.delete(name);
    // Commands on one connection run in order, so a later SSUBSCRIBE of the same channel wins.
    // When the connection is down the subscription is gone with it, so a failure changes nothing.
    this.connection.sunsubscribe(name).catch(() => undefined);
  }

  private async resubscribeAll(): Promise<void> {
    const channels = [...this.channels];
    const results = await Promise.allSettled(
      channels.map(async ([name, channel]) => {
        await redisCall(() => this.connection.ssubscribe(name));
        for (const listener of [...channel.listeners]) listener.resubscribed();
      }),
    );
    // A failure means the connection dropped again: the next 'ready' retries everything.
    const done = results.filter((result) => result.status === 'fulfilled').length;
    if (channels.length > 0) this.logger.info(`Live updates resubscribed to ${done} of ${channels.length} board(s)`);
  }

  private deliver(name: string, message: string): void {
    const channel = this.channels.get(name);
    if (!channel) return;
    let parsed: BoardEventMessage;
    try {
      parsed = parseBoardEvents(message);
    } catch (err) {
      this.logger.warn(`Ignored a board event on ${name}: ${(err as Error).message}`);
      return;
    }
    for (const listener of [...channel.listeners]) listener.events(parsed);
  }
}
