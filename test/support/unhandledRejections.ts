import * as vm from 'node:vm';

/**
 * Records the rejections that the process finds without a handler, from now until `stop()`. On
 * the real process: the `process` Jest gives a test file is a copy whose listeners never hear of
 * them, and Jest forgives one that is handled later, where a Node process without a listener
 * (the service before it had one) ends at once.
 */
export function recordUnhandledRejections(): { readonly reasons: unknown[]; stop(): void } {
  const real = vm.runInThisContext('process') as NodeJS.Process;
  const reasons: unknown[] = [];
  const record = (reason: unknown) => reasons.push(reason);
  real.on('unhandledRejection', record);
  return { reasons, stop: () => real.off('unhandledRejection', record) };
}
