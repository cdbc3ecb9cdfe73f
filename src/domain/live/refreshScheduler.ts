/** After a failed read (Redis unreachable), the next attempt waits this long. */
export const RETRY_MS = 1_000;

/** Time and timers, injected so that tests move time themselves. */
export interface Clock {
  now(): number;
  setTimeout(task: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (task, ms) => setTimeout(task, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** What a scheduler paces: it asks what waits, and runs the refreshes. */
export interface Refreshes {
  /** Reads wait that no change asked for: new watches, resynchronised ones, failed reads. */
  readsWaiting(): boolean;
  /** Events announced changes that no refresh has taken yet. */
  changesWaiting(): boolean;
  /** When the first update held back for a subscription's slower rate is due (Infinity: none is). */
  heldUntil(): number;
  /** Reads what waits, and what the waiting changes touch when `withChanges`; true when a read failed. */
  refresh(withChanges: boolean): Promise<boolean>;
}

/**
 * When a board's watches are read. Reads that no change asked for go out at once; refreshes for
 * changes at most once per interval, the first of a burst at once; after a failed read, nothing is
 * read again before RETRY_MS. A refresh also runs when an update held back for a slower rate is due. One refresh runs at a time, and what waits meanwhile is scheduled
 * when it ends.
 */
export class RefreshScheduler {
  private lastChangeRefresh = -Infinity;
  private retryAt = 0;
  private timer: unknown;
  private timerDue = Infinity;
  private refreshing = false;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly work: Refreshes,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Something may wait: sets the timer for the next refresh, unless one is due as soon. */
  schedule(): void {
    if (this.stopped || this.refreshing) return;
    const now = this.clock.now();
    let due = Infinity;
    if (this.work.readsWaiting()) due = Math.max(now, this.retryAt);
    if (this.work.changesWaiting()) due = Math.min(due, Math.max(now, this.lastChangeRefresh + this.intervalMs));
    due = Math.min(due, Math.max(now, this.work.heldUntil()));
    if (due >= this.timerDue) return;
    this.clearTimer();
    this.timerDue = due;
    this.timer = this.clock.setTimeout(this.fire, due - now);
  }

  /** No refresh starts from now on. */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  // One callback for every timer and one for every refresh's end, rather than new closures each time.
  private readonly fire = (): void => {
    this.timer = undefined;
    this.timerDue = Infinity;
    this.refreshing = true;
    const now = this.clock.now();
    const withChanges = this.work.changesWaiting() && now >= this.lastChangeRefresh + this.intervalMs;
    if (withChanges) this.lastChangeRefresh = now;
    void this.work.refresh(withChanges).then(this.refreshed);
  };

  private readonly refreshed = (failed: boolean): void => {
    this.refreshing = false;
    if (failed) this.retryAt = this.clock.now() + RETRY_MS;
    this.schedule();
  };

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
  }
}
