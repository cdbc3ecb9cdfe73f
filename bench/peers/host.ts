/**
 * The child side of a bench peer: each contender runs in its own process, so the load generator
 * never shares its event loop. The parent (./launch.ts) passes REDIS_URL, waits for the URL the
 * peer listens on, and sends 'stop' when done; the peer then exits cleanly, which is also when
 * `node --cpu-prof` writes its profile.
 */
import type Redis from 'ioredis';
import { createRedisClient, waitUntilReady } from '../../src/server/redis';
import { sampleHeapOnSignal } from './heapSampler';

export interface RunningPeer {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:40123/graphql. */
  url: string;
  close(): Promise<void>;
}

export function hostPeer(start: (redis: Redis) => Promise<RunningPeer>): void {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !process.send) throw new Error('a bench peer runs as a child of bench/peers/launch.ts');
  // The same client settings as the product's entry point, for every contender.
  const redis = createRedisClient(redisUrl, console);
  // bench/allocations.ts samples what each peer allocates.
  if (process.env.BENCH_HEAP_SAMPLES) sampleHeapOnSignal(process.env.BENCH_HEAP_SAMPLES);
  // An orphaned peer must not outlive its bench.
  process.on('disconnect', () => process.exit(0));
  waitUntilReady(redis, redisUrl, 10_000)
    .then(() => start(redis))
    .then((peer) => {
      process.on('message', (message) => {
        if (message !== 'stop') return;
        void peer.close().finally(() => {
          redis.disconnect();
          process.exit(0);
        });
      });
      process.send!({ url: peer.url });
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
