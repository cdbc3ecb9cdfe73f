import { randomBytes } from 'node:crypto';
import pino, { type DestinationStream } from 'pino';
import type { LogLevel } from './config';

interface LogMethod {
  (message: string): void;
  (fields: Record<string, unknown>, message: string): void;
}

/** What the server logs through: pino in the service, a recorder in tests. */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** pino's: lets a hot path skip building a line that would not be written. */
  isLevelEnabled?(level: string): boolean;
}

/**
 * One JSON object a line on stdout (or `destination`). Lines about a request carry its
 * `requestId` as a field, passed where the line is written: a request scope that follows the
 * request through every await (AsyncLocalStorage) cost 15-20% of read throughput (bench:profile).
 *
 * Each line is written before the call returns, not in the background (pino's default): the
 * service writes few lines (start, stop, failures), and a background write still on its way when
 * the process exits can land after the lines written at exit, or be lost to a crash. `process.exit`
 * right after a line is therefore safe.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = pino.destination({ dest: 1, sync: true })): pino.Logger {
  return pino(
    {
      level,
      base: { service: 'standings' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

export const REQUEST_ID_HEADER = 'x-request-id';
// A caller's id is kept when it is a plausible id, so it can be followed across services; anything
// else (too long, control characters) is replaced rather than written into the logs.
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * A new id is this process' random prefix and a counter: unique across processes (workers,
 * instances) by the prefix and within one by the counter, without a random UUID per request
 * (which showed in bench:profile).
 */
const ID_PREFIX = randomBytes(8).toString('hex');
let issued = 0;

/** The id of a request: the caller's x-request-id when it is plausible, else a new one. */
export function requestIdOf(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : `${ID_PREFIX}-${(++issued).toString(16)}`;
}
