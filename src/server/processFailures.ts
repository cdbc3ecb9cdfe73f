import { inspect } from 'node:util';
import type { Logger } from './logger';

/**
 * What a serving process does with failures that reach no caller. A promise rejection nobody
 * handled is logged at error level with its stack and counted (`countRejection`: the metric
 * standings_unhandled_rejections_total), and the process keeps serving. Node's default would end
 * it, and with it every client's connection and subscription, for one operation that failed on
 * its own: a rejection is the end of an async step (a Redis call, a timer's work) that stopped
 * where it failed, so what it leaves behind is that operation's business, not the process'. It
 * is still a bug (something did not answer its caller): the counter is for alerting on.
 *
 * An uncaught exception stays fatal: it was thrown out of a callback part-way through changing
 * whatever that callback changes (a socket's state, a map of subscriptions), and nothing can say
 * what is left half done. It is logged through `logger` (the monitor event leaves Node's
 * handling as it is), then Node prints it and exits with code 1; the orchestrator (or the
 * primary, for a worker) starts a new process.
 */
export function handleProcessFailures(process: NodeJS.EventEmitter, logger: Logger, countRejection: () => void): void {
  process.on('unhandledRejection', (reason: unknown) => {
    countRejection();
    logger.error(`Unhandled promise rejection (the process serves on): ${inspect(reason)}`);
  });
  process.on('uncaughtExceptionMonitor', (err: unknown) => {
    logger.error(`Uncaught exception, exiting: ${inspect(err)}`);
  });
}
