/**
 * V8's sampling heap profiler in a bench peer, for bench/allocations.ts: the first SIGUSR2 starts
 * it, the next writes what was allocated meanwhile to `<dir>/<pid>.heapprofile`, collected objects
 * included (so it counts every allocation, not what stayed alive), and starts it again.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/** Bytes between samples: small enough that per-request objects of a few dozen bytes are seen. */
const SAMPLING_INTERVAL = 4096;

export function sampleHeapOnSignal(dir: string): void {
  const session = new Session();
  session.connect();
  let sampling = false;
  const start = () => session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
  } as object);
  session.post('HeapProfiler.enable', () => {
    process.on('SIGUSR2', () => {
      if (!sampling) {
        sampling = true;
        return start();
      }
      session.post('HeapProfiler.stopSampling', (err, result) => {
        if (err) throw err;
        // Renamed into place once written, so the bench never reads half a file.
        const file = join(dir, `${process.pid}.heapprofile`);
        writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
        renameSync(`${file}.partial`, file);
        start();
      });
    });
  });
}
