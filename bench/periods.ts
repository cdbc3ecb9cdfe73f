/**
 * bench:service's comparison of a four-period board's writes with a one-period board's
 * (./periodWrites.ts), alone: the one-period bench board and the four-period one, nothing else.
 *
 *   npm run bench:periods                          # 100,000 members, 5 rounds of 10 s
 *   npm run bench:periods -- 1000000 --rounds 7 --seconds 5 --connections 20 --warmup 3
 *
 * Results go to BENCHMARKS.md (section "periods").
 */
import { formatCount, parseArgs, runBench } from './cli';
import { growBoard, withBenchBoard } from './fixtures';
import { launchPeer } from './peers/launch';
import { measurePeriodWrites } from './periodWrites';
import { verdictTable } from './report';

const { options, sizes } = parseArgs({ rounds: 5, seconds: 10, connections: 20, warmup: 3 }, [100_000]);

async function main(): Promise<string> {
  const members = sizes[sizes.length - 1];
  let body = '';
  await withBenchBoard(members, async (redisUrl, store) => {
    console.log(`loading ${formatCount(members)} members into the one-period board`);
    await growBoard(store, 0, members, false);
    const server = await launchPeer('standings', redisUrl);
    try {
      const { verdict, markdown } = await measurePeriodWrites(store, server, members, options);
      body = [verdictTable([verdict]), '', markdown].join('\n');
    } finally {
      await server.stop();
    }
  });
  return body;
}

runBench('periods', 'bench:periods', main);
