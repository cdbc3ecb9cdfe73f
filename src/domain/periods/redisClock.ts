import type { MomentClock } from './clock';

/** How often the offset is measured again: clocks drift apart slowly, and each sample is one TIME call. */
export const REDIS_CLOCK_SYNC_MS = 30_000;

/**
 * "Now" by Redis' clock, for the period decisions Node makes by itself (which period "current"
 * names in a read, when a live subscription rolls over), so that a read and the write beside it
 * agree on the period whatever this machine's clock says: the submit script decides a write's
 * period by Redis' clock. Redis is not asked on every read: the clock keeps the offset between
 * Redis' TIME and the local clock, measured at start and every REDIS_CLOCK_SYNC_MS, each sample
 * taken at the midpoint of its round trip, so it is off by at most half a round trip plus the
 * drift since the last sample. A failed sample keeps the last offset (until the first succeeds,
 * the local clock stands alone): periods are long next to an outage's drift.
 */
export class RedisMomentClock implements MomentClock {
  private offsetMicros = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redisNowMicros: () => Promise<number>,
    /** This machine's clock; tests set one that is off from Redis'. */
    private readonly localNowMicros: () => number = () => Date.now() * 1000,
  ) {}

  nowMicros(): number {
    return this.localNowMicros() + this.offsetMicros;
  }

  /** Measures the offset once; false (and the last offset kept) when Redis did not answer. */
  async sync(): Promise<boolean> {
    const sent = this.localNowMicros();
    try {
      const redisNow = await this.redisNowMicros();
      this.offsetMicros = redisNow - (sent + this.localNowMicros()) / 2;
      return true;
    } catch {
      return false;
    }
  }

  /** Measures now, then every `intervalMs` until `stop()`; the timer keeps no process alive. */
  async start(intervalMs = REDIS_CLOCK_SYNC_MS): Promise<void> {
    await this.sync();
    this.timer ??= setInterval(() => void this.sync(), intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
