import type { Cluster, Redis } from 'ioredis';
import type { RateLimitScope } from './keys';
import { countInWindow, type WindowCount } from './commands/rate_limit';
import { ScriptRunner } from './scriptRunner';

/**
 * Fixed-window counters (requests, entries read by view builds) in Redis, so every API instance counts against the same limit.
 * One script call per count: the increment and the window's expiry cannot be separated.
 */
export class RateLimitStore {
  private readonly scripts: ScriptRunner;

  constructor(readonly redis: Redis | Cluster) {
    this.scripts = new ScriptRunner(redis);
  }

  /** Counts `amount` (a request: 1) for `id` in its current window. */
  async hit(scope: RateLimitScope, id: string, windowMs: number, amount = 1): Promise<WindowCount> {
    // A count repeated after a dropped connection only makes the limit a little stricter.
    return countInWindow(this.scripts, scope, id, windowMs, amount);
  }
}
