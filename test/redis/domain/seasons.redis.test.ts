// Seasons added to an existing board (issue 13): checked as at creation, atomic with submissions
// (a writer that planned with the periods before plans again), published so every process's
// cached config follows, and pushing earlier seasons out of retention by their keys' expiry.
// The scripts' "now" is the test clock's; moments are in the machine clock's future, so the
// PEXPIREATs they set leave keys in place.
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { parsePeriodConfig, type PeriodConfigInput } from '../../../src/domain/periods/settings';
import { boardKeys } from '../../../src/store/keys';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import * as scripts from '../../../src/store/scriptLoader';
import { newTestClient, scanBoardKeys, uniqueId } from '../../support/redis';

const micros = (iso: string) => Date.parse(iso) * 1000;
const season = (id: string, start: string, end: string) => ({ id, start: micros(start), end: micros(end) });
const S1 = season('s1', '2027-01-01T00:00:00Z', '2027-04-01T00:00:00Z');
const S2 = season('s2', '2027-04-01T00:00:00Z', '2027-07-01T00:00:00Z');
const S3 = season('s3', '2027-07-01T00:00:00Z', '2027-10-01T00:00:00Z');

let redis: Redis;
let now = 0;
/** Two processes of the service: each its own store and so its own cached board settings. */
const instance = () => new Leaderboards(new LeaderboardStore(redis, { testNow: () => now }), undefined, { nowMicros: () => now });
let leaderboards: Leaderboards;
let other: Leaderboards;
beforeAll(() => {
  redis = newTestClient();
  leaderboards = instance();
  other = instance();
});
afterAll(() => redis.quit());

const at = (iso: string) => (now = micros(iso));

async function board(periods?: PeriodConfigInput): Promise<string> {
  const id = uniqueId('seasons');
  await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: 500, periods });
  return id;
}

const submit = (through: Leaderboards, boardId: string, playerId: string, score: number) => through.submitOne({ boardId, playerId, score });

async function standings(boardId: string, kind: string, key: string): Promise<[string, number][]> {
  const page = await leaderboards.store.page({ boardId, kind, key }, { limit: 100 });
  return page.entries.map((e) => [e.playerId, e.score]);
}

const config = (boardId: string) => redis.hgetall(boardKeys(boardId).config);

describe('adding seasons', () => {
  it('adds to a board that keeps seasons, and a submission at a moment in the new one lands in it', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON' }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    await submit(leaderboards, id, 'a', 5);
    const { board: added, changed } = await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2] });
    expect(changed).toBe(true);
    expect(parsePeriodConfig(added.periods).seasons).toEqual([S1, S2]);
    at('2027-04-01T00:00:00Z');
    await submit(leaderboards, id, 'b', 7);
    expect(await standings(id, 'SEASON', 's1')).toEqual([['a', 5]]);
    expect(await standings(id, 'SEASON', 's2')).toEqual([['b', 7]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['b', 7], ['a', 5]]);
  });

  it('makes SEASON a kept kind of a board that kept none, with the retention asked for', async () => {
    const id = await board();
    at('2027-02-01T00:00:00Z');
    await submit(leaderboards, id, 'a', 5);
    const { board: added } = await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2], retention: 3 });
    expect(parsePeriodConfig(added.periods)).toEqual({ timeZone: 'UTC', kinds: ['ALL_TIME', 'SEASON'], retention: { SEASON: 3 }, seasons: [S2] });
    expect((await leaderboards.getBoard(id))!.periods).toBe(added.periods);
    at('2027-05-01T00:00:00Z');
    await submit(leaderboards, id, 'b', 7);
    expect(await standings(id, 'SEASON', 's2')).toEqual([['b', 7]]);
    expect(await standings(id, 'ALL_TIME', 'all')).toEqual([['b', 7], ['a', 5]]);
  });

  it('gives a board that kept no seasons the default retention when none is asked for', async () => {
    const id = await board({ kinds: [{ kind: 'DAILY' }] });
    at('2027-02-01T00:00:00Z');
    const { board: added } = await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2] });
    expect(parsePeriodConfig(added.periods)).toMatchObject({ kinds: ['DAILY', 'SEASON'], retention: { DAILY: 8, SEASON: 2 } });
  });

  it.each<[string, unknown[], string]>([
    ['an overlap with an existing season', [season('x', '2027-03-01T00:00:00Z', '2027-05-01T00:00:00Z')], 'seasons[0]'],
    ['an overlap between two added', [S2, season('x', '2027-06-30T00:00:00Z', '2027-08-01T00:00:00Z')], 'seasons[1]'],
    ['an end before its start', [season('x', '2027-06-01T00:00:00Z', '2027-05-01T00:00:00Z')], 'seasons[0].end'],
    ['an end equal to its start', [season('x', '2027-06-01T00:00:00Z', '2027-06-01T00:00:00Z')], 'seasons[0].end'],
    ['a bad id', [S2, { ...S3, id: 'no:colons' }], 'seasons[1].id'],
    ['a moment that is not one', [{ ...S2, start: 'soon' }], 'seasons[0].start'],
    ['a season that starts before Redis\' now', [S2], 'seasons[0].start'],
    ['a season that starts before the board\'s last score', [S2], 'seasons[0].start'],
  ])('refuses %s with BAD_USER_INPUT naming the field, and writes nothing', async (what, seasons, field) => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON' }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    await submit(leaderboards, id, 'a', 5);
    if (what.includes('Redis')) at('2027-04-01T00:00:00Z');
    // A busy board's clock runs ahead of Redis' (its moments strictly increase): set it so.
    if (what.includes('last score')) await redis.hset(boardKeys(id).config, 'clock', String(S2.start));
    const before = await config(id);
    await expect(leaderboards.addSeasons({ leaderboardId: id, seasons })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field } });
    expect(await config(id)).toEqual(before);
  });

  it('leaves the board as it is when every season is there already: a retried request is harmless', async () => {
    const id = await board({ kinds: [{ kind: 'SEASON' }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2, S3] });
    const before = await config(id);
    at('2027-05-01T00:00:00Z'); // S2 has started: the retry is still harmless
    const again = await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2, S3] });
    expect(again.changed).toBe(false);
    expect(parsePeriodConfig(again.board.periods).seasons).toEqual([S1, S2, S3]);
    expect(await config(id)).toEqual(before);
  });

  it('is CONFLICT for an id the board has with other moments, or another retention, and writes nothing', async () => {
    const id = await board({ kinds: [{ kind: 'SEASON', retention: 2 }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    const before = await config(id);
    await expect(leaderboards.addSeasons({ leaderboardId: id, seasons: [S2, { ...S1, end: S1.end + 1 }] }))
      .rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'seasons[1]' } });
    await expect(leaderboards.addSeasons({ leaderboardId: id, seasons: [S2], retention: 3 }))
      .rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'retention' } });
    expect(await config(id)).toEqual(before);
  });

  it('is NOT_FOUND for a board that does not exist, or is deleted between the read and the write', async () => {
    const none = uniqueId('none');
    await expect(leaderboards.addSeasons({ leaderboardId: none, seasons: [S2] }))
      .rejects.toMatchObject({ code: 'NOT_FOUND', details: { leaderboardId: none } });
    const id = await board();
    at('2027-02-01T00:00:00Z');
    const store = leaderboards.store;
    const read = store.getBoard.bind(store);
    const spy = jest.spyOn(store, 'getBoard').mockImplementationOnce(async (boardId) => {
      const found = await read(boardId);
      await leaderboards.deleteBoard(boardId);
      return found;
    });
    try {
      await expect(leaderboards.addSeasons({ leaderboardId: id, seasons: [S2] })).rejects.toMatchObject({ code: 'NOT_FOUND', details: { leaderboardId: id } });
    } finally {
      spy.mockRestore();
    }
    expect(await scanBoardKeys(redis, id)).toEqual([]);
  });

  it('adds both of two calls racing each other (the later writes again on the periods the first left)', async () => {
    const id = await board({ kinds: [{ kind: 'SEASON' }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    const [a, b] = await Promise.all([
      leaderboards.addSeasons({ leaderboardId: id, seasons: [S2] }),
      other.addSeasons({ leaderboardId: id, seasons: [S3] }),
    ]);
    expect([a.changed, b.changed]).toEqual([true, true]);
    expect(parsePeriodConfig((await leaderboards.store.getBoard(id))!.periods).seasons).toEqual([S1, S2, S3]);
  });
});

describe('a submission racing with the add', () => {
  it('planned with the periods before, is refused as stale and lands in the new season', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON' }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    await submit(other, id, 'a', 5); // `other` keeps the periods with S1 only
    await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2] });
    at('2027-04-01T00:00:00Z');
    const submits: string[] = [];
    const { runScript } = scripts;
    const spy = jest.spyOn(scripts, 'runScript').mockImplementation((...args) => {
      if (args[1] === 'submit') submits.push(args[1]);
      return runScript(...args);
    });
    try {
      await submit(other, id, 'b', 7);
    } finally {
      spy.mockRestore();
    }
    expect(submits).toHaveLength(2); // refused once with the old periods, then written with the new
    expect(await standings(id, 'SEASON', 's2')).toEqual([['b', 7]]);
  });
});

describe('retention', () => {
  it('sets the expiry of an earlier season\'s keys once a new season pushes it out, and reads follow the calendar', async () => {
    const id = await board({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON', retention: 1 }], seasons: [S1] });
    at('2027-02-01T00:00:00Z');
    await leaderboards.submit(Array.from({ length: 20 }, (_, i) => ({ boardId: id, playerId: `p${i}`, score: i })));
    const s1 = boardKeys(id).period('SEASON', 's1');
    const s1Keys = [s1.ranking, ...(await redis.keys(`${s1.bucket(0).slice(0, -1)}*`))];
    expect(s1Keys.length).toBeGreaterThan(2);
    for (const key of s1Keys) expect(await redis.call('PEXPIRETIME', key)).toBe(-1); // the last season: nothing ends it yet
    await leaderboards.addSeasons({ leaderboardId: id, seasons: [S3] });
    for (const key of s1Keys) expect(await redis.call('PEXPIRETIME', key)).toBe(S3.start / 1000);

    const current = (await leaderboards.getBoard(id))!;
    expect(leaderboards.period(current, { kind: 'SEASON', key: 's1' }).key).toBe('s1');
    at('2027-07-01T00:00:00Z');
    expect(() => leaderboards.period(current, { kind: 'SEASON', key: 's1' })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('brings an expiry forward when a season is put between an earlier one and a later one', async () => {
    const id = await board({ kinds: [{ kind: 'SEASON', retention: 1 }], seasons: [S1, S3] });
    at('2027-02-01T00:00:00Z');
    await submit(leaderboards, id, 'a', 1);
    const s1 = boardKeys(id).period('SEASON', 's1').ranking;
    expect(await redis.call('PEXPIRETIME', s1)).toBe(S3.start / 1000);
    await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2] });
    expect(await redis.call('PEXPIRETIME', s1)).toBe(S2.start / 1000);
  });

  it('expires a season at the first whole millisecond of its end of retention, when that falls within one', async () => {
    const within = S2.start + 1; // a µs past a millisecond
    const first = { ...S1, end: within };
    const next = { id: 'next', start: within, end: S3.start };
    const created = await board({ kinds: [{ kind: 'SEASON', retention: 1 }], seasons: [first, next] });
    const added = await board({ kinds: [{ kind: 'SEASON', retention: 1 }], seasons: [first] });
    at('2027-02-01T00:00:00Z');
    for (const id of [created, added]) await submit(leaderboards, id, 'a', 1);
    await leaderboards.addSeasons({ leaderboardId: added, seasons: [next] });
    for (const id of [created, added]) {
      await submit(leaderboards, id, 'b', 2);
      expect(await standings(id, 'SEASON', 's1')).toEqual([['b', 2], ['a', 1]]);
      expect(await redis.call('PEXPIRETIME', boardKeys(id).period('SEASON', 's1').ranking)).toBe(Math.ceil(within / 1000));
    }
  });
});

it('deletes every key of a board with added seasons (SCAN finds none left)', async () => {
  const id = await board();
  at('2027-02-01T00:00:00Z');
  await leaderboards.addSeasons({ leaderboardId: id, seasons: [S2, S3] });
  for (const moment of ['2027-05-01T00:00:00Z', '2027-08-01T00:00:00Z']) {
    at(moment);
    await leaderboards.submit(Array.from({ length: 30 }, (_, i) => ({ boardId: id, playerId: `p${i}`, score: i })));
  }
  const scan = () => scanBoardKeys(redis, id);
  expect((await scan()).filter((key) => key.includes(':p:SEASON:')).length).toBeGreaterThan(3);
  expect(await leaderboards.deleteBoard(id)).toBe(true);
  expect(await scan()).toEqual([]);
});
