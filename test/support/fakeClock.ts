import type { Clock } from '../../src/domain/live/refreshScheduler';
import type { MomentClock } from '../../src/domain/periods/clock';

/** Time that moves only when a test moves it; timers run in order of when they are due. */
export class FakeClock implements Clock {
  private time = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; task: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(task: () => void, ms: number): number {
    this.timers.set(++this.nextId, { at: this.time + ms, task });
    return this.nextId;
  }

  clearTimeout(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, running each timer due on the way at its own time. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].task();
    }
    this.time = until;
  }
}

/**
 * A FakeClock for tests through a server, where the test cannot step every refresh itself: what
 * the code asks to run at once (a timer of 0 ms) runs on the next turn of the event loop, while
 * later timers wait for `advance`. Also the periods' MomentClock (µs), so one clock moves both.
 */
export class SteppedClock extends FakeClock implements MomentClock {
  /** Starts at `startMs` (ms since the epoch). */
  constructor(startMs: number) {
    super();
    this.advance(startMs);
  }

  nowMicros(): number {
    return this.now() * 1000;
  }

  setTimeout(task: () => void, ms: number): number {
    if (ms > 0) return super.setTimeout(task, ms);
    // Negative ids, apart from the FakeClock's own.
    const id = --this.lastImmediate;
    this.immediates.set(id, setImmediate(() => {
      this.immediates.delete(id);
      task();
    }));
    return id;
  }

  clearTimeout(timer: unknown): void {
    const immediate = this.immediates.get(timer as number);
    if (immediate === undefined) return super.clearTimeout(timer);
    clearImmediate(immediate);
    this.immediates.delete(timer as number);
  }

  private readonly immediates = new Map<number, NodeJS.Immediate>();
  private lastImmediate = 0;
}
