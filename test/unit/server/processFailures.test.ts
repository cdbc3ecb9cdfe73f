// The serving process' policy (src/server/processFailures.ts), in a Node process of its own with
// the service's logger and metrics: a rejection nothing handles is logged with its stack and
// counted, and the process goes on; an uncaught exception is logged, and the process exits 1.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const SERVER = join(__dirname, '..', '..', '..', 'src', 'server');

it('logs and counts an unhandled rejection and serves on; logs an uncaught exception and exits', () => {
  const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', `
    const { handleProcessFailures } = require(${JSON.stringify(join(SERVER, 'processFailures.ts'))});
    const { createLogger } = require(${JSON.stringify(join(SERVER, 'logger.ts'))});
    const { countUnhandledRejection, metricsText } = require(${JSON.stringify(join(SERVER, 'metrics.ts'))});
    const logger = createLogger('info');
    handleProcessFailures(process, logger, countUnhandledRejection);
    Promise.reject(new Error('lost'));
    setImmediate(async () => {
      const counted = (await metricsText()).split('\\n').find((line) => line.startsWith('standings_unhandled_rejections_total '));
      logger.info('still serving, ' + counted);
      setImmediate(() => { throw new Error('thrown'); });
    });
  `], { encoding: 'utf8' });

  const lines = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: string; msg: string });
  expect(lines.map(({ level, msg }) => ({ level, msg: msg.split('\n')[0] }))).toEqual([
    { level: 'error', msg: 'Unhandled promise rejection (the process serves on): Error: lost' },
    { level: 'info', msg: 'still serving, standings_unhandled_rejections_total 1' },
    { level: 'error', msg: 'Uncaught exception, exiting: Error: thrown' },
  ]);
  // With the stack: where it was rejected.
  expect(lines[0].msg).toMatch(/\n\s+at /);
  expect(run.status).toBe(1);
});
