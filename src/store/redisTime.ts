import type { Cluster, Redis } from 'ioredis';
import { redisRead } from './redisCall';

/** Redis' clock (TIME) in µs since the epoch: on a Cluster, the clock of whichever node answers. */
export async function redisTimeMicros(redis: Redis | Cluster): Promise<number> {
  const [seconds, micros] = await redisRead(redis, () => redis.time());
  return Number(seconds) * 1_000_000 + Number(micros);
}
