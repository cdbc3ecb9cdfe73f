import { RETRY_MS, RefreshScheduler } from '../../../src/domain/live/refreshScheduler';
import { FakeClock } from '../../support/fakeClock';

/** Lets the scheduler's continuation after a finished refresh run (no time passes). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const INTERVAL = 100;

/**
 * A scheduler over a fake board: `waiting` says what waits, each refresh takes what waits (as
 * BoardFeed's does) and stays running until the test finishes it.
 */
function fixture() {
  const clock = new FakeClock();
  const waiting = { reads: false, changes: false };
  const refreshes: { at: number; withChanges: boolean; finish(failed: boolean): Promise<void> }[] = [];
  const scheduler = new RefreshScheduler(
    INTERVAL,
    {
      readsWaiting: () => waiting.reads,
      changesWaiting: () => waiting.changes,
      heldUntil: () => Infinity,
      refresh: (withChanges) =>
        new Promise<boolean>((resolve) => {
          waiting.reads = false;
          if (withChanges) waiting.changes = false;
          refreshes.push({
            at: clock.now(),
            withChanges,
            finish: (failed) => {
              // A failed read puts its watch back among those to read.
              if (failed) waiting.reads = true;
              resolve(failed);
              return settle();
            },
          });
        }),
    },
    clock,
  );
  const read = () => {
    waiting.reads = true;
    scheduler.schedule();
  };
  const changed = () => {
    waiting.changes = true;
    scheduler.schedule();
  };
  const seen = () => refreshes.map(({ at, withChanges }) => [at, withChanges]);
  return { clock, scheduler, refreshes, read, changed, seen };
}

it('reads a new watch at once', () => {
  const { clock, read, seen } = fixture();
  clock.advance(5_000);
  read();
  clock.advance(0);
  expect(seen()).toEqual([[5_000, false]]);
});

it('refreshes for changes at most once per interval, the first of a burst at once', async () => {
  const { clock, refreshes, changed, seen } = fixture();
  clock.advance(1_000);
  changed();
  clock.advance(0);
  expect(seen()).toEqual([[1_000, true]]);
  await refreshes[0].finish(false);

  clock.advance(10);
  changed();
  clock.advance(40);
  changed();
  clock.advance(49);
  expect(seen()).toHaveLength(1);
  clock.advance(1);
  expect(seen()).toEqual([[1_000, true], [1_100, true]]);
  await refreshes[1].finish(false);

  // After a quiet spell, the next change goes out at once again.
  clock.advance(500);
  changed();
  clock.advance(0);
  expect(seen()).toEqual([[1_000, true], [1_100, true], [1_600, true]]);
  await refreshes[2].finish(false);
  expect(clock.pendingTimers).toBe(0);
});

it('runs one refresh at a time, and what waited meanwhile right after it', async () => {
  const { clock, refreshes, read, changed, seen } = fixture();
  read();
  clock.advance(0);
  read();
  changed();
  clock.advance(10 * INTERVAL);
  expect(seen()).toEqual([[0, false]]);
  expect(clock.pendingTimers).toBe(0);

  await refreshes[0].finish(false);
  clock.advance(0);
  expect(seen()).toEqual([[0, false], [10 * INTERVAL, true]]);
});

it('reads new watches at once without taking changes before their interval', async () => {
  const { clock, refreshes, read, changed, seen } = fixture();
  changed();
  clock.advance(0);
  await refreshes[0].finish(false);

  clock.advance(20);
  changed();
  clock.advance(10);
  read(); // an earlier timer replaces the one set for the changes
  clock.advance(0);
  expect(seen()).toEqual([[0, true], [30, false]]);
  await refreshes[1].finish(false);

  clock.advance(INTERVAL - 30);
  expect(seen()).toEqual([[0, true], [30, false], [INTERVAL, true]]);
});

it('reads again after a failed read once RETRY_MS has passed, not before', async () => {
  const { clock, refreshes, read, seen } = fixture();
  read();
  clock.advance(0);
  await refreshes[0].finish(true);
  clock.advance(RETRY_MS - 1);
  expect(seen()).toHaveLength(1);
  clock.advance(1);
  expect(seen()).toEqual([[0, false], [RETRY_MS, false]]);

  // Once a read succeeds, new watches are read at once again.
  await refreshes[1].finish(false);
  read();
  clock.advance(0);
  expect(seen()).toEqual([[0, false], [RETRY_MS, false], [RETRY_MS, false]]);
});

it('refreshes for changes on their interval while a failed read waits to be retried', async () => {
  const { clock, refreshes, read, changed, seen } = fixture();
  read();
  clock.advance(0);
  await refreshes[0].finish(true);
  clock.advance(10);
  changed();
  clock.advance(0);
  expect(seen()).toEqual([[0, false], [10, true]]);
});

it('starts no refresh once stopped: neither one due nor one waiting for a refresh in flight', async () => {
  const due = fixture();
  due.read();
  due.scheduler.stop();
  expect(due.clock.pendingTimers).toBe(0);
  due.clock.advance(RETRY_MS);
  expect(due.seen()).toEqual([]);

  const inFlight = fixture();
  inFlight.read();
  inFlight.clock.advance(0);
  inFlight.changed();
  inFlight.scheduler.stop();
  await inFlight.refreshes[0].finish(true);
  inFlight.clock.advance(RETRY_MS);
  expect(inFlight.seen()).toEqual([[0, false]]);
  expect(inFlight.clock.pendingTimers).toBe(0);
});
