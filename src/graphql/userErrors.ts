import { StandingsError, WriteOutcome } from '../errors';
import type { UserError, UserErrorCode } from '../generated/graphql';

/** The domain's errors a client can act on: they are reported in a mutation's payload. */
const USER_ERROR_CODES: ReadonlySet<string> = new Set<UserErrorCode>(['BAD_USER_INPUT', 'NOT_FOUND', 'CONFLICT']);

/**
 * What every payload says when its write was refused: nothing written, nothing changed. One
 * object for every mutation (each payload type reads the fields it has), so that a new mutation
 * needs nothing here.
 */
export interface Refused {
  userErrors: UserError[];
  leaderboard: null;
  player: null;
  entry: null;
  results: null;
  previousScore: null;
  previousRank: null;
  changed: false;
  replayed: false;
  removed: false;
  deleted: false;
  removedCount: 0;
}

/**
 * Told of every userError a payload carries, with the mutation field that made it: what the
 * server layer counts (see src/server/metrics.ts), injected into each operation's context.
 */
export type UserErrorObserver = (field: string, code: UserErrorCode) => void;

/**
 * The payload a mutation answers with for `err`, when `err` is an expected failure that wrote
 * nothing; undefined for anything else (a failure of the service, a refused key, or a write that
 * may have been applied in part: `extensions.outcome` UNKNOWN), which stays a GraphQL error.
 * `mutation` is the mutation's field and `args` its arguments (a userError's `field` is the path
 * to the one at fault); `observe` is told of the userError.
 */
export function refusalOf(err: unknown, mutation: string, args: Record<string, unknown>, observe: UserErrorObserver): Refused | undefined {
  if (!(err instanceof StandingsError) || !USER_ERROR_CODES.has(err.code) || err.outcome === WriteOutcome.UNKNOWN) {
    return undefined;
  }
  const userError: UserError = { code: err.code as UserErrorCode, field: fieldPath(err.details, args), message: err.message };
  observe(mutation, userError.code);
  return {
    userErrors: [userError],
    leaderboard: null, player: null, entry: null, results: null, previousScore: null, previousRank: null,
    changed: false, replayed: false, removed: false, deleted: false, removedCount: 0,
  };
}

/**
 * The domain names the value at fault by its argument or input field name (`details.field`; an
 * unknown board by `leaderboardId`) and a batch item by its position (`details.index`). Mutations
 * take either top-level arguments, one `input` object, or an `inputs` list of them (an error of
 * the list as a whole, such as its length, names `inputs` itself).
 */
function fieldPath(details: Record<string, unknown>, args: Record<string, unknown>): string[] | null {
  const field = typeof details.field === 'string' ? details.field : details.leaderboardId !== undefined ? 'leaderboardId' : undefined;
  if (field === undefined) return null;
  // A field inside an input object comes as `periods.kinds[0].retention`: one step per name and index.
  const path = field.split(/[.[\]]+/).filter((step) => step !== '');
  if ('inputs' in args && typeof details.index === 'number') return ['inputs', String(details.index), ...path];
  if ('input' in args) return ['input', ...path];
  return path;
}
