import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/**
 * Benchmarks write their latest results into BENCHMARKS.md, each into its own section between
 * `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`, with the command, date and machine.
 * What stands outside the markers (headings, targets, links to bench/notes/) is the file's own
 * and is never rewritten.
 */
export const BENCHMARKS_FILE = join(__dirname, '..', 'BENCHMARKS.md');

export function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  let redis = 'redis-server not found';
  try {
    redis = execSync('redis-server --version', { encoding: 'utf8' }).trim().split(' ').slice(0, 3).join(' ');
  } catch {
    // reported as not found
  }
  return `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${redis}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A run's result as its section holds it: how to reproduce it, when and where, then what the bench reported. */
export function runRecord(command: string, body: string, date = new Date(), where = machine()): string {
  return [`Command: \`${command}\`  `, `Date: ${date.toISOString()}  `, `Machine: ${where}`, '', body.trim()].join('\n');
}

/**
 * One target of a bench against what a run measured: `met` is undefined when the run did not
 * measure what the target names (a smaller board, a mix left out).
 */
export interface Verdict {
  target: string;
  result: string;
  met: boolean | undefined;
}

/** The line a bench without a target starts its result with, where others put their verdict table. */
export const NO_TARGET = 'No target: this bench measures, it does not judge.';

/** `text` as a markdown table cell: its pipes escaped, so that they do not split the row. */
export const tableCell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The verdict table a bench's result starts with, one row per target, computed from the run's own
 * figures so that a rerun cannot leave an old verdict beside new tables.
 */
export function verdictTable(verdicts: Verdict[]): string {
  if (verdicts.length === 0) throw new Error('a verdict table needs a target; a bench without one writes NO_TARGET');
  const outcome = ({ met }: Verdict) => (met === undefined ? 'not measured' : met ? '**met**' : '**missed**');
  return [
    '| target | result | verdict |',
    '| --- | --- | --- |',
    ...verdicts.map((verdict) => `| ${tableCell(verdict.target)} | ${tableCell(verdict.result)} | ${outcome(verdict)} |`),
  ].join('\n');
}

const startMarker = (name: string) => `<!-- bench:${name}:start -->`;
const endMarker = (name: string) => `<!-- bench:${name}:end -->`;

/**
 * `text` with the section NAME holding `markdown`: the lines between its markers replaced, or,
 * when the text has no such section, the section appended under a heading of its name.
 */
export function withSection(text: string, name: string, markdown: string): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bench section name "${name}": lower-case letters, digits and dashes only`);
  const section = `${startMarker(name)}\n${markdown.trim()}\n${endMarker(name)}`;
  const start = text.indexOf(startMarker(name));
  if (start < 0) return `${text.trimEnd()}\n\n## ${name}\n\n${section}\n`;
  const end = text.indexOf(endMarker(name), start);
  if (end < 0) throw new Error(`bench section "${name}" has a start marker and no end marker`);
  return text.slice(0, start) + section + text.slice(end + endMarker(name).length);
}

/** Writes `markdown` into the section NAME of `file` (created if missing), leaving the rest of the file as it is. */
export function writeSection(file: string, name: string, markdown: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(file, withSection(text, name, markdown));
}
