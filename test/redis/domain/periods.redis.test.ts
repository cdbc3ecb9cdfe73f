// One write, every period (issue 13): submissions land in every kept period holding their moment,
// the moment being the script's (here the test clock's, through the store's test-only "now").
// Moments are in the future of the machine's clock, so the PEXPIREATs they set leave keys in place.
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import type { PeriodConfigInput } from '../../../src/domain/periods/settings';
import { boardKeys } from '../../../src/store/keys';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import type { UpdatePolicy } from '../../../src/model';
import { newTestClient, scanBoardKeys, uniqueId } from '../../support/redis';

const micros = (iso: string) => Date.parse(iso) * 1000;

let redis: Redis;
/** Redis' "now" as the submit script sees it, and Node's, which may differ. */
let scriptNow = 0;
/** Moments the script takes, one per call, before it falls back to scriptNow. */
let scriptNows: number[] = [];
let nodeNow = 0;
let leaderboards: Leaderboards;
beforeAll(() => {
  redis = newTestClient();
  leaderboards = new Leaderboards(new LeaderboardStore(redis, { testNow: () => scriptNows.shift() ?? scriptNow }), undefined, { nowMicros: () => nodeNow });
});
afterAll(() => redis.quit());

const at = (iso: string) => {
  scriptNow = nodeNow = micros(iso);
};

async function board(periods: PeriodConfigInput, updatePolicy: UpdatePolicy = 'BEST'): Promise<string> {
  const id = uniqueId('periods');
  await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy, periods });
  return id;
}

const submit = (boardId: string, playerId: string, score: number, extra: { reachedAtMicros?: number; idempotencyKey?: string } = {}) =>
  leaderboards.submitOne({ boardId, playerId, score, ...extra });

/** A period's entries as [player, score], top-down. */
async function standings(boardId: string, kind: string, key: string): Promise<[string, number][]> {
  const page = await leaderboards.store.page({ boardId, kind, key }, { limit: 100 });
  return page.entries.map((e) => [e.playerId, e.score]);
}

describe('a live submission lands in every kept period holding its moment', () => {
  it('rolls a Tokyo daily board over at Tokyo midnight, by the script\'s clock', async () => {
    const id = await board({ timeZone: 'Asia/Tokyo', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] });
    at('2027-03-01T14:59:59.999999Z'); // 23:59:59.999999 in Tokyo
    await submit(id, 'a', 10);
    at('2027-03-01T15:00:00Z');
    await submit(id, 'b', 5);
    expect(await standings(id, 'DAILY', '2027-03-01')).toEqual([['a', 10]]);
    expect(await standings(id, 'DAILY', '2027-03-02')).toEqual([['b', 5]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['a', 10], ['b', 5]]);
  });

  it('puts writes in the hours of the zone\'s clock: over the hour Berlin skips, and both halves of the hour Santiago repeats', async () => {
    const berlin = await board({ timeZone: 'Europe/Berlin', kinds: [{ kind: 'HOURLY' }] });
    at('2027-03-28T00:59:59.999999Z'); // 01:59:59.999999, then the clocks jump to 03:00
    await submit(berlin, 'before', 1);
    at('2027-03-28T01:00:00Z');
    await submit(berlin, 'after', 2);
    expect(await standings(berlin, 'HOURLY', '2027-03-28T01')).toEqual([['before', 1]]);
    expect(await standings(berlin, 'HOURLY', '2027-03-28T03')).toEqual([['after', 2]]);
    const santiago = await board({ timeZone: 'America/Santiago', kinds: [{ kind: 'HOURLY' }] });
    at('2027-04-04T02:30:00Z'); // 23:30 (-03), then 00:00 becomes 23:00 (-04)
    await submit(santiago, 'first', 1);
    at('2027-04-04T03:30:00Z'); // 23:30 again
    await submit(santiago, 'second', 2);
    expect(await standings(santiago, 'HOURLY', '2027-04-03T23')).toEqual([['second', 2], ['first', 1]]);
  });

  it('lets Redis\' clock decide when Node\'s is on the other side of midnight', async () => {
    const id = await board({ kinds: [{ kind: 'DAILY' }] });
    nodeNow = micros('2027-03-01T23:59:59.9Z');
    scriptNow = micros('2027-03-02T00:00:00.1Z');
    await submit(id, 'late', 1);
    nodeNow = micros('2027-03-03T00:00:00.1Z');
    scriptNow = micros('2027-03-02T23:59:59.9Z');
    await submit(id, 'early', 2);
    expect(await standings(id, 'DAILY', '2027-03-02')).toEqual([['early', 2], ['late', 1]]);
    expect(await standings(id, 'DAILY', '2027-03-01')).toEqual([]);
    expect(await standings(id, 'DAILY', '2027-03-03')).toEqual([]);
  });

  it('gives up with UNAVAILABLE, NOT_APPLIED, when Redis\' moment leaves the windows twice', async () => {
    const id = await board({ kinds: [{ kind: 'DAILY' }] });
    nodeNow = micros('2027-03-01T12:00:00Z');
    scriptNows = [micros('2027-03-02T12:00:00Z'), micros('2027-03-03T12:00:00Z')];
    await expect(submit(id, 'a', 1)).rejects.toMatchObject({ code: 'UNAVAILABLE', outcome: 'NOT_APPLIED' });
    for (const day of ['2027-03-01', '2027-03-02', '2027-03-03']) expect(await standings(id, 'DAILY', day)).toEqual([]);
  });

  it.each([
    // first instant, last instant, first instant of the next day
    ['2027-03-28', 23, '2027-03-27T23:00:00Z', '2027-03-28T21:59:59.999999Z', '2027-03-28T22:00:00Z', '2027-03-29'],
    ['2027-10-31', 25, '2027-10-30T22:00:00Z', '2027-10-31T22:59:59.999999Z', '2027-10-31T23:00:00Z', '2027-11-01'],
  ])('keeps Berlin\'s day %s of %i hours as one period', async (day, _hours, first, last, next, nextDay) => {
    const id = await board({ timeZone: 'Europe/Berlin', kinds: [{ kind: 'DAILY' }] });
    for (const [moment, player, score] of [[first, 'first', 1], [last, 'last', 2], [next, 'next', 3]] as const) {
      at(moment);
      await submit(id, player, score);
    }
    expect(await standings(id, 'DAILY', day)).toEqual([['last', 2], ['first', 1]]);
    expect(await standings(id, 'DAILY', nextDay)).toEqual([['next', 3]]);
  });

  it('keeps an ISO week across a year boundary, and months and years apart', async () => {
    const id = await board({ kinds: [{ kind: 'WEEKLY' }, { kind: 'MONTHLY' }, { kind: 'YEARLY' }] });
    for (const [moment, player] of [['2027-12-31T12:00:00Z', 'fri'], ['2028-01-02T23:59:59Z', 'sun'], ['2028-01-03T00:00:00Z', 'mon']]) {
      at(moment);
      await submit(id, player, 1);
    }
    expect((await standings(id, 'WEEKLY', '2027-W52')).map(([p]) => p)).toEqual(['fri', 'sun']);
    expect((await standings(id, 'WEEKLY', '2028-W01')).map(([p]) => p)).toEqual(['mon']);
    expect((await standings(id, 'MONTHLY', '2027-12')).map(([p]) => p)).toEqual(['fri']);
    expect((await standings(id, 'MONTHLY', '2028-01')).map(([p]) => p)).toEqual(['sun', 'mon']);
    expect((await standings(id, 'YEARLY', '2027')).map(([p]) => p)).toEqual(['fri']);
    expect((await standings(id, 'YEARLY', '2028')).map(([p]) => p)).toEqual(['sun', 'mon']);
  });

  it('stops writing a season at its end; between seasons a submission lands in the other kinds only', async () => {
    const id = await board({
      kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON' }],
      seasons: [{ id: 's1', start: micros('2027-01-01T00:00:00Z'), end: micros('2027-06-01T00:00:00Z') }],
    });
    at('2027-05-31T23:59:59.999999Z');
    await submit(id, 'in', 1);
    at('2027-06-01T00:00:00Z');
    await submit(id, 'after', 2);
    expect(await standings(id, 'SEASON', 's1')).toEqual([['in', 1]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['after', 2], ['in', 1]]);

    const seasonsOnly = await board({ kinds: [{ kind: 'SEASON' }], seasons: [{ id: 's1', start: micros('2027-01-01T00:00:00Z'), end: micros('2027-06-01T00:00:00Z') }] });
    await expect(submit(seasonsOnly, 'nowhere', 1)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('applies the update policy per period: a weekly BEST holds the week\'s best and when it was reached', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'WEEKLY' }] });
    at('2027-03-01T10:00:00Z'); // a Monday
    await submit(id, 'a', 100);
    at('2027-03-08T10:00:00Z');
    await submit(id, 'a', 50);
    at('2027-03-09T10:00:00Z');
    const result = await submit(id, 'a', 40);
    expect(result).toMatchObject({ changed: false, entry: { score: 100 } }); // the result is ALL_TIME's
    expect(await standings(id, 'WEEKLY', '2027-W10')).toEqual([['a', 50]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['a', 100]]);
    const weekly = await leaderboards.store.entries({ boardId: id, kind: 'WEEKLY', key: '2027-W10' }, ['a']);
    expect(weekly[0]!.reachedAtMicros).toBe(micros('2027-03-08T10:00:00Z'));
  });

  it('moves a LATEST entry that an unchanged all-time score left with another member', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] }, 'LATEST');
    at('2027-03-01T10:00:00Z');
    await submit(id, 'a', 5);
    at('2027-03-02T10:00:00Z');
    await submit(id, 'a', 5); // all-time unchanged; the new day's entry gets this write's member
    await submit(id, 'a', 7); // all-time's member is not the day's: the day's must still go
    expect(await standings(id, 'DAILY', '2027-03-02')).toEqual([['a', 7]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['a', 7]]);
    expect(await redis.zcard(boardKeys(id).period('DAILY', '2027-03-02').ranking)).toBe(1);
  });

  it('adds per period under INCREMENT, and checks the range in each', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] }, 'INCREMENT');
    at('2027-03-01T10:00:00Z');
    await submit(id, 'a', 3);
    at('2027-03-02T10:00:00Z');
    await submit(id, 'a', 4);
    expect(await standings(id, 'DAILY', '2027-03-02')).toEqual([['a', 4]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['a', 7]]);
  });
});

describe('retention', () => {
  it('sets the expiry of every key of a period from the calendar', async () => {
    const id = await board({ timeZone: 'Asia/Tokyo', kinds: [{ kind: 'DAILY', retention: 2 }, { kind: 'WEEKLY', retention: 1 }] });
    at('2027-03-03T01:00:00Z'); // Wednesday 10:00 in Tokyo
    await submit(id, 'a', 1);
    await submit(id, 'b', 2);
    const day = boardKeys(id).period('DAILY', '2027-03-03');
    // Kept for 2 days: until Tokyo's midnight starting 2027-03-05.
    const dayEnd = Date.parse('2027-03-04T15:00:00Z');
    expect(await redis.call('PEXPIRETIME', day.ranking)).toBe(dayEnd);
    const week = boardKeys(id).period('WEEKLY', '2027-W09');
    expect(await redis.call('PEXPIRETIME', week.ranking)).toBe(Date.parse('2027-03-07T15:00:00Z'));
    const bucketKeys = await redis.keys(`${day.bucket(0).slice(0, -1)}*`);
    expect(bucketKeys.length).toBeGreaterThan(0);
    for (const key of bucketKeys) expect(await redis.call('PEXPIRETIME', key)).toBe(dayEnd);
    expect(await redis.call('PEXPIRETIME', boardKeys(id).ranking)).toBe(-2); // no ALL_TIME kept: never written
  });

  it('keeps the expiry of a period whose only player writes again', async () => {
    const id = await board({ kinds: [{ kind: 'DAILY', retention: 1 }] });
    at('2027-03-03T10:00:00Z');
    await submit(id, 'a', 1);
    await submit(id, 'a', 2); // the entry moves: the ranking must not be emptied and made again
    const day = boardKeys(id).period('DAILY', '2027-03-03');
    expect(await standings(id, 'DAILY', '2027-03-03')).toEqual([['a', 2]]);
    expect(await redis.call('PEXPIRETIME', day.ranking)).toBe(Date.parse('2027-03-04T00:00:00Z'));
  });
});

describe('imported submissions (reachedAt)', () => {
  it('land in the kept periods holding their moment, and nowhere else', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 2 }, { kind: 'MONTHLY' }] });
    at('2027-03-10T12:00:00Z');
    await submit(id, 'yesterday', 5, { reachedAtMicros: micros('2027-03-09T08:00:00Z') });
    await submit(id, 'old', 6, { reachedAtMicros: micros('2027-03-01T08:00:00Z') }); // that day is no longer kept
    expect(await standings(id, 'DAILY', '2027-03-09')).toEqual([['yesterday', 5]]);
    expect(await standings(id, 'DAILY', '2027-03-01')).toEqual([]);
    expect(await standings(id, 'MONTHLY', '2027-03')).toEqual([['old', 6], ['yesterday', 5]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['old', 6], ['yesterday', 5]]);
  });

  it('are BAD_USER_INPUT outside every kept period, naming the batch item, and nothing is written', async () => {
    const id = await board({ kinds: [{ kind: 'DAILY', retention: 2 }] });
    at('2027-03-10T12:00:00Z');
    await expect(leaderboards.submit([
      { boardId: id, playerId: 'ok', score: 1 },
      { boardId: id, playerId: 'old', score: 1, reachedAtMicros: micros('2027-03-01T00:00:00Z') },
    ])).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { index: 1 } });
    expect(await standings(id, 'DAILY', '2027-03-10')).toEqual([]);
  });
});

it('answers a retried idempotent submission after a rollover as the first time, writing nothing new', async () => {
  const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] });
  at('2027-03-01T23:59:59Z');
  const first = await submit(id, 'a', 10, { idempotencyKey: 'k1' });
  at('2027-03-02T00:00:01Z');
  const again = await submit(id, 'a', 10, { idempotencyKey: 'k1' });
  expect(again).toEqual({ ...first, replayed: true });
  expect(await standings(id, 'DAILY', '2027-03-02')).toEqual([]);
});

it('deletes every period key with the board (SCAN finds none left)', async () => {
  const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }, { kind: 'WEEKLY' }, { kind: 'MONTHLY' }] });
  for (const day of ['2027-03-01', '2027-03-02', '2027-03-09']) {
    at(`${day}T10:00:00Z`);
    await leaderboards.submit(Array.from({ length: 30 }, (_, i) => ({ boardId: id, playerId: `p${i}`, score: i, idempotencyKey: `${day}-${i}` })));
  }
  const scan = () => scanBoardKeys(redis, id);
  expect((await scan()).filter((key) => key.includes(':p:')).length).toBeGreaterThan(7);
  expect(await leaderboards.deleteBoard(id)).toBe(true);
  expect(await scan()).toEqual([]);
});
