import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { runRecord, verdictTable, withSection, writeSection } from '../../../bench/report';

const FILE_TEXT = [
  '# Benchmarks',
  '',
  '## Memory',
  '',
  'Target: kept by hand.',
  '',
  '<!-- bench:memory:start -->',
  'old memory table',
  '<!-- bench:memory:end -->',
  '',
  '## Live',
  '',
  '<!-- bench:live:start -->',
  'live table',
  '<!-- bench:live:end -->',
  '',
  '<!-- bench:live-rounds:start -->',
  'live rounds table',
  '<!-- bench:live-rounds:end -->',
  '',
].join('\n');

describe('withSection', () => {
  it('replaces what is between the section\'s markers and nothing else', () => {
    const after = withSection(FILE_TEXT, 'memory', 'new memory table\n');
    expect(after).toBe(FILE_TEXT.replace('old memory table', 'new memory table'));
  });

  it('tells a section from another whose name it begins', () => {
    const after = withSection(FILE_TEXT, 'live', 'new live table');
    expect(after).toBe(FILE_TEXT.replace('live table\n<!-- bench:live:end', 'new live table\n<!-- bench:live:end'));
    expect(after).toContain('live rounds table');
  });

  it('appends a section the file does not have, under a heading of its name', () => {
    const after = withSection(FILE_TEXT, 'abuse', 'abuse table');
    expect(after.startsWith(FILE_TEXT.trimEnd())).toBe(true);
    expect(after.slice(FILE_TEXT.trimEnd().length)).toBe(
      '\n\n## abuse\n\n<!-- bench:abuse:start -->\nabuse table\n<!-- bench:abuse:end -->\n',
    );
  });

  it('gives the same file when written twice with the same result', () => {
    for (const name of ['memory', 'abuse']) {
      const once = withSection(FILE_TEXT, name, 'table\n\n');
      expect(withSection(once, name, 'table')).toBe(once);
    }
  });

  it('refuses a section with a start marker and no end marker, and names that would not make markers', () => {
    expect(() => withSection('<!-- bench:memory:start -->\nold', 'memory', 'new')).toThrow(/no end marker/);
    expect(() => withSection(FILE_TEXT, 'live -->', 'new')).toThrow(/section name/);
  });
});

describe('writeSection', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(os.tmpdir(), 'bench-report-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rewrites one section of the file in place', () => {
    const file = join(dir, 'BENCHMARKS.md');
    writeFileSync(file, FILE_TEXT);
    writeSection(file, 'live-rounds', 'new rounds');
    expect(readFileSync(file, 'utf8')).toBe(FILE_TEXT.replace('live rounds table', 'new rounds'));
  });

  it('starts a file that does not exist yet', () => {
    const file = join(dir, 'BENCHMARKS.md');
    writeSection(file, 'idle', 'idle table');
    expect(readFileSync(file, 'utf8')).toBe('# Benchmarks\n\n## idle\n\n<!-- bench:idle:start -->\nidle table\n<!-- bench:idle:end -->\n');
  });
});

it('records a run with its command, date and machine above what the bench reported', () => {
  const record = runRecord('npm run bench:idle', '\n| a |\n', new Date('2026-12-06T03:00:00Z'), '2 cores');
  expect(record).toBe('Command: `npm run bench:idle`  \nDate: 2026-12-06T03:00:00.000Z  \nMachine: 2 cores\n\n| a |');
});

describe('verdictTable', () => {
  it('gives one row per target with its result and whether the run met it', () => {
    const table = verdictTable([
      { target: 'bytes per member at 1,000,000 members <= 130', result: '128.0', met: true },
      { target: 'entries(100 ids) / peer >= 2.00', result: '0.94', met: false },
      { target: 'p99 < 250 ms at 10,000 subscribers', result: 'no row with 10,000 subscribers', met: undefined },
    ]);
    expect(table).toBe([
      '| target | result | verdict |',
      '| --- | --- | --- |',
      '| bytes per member at 1,000,000 members <= 130 | 128.0 | **met** |',
      '| entries(100 ids) / peer >= 2.00 | 0.94 | **missed** |',
      '| p99 < 250 ms at 10,000 subscribers | no row with 10,000 subscribers | not measured |',
    ].join('\n'));
  });

  it('keeps a cell\'s pipes from splitting the row', () => {
    expect(verdictTable([{ target: 'a | b', result: 'c', met: true }]).split('\n')[2]).toBe('| a \\| b | c | **met** |');
  });

  it('refuses an empty table: a bench without a target says so in a line', () => {
    expect(() => verdictTable([])).toThrow(/NO_TARGET/);
  });
});
