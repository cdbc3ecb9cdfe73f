import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/**
 * Benchmarks write their latest results into BENCHMARKS.md, each into its own section between
 * `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, with the command, date and machine.
 */
const FILE = join(__dirname, '..', 'BENCHMARKS.md');

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

export function writeSection(name: string, command: string, body: string): void {
  const section = [
    `<!-- bench:${name} -->`,
    `Command: \`${command}\`  `,
    `Date: ${new Date().toISOString()}  `,
    `Machine: ${machine()}`,
    '',
    body.trim(),
    `<!-- /bench:${name} -->`,
  ].join('\n');
  const text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '# Benchmarks\n';
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  writeFileSync(FILE, pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}\n`);
}
