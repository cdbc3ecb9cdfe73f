import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';

/**
 * The Lua scripts in ./scripts, run as ioredis custom commands (defineCommand): ioredis sends a
 * script's text once per connection, then EVALSHA, and EVAL again on a NOSCRIPT (a restart, a
 * failover, a Cluster master that never saw it), on one server and on a Cluster alike.
 * `-- @include "name"` lines are replaced by scripts/includes/name.lua, so helpers are written once
 * and each script takes only those it uses. Each script's contract (keys, arguments, reply, errors)
 * is its module in ./commands, named as its file; commands/index.ts lists them all.
 */
const SCRIPT_DIR = join(__dirname, 'scripts');

export type ScriptArg = string | number | Buffer;

/**
 * Where a script takes "now" from: Redis' TIME, or, for tests that drive the clock (a
 * LeaderboardStore built with `testNow`), the caller's moment as the last argument. Production
 * has no way to the second: a caller's clock would decide periods and tie order (docs/time-windows.md, "Why tests can set the scripts' now").
 */
export type ScriptClock = 'redis' | 'caller';

/** A script's text with its includes pasted in: what Redis runs. */
export function loadScriptSource(name: string, clock: ScriptClock = 'redis'): string {
  return readFileSync(join(SCRIPT_DIR, `${name}.lua`), 'utf8').replace(
    /^-- @include "([\w-]+)"$/gm,
    (_, include: string) => readFileSync(
      clock === 'caller' && include === 'now' ? join(SCRIPT_DIR, 'testing', 'now.lua') : join(SCRIPT_DIR, 'includes', `${include}.lua`),
      'utf8',
    ),
  );
}

/**
 * The client method ioredis adds for a script: defined without a key count, it takes the count
 * first; the `Buffer` variant leaves string replies as Buffers, since members are binary. The
 * prefix keeps the methods clear of the client's own.
 */
const commandOf = (name: string, clock: ScriptClock) => `standings:${name}${clock === 'caller' ? ':callerNow' : ''}`;
type ScriptCommands = Record<string, (keyCount: number, ...keysAndArgs: ScriptArg[]) => Promise<unknown>>;

/** Each client's Buffer method of every script defined on it, by clock: a script is defined on its first call. */
const defined = { redis: new WeakMap<Redis | Cluster, Map<string, string>>(), caller: new WeakMap<Redis | Cluster, Map<string, string>>() };

export function runScript(
  redis: Redis | Cluster, name: string, keys: string[], args: ScriptArg[], clock: ScriptClock = 'redis',
): Promise<unknown> {
  let methods = defined[clock].get(redis);
  if (!methods) defined[clock].set(redis, (methods = new Map()));
  let method = methods.get(name);
  if (method === undefined) {
    redis.defineCommand(commandOf(name, clock), { lua: loadScriptSource(name, clock) });
    methods.set(name, (method = `${commandOf(name, clock)}Buffer`));
  }
  return (redis as unknown as ScriptCommands)[method](keys.length, ...keys, ...args);
}

/**
 * What a command module declares of its script beside its calls: whether the script changes a
 * board (then it publishes on the board's channel exactly when it does, which the read cache and
 * live updates rely on), and the fields of its reply by name, in the order its Lua header lists
 * them (none for a script that replies with one value).
 */
export interface ScriptContract {
  changesBoard: boolean;
  replies?: Record<string, { names: readonly string[] }>;
}
