import type { Cluster, Redis } from 'ioredis';
import { redisRead, redisWrite } from './redisCall';
import { runScript, type ScriptArg, type ScriptClock } from './scriptLoader';

/**
 * How the command modules run their scripts on one client: reads may be repeated (redisRead),
 * writes never are (redisWrite) and take "now" from the clock the store was made with.
 */
export class ScriptRunner {
  private readonly clock: ScriptClock;

  constructor(
    readonly redis: Redis | Cluster,
    /** Tests only: the moment (µs) scripts take as "now" (LeaderboardStoreOptions.testNow). */
    private readonly testNow?: () => number,
  ) {
    this.clock = testNow ? 'caller' : 'redis';
  }

  read(name: string, keys: string[], args: ScriptArg[]): Promise<unknown> {
    return redisRead(this.redis, () => runScript(this.redis, name, keys, args));
  }

  write(name: string, keys: string[], args: ScriptArg[]): Promise<unknown> {
    return redisWrite(this.redis, () => runScript(this.redis, name, keys, args, this.clock), keys[0]);
  }

  /**
   * What a script that takes "now" (includes/now.lua) gets as its last argument: nothing, or a
   * test clock's moment, where only the test variant of the script looks.
   */
  nowArgs(): string[] {
    return this.testNow ? [String(this.testNow())] : [];
  }
}
