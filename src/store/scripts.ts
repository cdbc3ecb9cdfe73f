import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';

/**
 * The Lua scripts in ./scripts, run as ioredis custom commands (defineCommand): ioredis sends a
 * script's text once per connection, then EVALSHA, and EVAL again on a NOSCRIPT (a restart, a
 * failover, a Cluster master that never saw it), on one server and on a Cluster alike.
 * `-- @include "name"` lines are replaced by scripts/includes/name.lua, so helpers are written once
 * and each script takes only those it uses.
 */
const SCRIPT_DIR = join(__dirname, 'scripts');

/**
 * Every script, and whether it changes a board: those publish on the board's channel exactly when
 * they do, which the read cache and live updates rely on. test/redis/store/publishing.redis.test.ts runs
 * each one to check, and test/unit/store/scripts.test.ts that every file in ./scripts is listed here.
 */
export const SCRIPTS = {
  create_board: { changesBoard: true },
  delete_board: { changesBoard: true },
  submit: { changesBoard: true },
  remove_many: { changesBoard: true },
  update_board: { changesBoard: true },
  add_seasons: { changesBoard: true },
  entries: { changesBoard: false },
  page: { changesBoard: false },
  around: { changesBoard: false },
  score_at: { changesBoard: false },
  read_buckets: { changesBoard: false },
  dense_rank: { changesBoard: false },
  rate_limit: { changesBoard: false },
} as const;

export type ScriptName = keyof typeof SCRIPTS;
export type ScriptArg = string | number | Buffer;

/**
 * Where a script takes "now" from: Redis' TIME, or, for tests that drive the clock (a
 * LeaderboardStore built with `testNow`), the caller's moment as the last argument. Production
 * has no way to the second: a caller's clock would decide periods and tie order (docs/time-windows.md, "Why tests can set the scripts' now").
 */
export type ScriptClock = 'redis' | 'caller';

/** A script's text with its includes pasted in: what Redis runs. */
export function loadScriptSource(name: ScriptName, clock: ScriptClock = 'redis'): string {
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
const commandOf = (name: ScriptName, clock: ScriptClock) => `standings:${name}${clock === 'caller' ? ':callerNow' : ''}`;
type ScriptCommands = Record<string, (keyCount: number, ...keysAndArgs: ScriptArg[]) => Promise<unknown>>;

/** Each script's Buffer method, named once rather than on every call. */
const BUFFER_METHODS = Object.fromEntries((['redis', 'caller'] as const).map((clock) => [clock, Object.fromEntries(
  (Object.keys(SCRIPTS) as ScriptName[]).map((name) => [name, `${commandOf(name, clock)}Buffer`]),
)])) as Record<ScriptClock, Record<ScriptName, string>>;

const defined = { redis: new WeakSet<Redis | Cluster>(), caller: new WeakSet<Redis | Cluster>() };

export function runScript(
  redis: Redis | Cluster, name: ScriptName, keys: string[], args: ScriptArg[], clock: ScriptClock = 'redis',
): Promise<unknown> {
  if (!defined[clock].has(redis)) {
    for (const script of Object.keys(SCRIPTS) as ScriptName[]) {
      redis.defineCommand(commandOf(script, clock), { lua: loadScriptSource(script, clock) });
    }
    defined[clock].add(redis);
  }
  return (redis as unknown as ScriptCommands)[BUFFER_METHODS[clock][name]](keys.length, ...keys, ...args);
}
