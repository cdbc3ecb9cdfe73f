// Real graphql-ws clients for the live tests: each subscription records what it receives, and
// tests wait for concrete messages (with a timeout) instead of sleeping.
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { authorization } from './harness';

const WAIT_MS = 3_000;

export interface LiveConnection {
  client: Client;
  /** How many times the socket was opened and acknowledged (1 unless it reconnected). */
  connections(): number;
  subscribe<T = any>(query: string, variables?: Record<string, unknown>): LiveSubscription<T>;
  close(): Promise<void>;
}

/** `key: null` connects without credentials; otherwise with `Bearer <key>` (default: the harness' admin key). */
export function connect(graphqlUrl: string, key?: string | null): LiveConnection {
  let connections = 0;
  const client = createClient({
    url: graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: key === null ? undefined : authorization(key),
    retryAttempts: 0,
    on: { connected: () => connections++ },
  });
  return {
    client,
    connections: () => connections,
    subscribe: (query, variables) => new LiveSubscription(client, query, variables),
    close: async () => {
      await client.dispose();
    },
  };
}

interface Message<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string; details?: Record<string, unknown> } }[];
}

export class LiveSubscription<T> {
  readonly messages: Message<T>[] = [];
  /** Set when the server completed the subscription or it failed. */
  ended: 'complete' | Error | undefined;
  /** What the failure was: GraphQL errors, or the socket's close event (with its `code`). */
  failure: unknown;
  private read = 0;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;

  constructor(client: Client, query: string, variables?: Record<string, unknown>) {
    this.unsubscribe = client.subscribe<T>({ query, variables }, {
      next: (message) => this.record(() => this.messages.push(message as Message<T>)),
      // GraphQL errors before the subscription started (graphql-ws' `error` message) come as a list.
      error: (error) =>
        this.record(() => {
          this.failure = error;
          if (Array.isArray(error)) this.messages.push({ errors: error });
          this.ended = error instanceof Error ? error : new Error(JSON.stringify(error));
        }),
      complete: () => this.record(() => (this.ended ??= 'complete')),
    });
  }

  /** The next message not returned before; fails after a timeout, or if the subscription ends first. */
  async next(timeoutMs = WAIT_MS): Promise<Message<T>> {
    await this.waitFor(() => this.messages.length > this.read, `message #${this.read + 1}`, timeoutMs);
    return this.messages[this.read++];
  }

  /** The data of the next message; fails when it has errors. */
  async nextData(timeoutMs = WAIT_MS): Promise<T> {
    const message = await this.next(timeoutMs);
    if (message.errors) throw new Error(`unexpected errors: ${JSON.stringify(message.errors)}`);
    return message.data!;
  }

  /** Skips messages until one's data matches; returns it. */
  async until(matches: (data: T) => boolean, timeoutMs = WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const data = await this.nextData(Math.max(1, deadline - Date.now()));
      if (matches(data)) return data;
    }
  }

  /** Resolves when the server has completed the subscription. */
  async completion(timeoutMs = WAIT_MS): Promise<void> {
    await this.ending(timeoutMs);
    if (this.ended !== 'complete') throw this.ended;
  }

  /** Resolves when the subscription has ended, completed or failed. */
  ending(timeoutMs = WAIT_MS): Promise<void> {
    return this.waitFor(() => this.ended !== undefined, 'end', timeoutMs, true);
  }

  /** How many messages arrived that next() has not returned yet. */
  get unread(): number {
    return this.messages.length - this.read;
  }

  stop(): void {
    this.unsubscribe();
  }

  private record(change: () => void): void {
    change();
    this.listeners.forEach((check) => check());
  }

  private waitFor(done: () => boolean, what: string, timeoutMs: number, whenEnded = false): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (done()) finish(resolve);
        else if (this.ended !== undefined && !whenEnded) finish(() => reject(new Error(`ended (${String(this.ended)}) before ${what}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      this.listeners.add(check);
      check();
    });
  }
}
