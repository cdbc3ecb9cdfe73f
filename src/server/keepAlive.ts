/** What the keep-alive needs of a `ws` socket. */
export interface PingedSocket {
  readonly readyState: number;
  readonly OPEN: number;
  ping(): void;
  terminate(): void;
}

/**
 * Keep-alive pings for every socket of a server on one timer, as `ws`' own README does it: each
 * round cuts the sockets that left the last ping unanswered and pings the others, so a pong may
 * take up to one interval, as graphql-ws' useServer allows. One timer for the server rather than
 * useServer's interval per connection and timeout per ping: a server holding thousands of
 * subscribers keeps one timer instead of thousands.
 */
export class KeepAlive {
  private readonly unanswered = new WeakSet<PingedSocket>();
  private readonly timer: NodeJS.Timeout;

  /** `sockets`: those open now (a `ws` server's `clients`), read at every round. */
  constructor(
    private readonly sockets: Iterable<PingedSocket>,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => this.round(), intervalMs);
    // The connections it pings keep the process up; this timer alone must not.
    this.timer.unref();
  }

  /** The socket answered (a pong). */
  answered(socket: PingedSocket): void {
    this.unanswered.delete(socket);
  }

  /** One round: what the timer runs each interval. */
  round(): void {
    for (const socket of this.sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      if (this.unanswered.has(socket)) {
        socket.terminate();
        continue;
      }
      this.unanswered.add(socket);
      socket.ping();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
