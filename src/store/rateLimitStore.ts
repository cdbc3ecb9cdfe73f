import type { Cluster, Redis } from 'ioredis';
import { type RateLimitScope, rateLimitKey } from './keys';
import { redisRead } from './redisCall';
import { runScript } from './scripts';

interface WindowCount {
  /** Requests in the current window, this one included. */
  count: number;
  /** Until the window ends and the count starts again. */
  resetInMs: number;
}

/**
 * Fixed-window request counters in Redis, so every API instance counts against the same limit.
 * One script call per count: the increment and the window's expiry cannot be separated.
 */
export class RateLimitStore {
  constructor(readonly redis: Redis | Cluster) {}

  async hit(scope: RateLimitScope, id: string, windowMs: number): Promise<WindowCount> {
    // A count repeated after a dropped connection only makes the limit a little stricter.
    const [count, resetInMs] = (await redisRead(this.redis, () =>
      runScript(this.redis, 'rate_limit', [rateLimitKey(scope, id)], [windowMs]),
    )) as [number, number];
    return { count, resetInMs };
  }
}
