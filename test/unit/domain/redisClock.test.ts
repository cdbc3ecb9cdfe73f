// RedisMomentClock (issue 34, "one clock for reads"): Node's "now" is Redis' clock, kept as an
// offset from the local clock measured at the midpoint of each TIME round trip.
import { RedisMomentClock } from '../../../src/domain/periods/redisClock';

/** A local clock the test moves, and a Redis whose clock runs `ahead` µs in front of it, answering after `roundTrip` µs. */
function clocks(ahead: number, roundTrip = 0) {
  let local = 1_000_000_000;
  let failing = false;
  const redisNow = async () => {
    if (failing) throw new Error('Redis is not answering');
    local += roundTrip / 2;
    const answer = local + ahead;
    local += roundTrip / 2;
    return answer;
  };
  return {
    clock: new RedisMomentClock(redisNow, () => local),
    advance: (micros: number) => { local += micros; },
    local: () => local,
    fail: () => { failing = true; },
  };
}

it('answers Redis\' time, not the local one, once measured', async () => {
  const { clock, advance, local } = clocks(-5_000_000);
  expect(clock.nowMicros()).toBe(local()); // before any sample, the local clock stands alone
  expect(await clock.sync()).toBe(true);
  expect(clock.nowMicros()).toBe(local() - 5_000_000);
  advance(60_000_000);
  expect(clock.nowMicros()).toBe(local() - 5_000_000);
});

it('takes each sample at the midpoint of its round trip', async () => {
  const { clock, local } = clocks(3_000_000, 800);
  await clock.sync();
  expect(clock.nowMicros()).toBe(local() + 3_000_000);
});

it('keeps the last offset when Redis does not answer', async () => {
  const { clock, local, fail } = clocks(7_000_000);
  await clock.sync();
  fail();
  expect(await clock.sync()).toBe(false);
  expect(clock.nowMicros()).toBe(local() + 7_000_000);
});
