/**
 * What a server costs while nothing happens: the shipped entry point (bench/mainProcess.ts) on a
 * throwaway Redis, left alone once started; its CPU time (every thread, /proc/PID/task/TID/schedstat)
 * and how often its main thread wakes up (voluntary context switches, /proc/PID/status), per
 * second. Timers that fire whether or not there is work show here, and in every live update's
 * CPU in bench:live.
 *
 *   npm run bench:idle                                # 3 rounds of 10 s after 10 s to settle
 *   npm run bench:idle -- --rounds 5 --seconds 20
 */
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs, runBench } from './cli';
import { withBenchRedis } from './fixtures';
import { allThreadsCpuNs } from './load';
import { startServer, stopServer } from './mainProcess';
import { median, NO_TARGET } from './report';

const { options } = parseArgs({ rounds: 3, seconds: 10, settle: 10 }, []);

/** CPU ns of every thread of `pid` so far, and its main thread's voluntary context switches. */
function counters(pid: number): { cpuNs: number; wakeups: number } {
  const wakeups = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return { cpuNs: allThreadsCpuNs(pid), wakeups };
}

async function main(): Promise<string> {
  return withBenchRedis(async (redis) => {
    const server = await startServer(redis.url, {});
    try {
      await delay(options.settle * 1000);
      const rows: { cpuMs: number; wakeups: number }[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const before = counters(server.child.pid!);
        await delay(options.seconds * 1000);
        const after = counters(server.child.pid!);
        rows.push({ cpuMs: (after.cpuNs - before.cpuNs) / 1e6 / options.seconds, wakeups: (after.wakeups - before.wakeups) / options.seconds });
      }
      return [
        NO_TARGET,
        '',
        `The server (NODE_ENV=production, one worker) with nothing to do, ${options.settle} s after it was ready, ${options.rounds} rounds of ${options.seconds} s.`,
        '',
        '| round | CPU ms per second (all threads) | main thread wake-ups per second |',
        '| --- | --- | --- |',
        ...rows.map((row, i) => `| ${i + 1} | ${row.cpuMs.toFixed(2)} | ${row.wakeups.toFixed(0)} |`),
        `| median | ${median(rows.map((row) => row.cpuMs)).toFixed(2)} | ${median(rows.map((row) => row.wakeups)).toFixed(0)} |`,
      ].join('\n');
    } finally {
      await stopServer(server);
    }
  });
}

runBench('idle', 'bench:idle', main);
