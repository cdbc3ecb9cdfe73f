import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError, Kind, type ASTNode } from 'graphql';
import { ErrorCode, RateLimitedError, StandingsError } from '../errors';

/**
 * Errors leave the service with a stable `extensions.code`: StandingsErrors (including the
 * stores' UNAVAILABLE for a lost Redis connection) keep their code and `details`, and anything
 * unexpected is masked so internals never reach clients. Whoever runs the operation logs those
 * (see isInternalError): internalErrorLog over HTTP, the WebSocket server for subscriptions.
 */
export function createFormatError() {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const where = { locations: formatted.locations, path: formatted.path };
    const known = standingsErrorOf(original);
    if (known) {
      const extensions: Record<string, unknown> = { code: known.code, details: known.details };
      if (known instanceof RateLimitedError) extensions.retryAfterSeconds = known.retryAfterSeconds;
      return { message: known.message, ...where, extensions };
    }
    const code = formatted.extensions?.code;
    if (code === ErrorCode.GRAPHQL_VALIDATION_FAILED && isInputValueError(error)) {
      return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.BAD_USER_INPUT } };
    }
    if (code === ErrorCode.INTERNAL) {
      return { message: 'Internal server error', ...where, extensions: { code: ErrorCode.INTERNAL } };
    }
    return formatted;
  };
}

/** Resolvers' errors come unwrapped; a refused request's (see refusedRequest) carries it as its cause. */
function standingsErrorOf(error: unknown): StandingsError | undefined {
  if (error instanceof StandingsError) return error;
  if (error instanceof GraphQLError && error.originalError instanceof StandingsError) return error.originalError;
  return undefined;
}

const REFUSAL_STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.RATE_LIMITED]: 429,
};

/**
 * A request refused as a whole, before any field ran (no valid key, over its rate limit): an
 * error Apollo answers with the HTTP status the code calls for, and the headers that go with it
 * (`WWW-Authenticate` for 401, `Retry-After` for 429).
 */
export function refusedRequest(error: StandingsError): GraphQLError {
  const headers = new Map<string, string>();
  if (error.code === ErrorCode.UNAUTHENTICATED) headers.set('www-authenticate', 'Bearer');
  if (error instanceof RateLimitedError) headers.set('retry-after', String(error.retryAfterSeconds));
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, http: { status: REFUSAL_STATUS[error.code] ?? 500, headers } },
  });
}

const VALUE_KINDS: ReadonlySet<string> = new Set([
  Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.LIST, Kind.OBJECT, Kind.OBJECT_FIELD,
]);

/**
 * graphql-js rejects a bad literal argument (an unknown enum value, 3.5 for an Int, a malformed
 * DateTime) during validation, which Apollo reports as GRAPHQL_VALIDATION_FAILED; the same value
 * passed as a variable is BAD_USER_INPUT. Those errors point at the offending value node, which
 * tells them apart from errors about the query's shape (unknown fields, missing arguments).
 */
function isInputValueError(error: unknown): boolean {
  const nodes = (error as { nodes?: readonly ASTNode[] }).nodes;
  return nodes !== undefined && nodes.length > 0 && nodes.every((node) => VALUE_KINDS.has(node.kind));
}

/** Errors that formatError masks as INTERNAL: neither a StandingsError nor one that carries a code. */
export function isInternalError(error: GraphQLError): boolean {
  return standingsErrorOf(unwrapResolverError(error)) === undefined && error.extensions?.code === undefined;
}

/** The log line of an internal error: where it happened and its stack. */
export function describeInternalError(path: readonly (string | number)[] | undefined, err: unknown): string {
  const description = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return `Internal error at ${path?.join('.') ?? 'request'}: ${description}`;
}
