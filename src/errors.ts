/**
 * Every error Standings reports on purpose, in one place. Each carries a stable `code` that the
 * GraphQL layer copies into `extensions.code`; anything that is not a StandingsError is treated
 * as internal and masked.
 */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNAVAILABLE: 'UNAVAILABLE',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  RATE_LIMITED: 'RATE_LIMITED',
  /** In the `entrySubmitted` feed: changes may be missing before the next event (see MissedEvents). */
  EVENTS_MISSED: 'EVENTS_MISSED',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
  // The request itself is wrong: not JSON, too large (HTTP), or a query over the limits (Apollo's codes).
  BAD_REQUEST: 'BAD_REQUEST',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * What a client may assume about a write that did not answer with data (`extensions.outcome`):
 * NOT_APPLIED when the server knows nothing was written (a check failed, or no command reached
 * Redis), UNKNOWN when a command may have reached Redis (a timeout, a connection lost while it
 * was in flight). An UNKNOWN write is retried safely only with the same idempotency key.
 */
export const WriteOutcome = { NOT_APPLIED: 'NOT_APPLIED', UNKNOWN: 'UNKNOWN' } as const;
export type WriteOutcome = (typeof WriteOutcome)[keyof typeof WriteOutcome];

export class StandingsError extends Error {
  /** Set on errors of writes (see WriteOutcome); undefined on reads. */
  outcome?: WriteOutcome;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Machine-readable detail, e.g. which field or which batch item was wrong. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'StandingsError';
  }
}

export const badInput = (message: string, details?: Record<string, unknown>) =>
  new StandingsError(ErrorCode.BAD_USER_INPUT, message, details);
const notFound = (message: string, details?: Record<string, unknown>) =>
  new StandingsError(ErrorCode.NOT_FOUND, message, details);
/** NOT_FOUND for a board id, with anything else that says where it was asked for. */
export const boardNotFound = (boardId: string, details?: Record<string, unknown>) =>
  notFound(`leaderboard ${boardId} does not exist`, { leaderboardId: boardId, ...details });
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new StandingsError(ErrorCode.CONFLICT, message, details);
export const unavailable = (message: string, outcome?: WriteOutcome) =>
  Object.assign(new StandingsError(ErrorCode.UNAVAILABLE, message), { outcome });
export const unauthenticated = (message: string) => new StandingsError(ErrorCode.UNAUTHENTICATED, message);
export const forbidden = (message: string, details?: Record<string, unknown>) =>
  new StandingsError(ErrorCode.FORBIDDEN, message, details);

/**
 * BAD_REQUEST for a WebSocket subscription past what one connection or client may hold:
 * `details.limit` names the limit, `maximum` its value, `found` what holding it would make.
 */
export const overLiveLimit = (message: string, details: { limit: string; maximum: number; found?: number }) =>
  new StandingsError(ErrorCode.BAD_REQUEST, message, details);

const MISSED_MESSAGES = {
  reconnected: 'Changes published while the server was reconnecting to Redis may be missing from this feed: read the board again; the feed goes on',
  'fell-behind': 'This subscriber fell behind and the oldest changes were dropped: read the board again; the feed goes on',
  unranked: 'A change of this period came without its ranks (the server had stopped marking the period as followed): read the period again; the feed goes on',
};

export const eventsMissed = (reason: keyof typeof MISSED_MESSAGES) =>
  new StandingsError(ErrorCode.EVENTS_MISSED, MISSED_MESSAGES[reason], { reason });

/** A later step of a write that has already changed Redis: whatever failed, the write as a whole may have happened. */
export function afterFirstWrite(err: unknown): never {
  if (err instanceof StandingsError) err.outcome = WriteOutcome.UNKNOWN;
  throw err;
}

/** RATE_LIMITED, with the hint clients need to back off (GraphQL `extensions.retryAfterSeconds`). */
export class RateLimitedError extends StandingsError {
  constructor(
    readonly retryAfterSeconds: number,
    details: Record<string, unknown>,
  ) {
    super(ErrorCode.RATE_LIMITED, `Too many requests: retry in ${retryAfterSeconds} s`, details);
  }
}
