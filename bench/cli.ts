/** The command line of the service benches: options, member counts, and where results go. */
import { BENCHMARKS_FILE, runRecord, writeSection } from './report';

/**
 * `--name value` options (numbers; a comma-separated list where the default is a list) with
 * defaults, then member counts in increasing order.
 */
export function parseArgs<T extends Record<string, number | number[]>>(defaults: T, defaultSizes: number[]) {
  const args = process.argv.slice(2);
  const options: Record<string, number | number[]> = { ...defaults };
  for (const name of Object.keys(defaults)) {
    const at = args.indexOf(`--${name}`);
    if (at < 0) continue;
    const value = args.splice(at, 2)[1] ?? '';
    options[name] = Array.isArray(defaults[name]) ? value.split(',').map(Number) : Number(value);
  }
  const unknown = args.find((arg) => arg.startsWith('--') || !Number.isInteger(Number(arg)) || Number(arg) <= 0);
  if (unknown !== undefined) throw new Error(`unknown argument ${unknown}; options: ${Object.keys(defaults).map((n) => `--${n}`).join(' ')}, then member counts`);
  const sizes = args.length ? args.map(Number).sort((a, b) => a - b) : defaultSizes;
  return { options: options as T, sizes };
}

/**
 * Runs a bench and writes the markdown it returns into its BENCHMARKS.md section, with the
 * command that reproduces the run; a failed bench writes nothing and exits 1.
 */
/**
 * `file`: where the run goes; BENCHMARKS.md by default, a bench/notes/ file for a bench that has
 * no target (a tool for looking into a cost, whose tables would bury the results there).
 */
export function runBench(section: string, script: string, bench: () => Promise<string>, file = BENCHMARKS_FILE): void {
  const given = process.argv.slice(2).join(' ');
  bench().then(
    (body) => {
      writeSection(file, section, runRecord(given ? `npm run ${script} -- ${given}` : `npm run ${script}`, body));
      console.log(body);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

export const formatCount = (n: number) => n.toLocaleString('en-US');
