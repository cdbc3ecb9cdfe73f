import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';

/**
 * Loads the Lua scripts in ./scripts and calls them by SHA, falling back to EVAL (which also
 * caches the script) when a server does not know it yet: after a restart, a failover, or on a
 * Cluster master that never saw it. `-- @include "name"` lines are replaced by
 * scripts/includes/name.lua, so helpers are written once.
 */
const SCRIPT_DIR = join(__dirname, 'scripts');

export type ScriptName =
  | 'create_board' | 'delete_board' | 'submit' | 'remove' | 'entries' | 'page' | 'around' | 'rate_limit';
export type ScriptArg = string | number | Buffer;

interface Script {
  source: string;
  sha: string;
}

/** A script's text with its includes pasted in: what Redis runs. */
export function loadScriptSource(name: ScriptName): string {
  return readFileSync(join(SCRIPT_DIR, `${name}.lua`), 'utf8').replace(
    /^-- @include "([\w-]+)"$/gm,
    (_, include: string) => readFileSync(join(SCRIPT_DIR, 'includes', `${include}.lua`), 'utf8'),
  );
}

function load(name: ScriptName): Script {
  const source = loadScriptSource(name);
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const cache = new Map<ScriptName, Script>();

function script(name: ScriptName): Script {
  let loaded = cache.get(name);
  if (!loaded) cache.set(name, (loaded = load(name)));
  return loaded;
}

/** Runs a script; bulk replies come back as Buffers (members are binary). */
export async function runScript(
  redis: Redis | Cluster,
  name: ScriptName,
  keys: string[],
  args: ScriptArg[],
): Promise<unknown> {
  const { source, sha } = script(name);
  try {
    return await redis.callBuffer('EVALSHA', sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return redis.callBuffer('EVAL', source, keys.length, ...keys, ...args);
  }
}
