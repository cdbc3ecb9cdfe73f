// The service's log lines are written before the logging call returns: a process that exits
// right after a line (as the server does once stopped) keeps every line, in order.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOGGER = join(__dirname, '..', '..', '..', 'src', 'server', 'logger.ts');

/** Runs `script` with the logger as `createLogger`, its stdout going to a file; the file's lines. */
function logged(script: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'standings-logger-'));
  try {
    const out = join(dir, 'stdout');
    const stdout = openSync(out, 'w');
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e',
      `const fs = require('node:fs'); const { createLogger } = require(${JSON.stringify(LOGGER)}); ${script}`], {
      encoding: 'utf8', stdio: ['ignore', stdout, 'pipe'],
    });
    closeSync(stdout);
    expect(run.stderr).toBe('');
    return readFileSync(out, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('has written a line when the call returns', () => {
  const lines = logged(`const logger = createLogger('info'); logger.info('first'); logger.info('then ' + fs.fstatSync(1).size);`);
  const [first, then] = lines.map((line) => JSON.parse(line) as { msg: string; level: string });
  expect(first).toMatchObject({ msg: 'first', level: 'info' });
  expect(Number(then.msg.split(' ')[1])).toBe(Buffer.byteLength(lines[0]) + 1);
});

it('keeps every line, in order, when the process exits right after them', () => {
  const lines = logged(`const logger = createLogger('info'); for (let i = 0; i < 500; i++) logger.info('line ' + i + ' ' + 'x'.repeat(200)); logger.info('Stopped'); process.exit(0);`);
  expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg.split(' ').slice(0, 2).join(' '))).toEqual([
    ...Array.from({ length: 500 }, (_, i) => `line ${i}`),
    'Stopped',
  ]);
});
