import type { Clock } from '../../src/domain/live/refreshScheduler';

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
