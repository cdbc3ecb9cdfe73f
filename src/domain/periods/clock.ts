/**
 * Where Node takes "now" for the period decisions it makes by itself: which period "current"
 * names in a read, when a live subscription to the current period rolls over, which periods a
 * listing shows. The server's is Redis' clock (RedisMomentClock, redisClock.ts), which also
 * decides the period a live submission lands in, inside the submit script. Tests pass a clock
 * of their own instead of waiting for midnight.
 */
export interface MomentClock {
  /** µs since the epoch. */
  nowMicros(): number;
}

export const systemMomentClock: MomentClock = { nowMicros: () => Date.now() * 1000 };
