// The real entry point (src/server/main.ts, through ts-node) in a child process, for tests of
// start-up, signals and workers.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';

const MAIN = path.join(__dirname, '..', '..', 'src', 'server', 'main.ts');

export interface Run {
  child: ChildProcess;
  output: () => string;
  /** The `msg` of each JSON log line, in order; fails on a line that is not JSON. */
  messages: () => string[];
  /** Resolves with the first match in the output, rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

export function runMain(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', MAIN], {
    // Only what the test sets, so a developer's REDIS_URL or PORT cannot leak in.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    listeners.forEach((check) => check());
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    messages: () => output.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg),
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            listeners.delete(check);
            resolve(match);
          }
        };
        listeners.add(check);
        check();
        void exited.then((code) => reject(new Error(`exited (${code}) before printing ${pattern}:\n${output}`)));
      }),
  };
}
