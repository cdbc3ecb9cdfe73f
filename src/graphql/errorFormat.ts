import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError, Kind, type ASTNode } from 'graphql';
import { ErrorCode, RateLimitedError, StandingsError } from '../errors';
import { writeOutcomeOf } from './writeOutcomes';

/**
 * Errors leave the service with a stable `extensions.code`: StandingsErrors (including the
 * stores' UNAVAILABLE for a lost Redis connection) keep their code and `details`, and anything
 * unexpected is masked so internals never reach clients; the execution core logs those (see
 * isInternalError and logInternalError in execution/core.ts). `hideSchemaDetails` (production) also drops graphql-js' suggestions of field, type and
 * value names.
 */
export function createFormatError({ hideSchemaDetails = false } = {}) {
  const format = (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const where = { locations: formatted.locations, path: formatted.path };
    const known = standingsErrorOf(original);
    if (known) {
      const extensions: Record<string, unknown> = { code: known.code, details: known.details };
      if (known instanceof RateLimitedError) extensions.retryAfterSeconds = known.retryAfterSeconds;
      if (known.outcome) extensions.outcome = known.outcome;
      return { message: known.message, ...where, extensions };
    }
    const code = formatted.extensions?.code;
    if (code === ErrorCode.GRAPHQL_VALIDATION_FAILED && isInputValueError(error)) {
      return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.BAD_USER_INPUT } };
    }
    if (code === ErrorCode.INTERNAL) {
      if (isCodelessRequestError(error)) return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.BAD_REQUEST } };
      const outcome = writeOutcomeOf(original);
      return { message: 'Internal server error', ...where, extensions: { code: ErrorCode.INTERNAL, ...(outcome && { outcome }) } };
    }
    return formatted;
  };
  if (!hideSchemaDetails) return format;
  // graphql-js suggests names it knows ("Did you mean ...?"), in validation errors and in those of
  // variables alike: a schema whose introspection is off would still be spelled out to anyone guessing.
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const result = format(formatted, error);
    const message = result.message.replace(SUGGESTION, '');
    return message === result.message ? result : { ...result, message };
  };
}

/** As Apollo's hideSchemaDetailsFromClientErrors strips it. */
const SUGGESTION = / ?Did you mean(.+?)\?$/;

/** Resolvers' errors come unwrapped; a refused request's (see refusedRequest) carries it as its cause. */
function standingsErrorOf(error: unknown): StandingsError | undefined {
  if (error instanceof StandingsError) return error;
  if (error instanceof GraphQLError && error.originalError instanceof StandingsError) return error.originalError;
  return undefined;
}

const REFUSAL_STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.BAD_REQUEST]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.RATE_LIMITED]: 429,
};

/**
 * A request refused as a whole, before any field ran (no valid key, over its rate limit, a
 * subscription over HTTP): an error Apollo answers with the HTTP status the code calls for, and
 * the headers that go with it (`WWW-Authenticate` for 401, `Retry-After` for 429).
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

/**
 * The error Apollo expects execution to return when the document holds no operation the request
 * names (several and none named, or a name it does not hold), as graphql-js' execute does; Apollo
 * answers it as OPERATION_RESOLUTION_FAILURE, HTTP 400.
 */
export function operationNotFound(operationName: string | null | undefined): GraphQLError {
  return new GraphQLError(
    operationName == null
      ? 'The document holds several operations: name the one to run in operationName'
      : `The document holds no operation named ${JSON.stringify(operationName)}`,
  );
}

/** Over HTTP an operation has one answer; a subscription's stream needs the WebSocket endpoint. */
export const subscriptionOverHttp = (): GraphQLError =>
  refusedRequest(new StandingsError(
    ErrorCode.BAD_REQUEST,
    'Subscriptions are served over WebSocket, not HTTP: open a graphql-ws connection (subprotocol graphql-transport-ws) to this same URL',
  ));

/**
 * Apollo refuses a few requests with an error that has an HTTP status and no code (an APQ hash
 * that does not match its query, an APQ version other than 1), which would read as
 * INTERNAL_SERVER_ERROR; a 4xx status says the request was at fault.
 */
function isCodelessRequestError(error: unknown): boolean {
  if (!(error instanceof GraphQLError) || error.extensions.code !== undefined) return false;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
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

/**
 * Errors that formatError masks as INTERNAL: neither a StandingsError, nor one that carries a code,
 * nor one Apollo refused a request with (see isCodelessRequestError).
 */
export function isInternalError(error: GraphQLError): boolean {
  return standingsErrorOf(unwrapResolverError(error)) === undefined && error.extensions?.code === undefined
    && !isCodelessRequestError(error);
}

/** The log line of an internal error: where it happened and its stack. */
export function describeInternalError(path: readonly (string | number)[] | undefined, err: unknown): string {
  const description = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return `Internal error at ${path?.join('.') ?? 'request'}: ${description}`;
}
