import { once } from 'node:events';
import { Cluster, Command, type Redis } from 'ioredis';
import { unavailable } from '../errors';
import { type BoardEventMessage, parseBoardEvents } from './events';
import { boardKeys } from './keys';
import { redisRead } from './redisCall';

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
  /** Its subscription went with a dropped connection: the listeners were told, and it is not subscribed again yet. */
  lost: boolean;
  /** The resubscription under way, if any. */
  resubscribing?: Promise<void>;
  /** On a cluster: the master it was last subscribed on (the owner of its slot then). */
  node?: string;
}

/** How long a subscription made while the connection is still being set up waits for it. */
const FIRST_CONNECT_WAIT_MS = 2_000;

/**
 * Board events for this process over one dedicated Redis connection: a board with listeners is
 * ONE sharded subscription (SSUBSCRIBE on its st:{b}:events channel) however many listeners it
 * has, and the last listener leaving drops it. ioredis' own resubscription is turned off on the
 * connection: the bridge resubscribes itself after a reconnect, so it knows when each channel is
 * live again and can tell its listeners that messages published meanwhile were lost.
 *
 * On a Redis Cluster the connection is a Cluster client with sharded subscribers: one subscriber
 * connection per master, each channel on the master that owns its slot. One of them can drop, or
 * its master lose the slot, while the cluster stays up; only the channels on it are lost then.
 */
export class EventBridge {
  private readonly channels = new Map<string, Channel>();
  private state: 'starting' | 'up' | 'down';
  private readonly connectionListeners = new Set<(connected: boolean) => void>();

  constructor(
    private readonly connection: Redis | Cluster,
    private readonly logger: BridgeLogger,
  ) {
    this.state = connection.status === 'ready' ? 'up' : 'starting';
    connection.on('smessage', (channel: string, message: string) => this.deliver(channel, message));
    // Reconnecting is ioredis' job; without a listener every failed attempt is printed as unhandled.
    connection.on('error', () => undefined);
    connection.on('close', () => {
      if (this.state !== 'up') return;
      this.state = 'down';
      this.lose(() => true);
      for (const listener of this.connectionListeners) listener(false);
    });
    connection.on('ready', () => {
      const reconnected = this.state === 'down';
      this.state = 'up';
      if (!reconnected) return;
      void this.resubscribeLost();
      for (const listener of this.connectionListeners) listener(true);
    });
    if (connection instanceof Cluster) this.followShards(connection);
  }

  /** Whether the connection is up; while it is not, messages are being missed. */
  get connected(): boolean {
    return this.state === 'up';
  }

  /**
   * Calls `listener` with false when the connection is lost after it was up, and with true when it
   * is back (the lost channels are then being subscribed again); returns what stops it.
   */
  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
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
      const created: Channel = {
        listeners: new Set(),
        lost: false,
        subscribed: this.subscribe(name).then((node) => (created.node = node)),
      };
      channel = created;
      this.channels.set(name, channel);
    }
    channel.listeners.add(listener);
    try {
      // Until a lost channel is subscribed again its messages are missed: the listener waits for that.
      await (channel.lost ? this.resubscribe(name, channel) : channel.subscribed);
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

  /**
   * ioredis replaces a cluster's subscriber connection that ended, and one whose master no longer
   * owns its channels' slots, re-sends the SSUBSCRIBEs it routed there without waiting for them to
   * be acknowledged, and then emits 'subscribersReady'. The bridge subscribes the channels it lost
   * again itself, as on a single server, to know when they are live.
   */
  private followShards(cluster: Cluster): void {
    // ioredis re-emits the end of a subscriber connection with the node's key (an ordinary
    // connection's '-node' comes without one). The other masters' channels are unaffected.
    cluster.on('-node', (_connection: unknown, node?: string) => {
      if (node !== undefined) this.lose((channel) => channel.node === undefined || channel.node === node);
    });
    cluster.on('subscribersReady', () => {
      if (this.state !== 'up') return;
      // Slots that moved (a resharding, a failover) took their channels' subscriptions with them
      // on the old master, which drops them without closing the connection.
      this.lose((channel, name) => channel.node !== ownerOf(cluster, name));
      void this.resubscribeLost();
    });
  }

  /** SSUBSCRIBE, once the connection is first up; resolves with the master it went to on a cluster. */
  private async subscribe(name: string): Promise<string | undefined> {
    if (this.state === 'starting' && this.connection.status !== 'ready') await this.firstConnection();
    return this.ssubscribe(name);
  }

  private async ssubscribe(name: string): Promise<string | undefined> {
    const node = this.connection instanceof Cluster ? ownerOf(this.connection, name) : undefined;
    await redisRead(this.connection, () => this.connection.ssubscribe(name));
    return node;
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

  /** Tells the listeners of the channels `which` picks, once, that their messages are being missed. */
  private lose(which: (channel: Channel, name: string) => boolean): void {
    let count = 0;
    for (const [name, channel] of this.channels) {
      if (channel.lost || !which(channel, name)) continue;
      channel.lost = true;
      count++;
      for (const listener of [...channel.listeners]) listener.lost?.();
    }
    if (count > 0) this.logger.warn(`Lost the Redis connection of live updates; resubscribing to ${count} board(s) when it is back`);
  }

  private async resubscribeLost(): Promise<void> {
    const lost = [...this.channels].filter(([, channel]) => channel.lost);
    const results = await Promise.allSettled(lost.map(([name, channel]) => this.resubscribe(name, channel)));
    // A failure means the connection dropped again: the next 'ready' (on a cluster, the next
    // 'subscribersReady', which follows ioredis replacing a subscriber) retries what is still lost.
    const done = results.filter((result) => result.status === 'fulfilled').length;
    if (lost.length > 0) this.logger.info(`Live updates resubscribed to ${done} of ${lost.length} board(s)`);
  }

  /** One resubscription of a channel at a time; its listeners hear `resubscribed` once Redis has acknowledged it. */
  private resubscribe(name: string, channel: Channel): Promise<void> {
    channel.resubscribing ??= (async () => {
      // ioredis' cluster client remembers every SSUBSCRIBE it routed, repeats included, and sends
      // them all again when it replaces a subscriber connection: dropping the channel first keeps it
      // there once (on one server this changes nothing). Both go out in this order on one
      // connection, so the channel ends up subscribed; what is published between the two is what
      // `resubscribed` tells the listeners they may have missed.
      this.connection.sunsubscribe(name).catch(() => undefined);
      try {
        channel.node = await this.ssubscribe(name);
      } finally {
        channel.resubscribing = undefined;
      }
      channel.lost = false;
      for (const listener of [...channel.listeners]) listener.resubscribed();
    })();
    return channel.resubscribing;
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

/** The master that owns the channel's slot, as the cluster client last heard. */
function ownerOf(cluster: Cluster, name: string): string | undefined {
  return cluster.slots[new Command('ssubscribe', [name]).getSlot() ?? -1]?.[0];
}
