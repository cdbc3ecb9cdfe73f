import type { Cluster, Redis } from 'ioredis';
import { type RateLimitScope, rateLimitKey } from './keys';
import { redisRead } from './redisCall';
import { rateLimitReply, type WindowCount } from './replies';
import { runScript } from './scripts';

/**
 * Fixed-window counters (requests, entries read by view builds) in Redis, so every API instance counts against the same limit.
 * One script call per count: the increment and the window's expiry cannot be separated.
 */
export class RateLimitStore {
  constructor(readonly redis: Redis | Cluster) {}

  /** Counts `amount` (a request: 1) for `id` in its current window. */
  async hit(scope: RateLimitScope, id: string, windowMs: number, amount = 1): Promise<WindowCount> {
    // A count repeated after a dropped connection only makes the limit a little stricter.
    return rateLimitReply(await redisRead(this.redis, () =>
      runScript(this.redis, 'rate_limit', [rateLimitKey(scope, id)], [windowMs, amount]),
    ));
  }
}
