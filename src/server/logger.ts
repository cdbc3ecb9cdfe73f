import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
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
}

const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/**
 * One JSON object a line on stdout (or `destination`). Lines written while a request is being
 * handled carry its `requestId`, wherever in the code they come from.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): pino.Logger {
  return pino(
    {
      level,
      base: { service: 'standings' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const scope = requestScope.getStore();
        return scope ? { requestId: scope.requestId } : {};
      },
    },
    destination,
  );
}

const REQUEST_ID_HEADER = 'x-request-id';
// A caller's id is kept when it is a plausible id, so it can be followed across services; anything
// else (too long, control characters) is replaced rather than written into the logs.
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * Express middleware: takes or makes the request id, returns it in the response header, and logs
 * each request when it ends (at debug level: one line per request is too many for `info`; server
 * errors at warn).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const { method, path } = req; // before routers mounted on a path rewrite it
    const offered = req.get(REQUEST_ID_HEADER);
    const requestId = offered !== undefined && REQUEST_ID.test(offered) ? offered : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.locals.requestId = requestId;
    res.once('finish', () => {
      const fields = {
        requestId,
        method,
        path,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      };
      if (res.statusCode >= 500) logger.warn(fields, 'request failed');
      else logger.debug(fields, 'request');
    });
    next();
  };
}

/**
 * Express middleware: runs the rest of the request in its log scope. It goes after the body
 * parser, whose stream callbacks would otherwise carry the scope away.
 */
export function inRequestScope(_req: Request, res: Response, next: NextFunction): void {
  requestScope.run({ requestId: res.locals.requestId as string }, next);
}
