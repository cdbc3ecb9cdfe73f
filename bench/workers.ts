/**
 * bench:service's comparison of one worker with more (./workerCounts.ts), alone.
 *
 *   npm run bench:workers                    # 10,000 members, 3 rounds of 5 s, 1 and 2 workers
 *   npm run bench:workers -- 100000 --rounds 5 --seconds 10 --connections 40 --workers 4
 *
 * Results go to BENCHMARKS.md (section "workers").
 */
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { measureWorkerCounts, withWorkerCounts, workerCountsTable } from './workerCounts';
import { NO_TARGET } from './report';

const { options, sizes } = parseArgs({ rounds: 3, seconds: 5, connections: 40, warmup: 2, workers: 2 }, [10_000]);

runBench('workers', 'bench:workers', async () => {
  const rows: string[] = [];
  await withBenchBoard(sizes[sizes.length - 1], (redisUrl, store) => withWorkerCounts(redisUrl, options, async (servers) => {
    let loaded = 0;
    for (const members of sizes) {
      console.log(`loading ${formatCount(members)} members`);
      await growBoard(store, loaded, members, false);
      loaded = members;
      rows.push(...(await measureWorkerCounts(members, servers, options)));
    }
  }));
  return [NO_TARGET, '', workerCountsTable(options, rows)].join('\n');
});
