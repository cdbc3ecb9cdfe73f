import { badInput } from '../../errors';

/**
 * A script's error reply as its Lua raises it: a code (one word), the input field at fault in
 * brackets when there is one, and a text (`BAD_USER_INPUT [sortOrder] sortOrder cannot change...`).
 */
export interface ScriptError {
  code: string;
  field?: string;
  text: string;
}

function scriptErrorOf(err: unknown): ScriptError | undefined {
  if (!(err instanceof Error)) return undefined;
  const match = /^(?:ERR )?([A-Z_]+)(?: \[(\w+)\])?(?: (.*))?$/s.exec(err.message);
  return match ? { code: match[1], field: match[2], text: match[3] ?? '' } : undefined;
}

/**
 * What each error a script raises becomes, by code: a typed result for the caller, or a thrown
 * StandingsError. Each command module has its script's table; any other error (an outage, a
 * reply no table names) goes on as it is.
 */
export type ErrorTable<R> = Record<string, (error: ScriptError) => R>;

export async function decodeErrors<T, R>(call: Promise<T>, table: ErrorTable<R>): Promise<T | R> {
  try {
    return await call;
  } catch (err) {
    const error = scriptErrorOf(err);
    const decode = error && table[error.code];
    if (!decode) throw err;
    return decode(error);
  }
}

/** BAD_USER_INPUT as a script raises it, naming the field when the script does. */
export const refusedInput = ({ field, text }: ScriptError) => badInput(text, field === undefined ? undefined : { field });

/**
 * STALE_BUCKETS: the board changed since the caller read how to address it (re-created with
 * another bucket count, or given other periods); nothing was done. Read the board again and retry.
 */
export const STALE_LAYOUT = { stale: 'layout' } as const;
export type StaleLayout = typeof STALE_LAYOUT;
export const staleLayout = (): StaleLayout => STALE_LAYOUT;
