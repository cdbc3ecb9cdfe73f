import fc from 'fast-check';
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { MAX_COMBINED_SOURCES } from '../../../src/domain/limits';
import * as scripts from '../../../src/store/scriptLoader';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import type { Aggregate, Entry, SortOrder, ViewSpec } from '../../../src/model';
import { combineModel, type ModelSource } from '../../support/combinedModel';
import { MAX_SCORE, ReferenceBoard, type ModelEntry } from '../../support/referenceModel';
import { newTestClient, scanBoardKeys, uniqueId } from '../../support/redis';

/**
 * Combined views against the reference computation (test/support/combinedModel.ts): SUM, MAX and
 * MIN with weights, ties included, over periods of one board (each player read in one call for
 * all of them) and over several boards (each read by itself); the view's cache on an injected clock; bad input.
 * Moments lie ahead of the machine's clock, so the periods' PEXPIREATs keep their keys.
 */
const DAY = 86_400_000_000;
const START = Date.parse('2031-03-02T10:00:00Z') * 1000;
const PERIODS = { timeZone: 'UTC', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 3 }] };
const TTL_MS = 1000;

let redis: Redis;
let now = START;
let clockMs = 0;
let store: LeaderboardStore;
let leaderboards: Leaderboards;
beforeAll(() => {
  redis = newTestClient();
  store = new LeaderboardStore(redis, { testNow: () => now });
  leaderboards = new Leaderboards(store, undefined, { nowMicros: () => now }, { ttlMs: TTL_MS, nowMs: () => clockMs });
});
afterAll(() => redis.quit());

const dayKey = (moment: number) => new Date(moment / 1000).toISOString().slice(0, 10);
const project = (e: Entry | ModelEntry) => ({ playerId: e.playerId, score: e.score, reachedAtMicros: e.reachedAtMicros });
const all = (view: ViewSpec) => leaderboards.page({ view }, { limit: 1000 });

/** A board that keeps ALL_TIME and DAILY, with a reference board per period it has written. */
class ModelledBoard {
  readonly periods = new Map<string, ReferenceBoard>();

  constructor(readonly id: string, readonly sortOrder: SortOrder) {}

  static async create(sortOrder: SortOrder = 'DESCENDING', updatePolicy: 'BEST' | 'LATEST' = 'BEST'): Promise<ModelledBoard> {
    const board = new ModelledBoard(uniqueId('combined'), sortOrder);
    await leaderboards.createBoard({ id: board.id, sortOrder, updatePolicy, capacity: 100, periods: PERIODS });
    board.updatePolicy = updatePolicy;
    return board;
  }

  private updatePolicy: 'BEST' | 'LATEST' = 'BEST';

  /** A live submission stamped `now` exactly (now only moves forward, by more than a µs a write). */
  async submit(playerId: string, score: number): Promise<void> {
    now += 1000;
    await leaderboards.submitOne({ boardId: this.id, playerId, score });
    for (const period of ['ALL_TIME:all', `DAILY:${dayKey(now)}`]) {
      if (!this.periods.has(period)) this.periods.set(period, new ReferenceBoard(this.sortOrder, this.updatePolicy));
      this.periods.get(period)!.submit(playerId, score, now, false);
    }
  }

  entries(period: string): ModelEntry[] {
    return this.periods.get(period)?.ranking() ?? [];
  }
}

const source = (board: ModelledBoard, period: string, weight?: number) => {
  const [kind, key] = period.split(':');
  return { leaderboardId: board.id, period: { kind, key }, weight };
};

describe('a view matches the reference computation', () => {
  it.each<Aggregate>(['SUM', 'MAX', 'MIN'])('%s with weights over a board\'s days and its all time, ties included', async (aggregate) => {
    now = START;
    const board = await ModelledBoard.create();
    // Day one: a and b reach 4 and 2; c reaches 4 after a.
    await board.submit('1', 4);
    await board.submit('amy', 2);
    await board.submit('3', 4);
    now += DAY;
    // Day two: amy reaches 4 (a tie on day two's value with 1's day-one 4), 1 reaches 2, 3 reaches 6.
    await board.submit('amy', 4);
    await board.submit('1', 2);
    await board.submit('3', 6);
    const day1 = `DAILY:${dayKey(START)}`;
    const day2 = `DAILY:${dayKey(now)}`;
    const weights: [string, number][] = [[day1, 2], [day2, 1], ['ALL_TIME:all', 0.5]];
    const view = await leaderboards.combined(weights.map(([period, weight]) => source(board, period, weight)), aggregate);
    const expected = combineModel(weights.map(([period, weight]): ModelSource => ({ entries: board.entries(period), weight })), aggregate, 'DESCENDING');
    expect((await all(view)).entries.map(project)).toEqual(expected.map(project));
    expect(view.boardId).toBe(board.id);
  });

  it('breaks ties as the issue says: MAX and MIN by the earliest moment of the winning value, SUM by the latest contributing moment', async () => {
    now = START;
    const board = await ModelledBoard.create();
    const first = now + 1000;
    await board.submit('1', 5); // first: 1 reaches 5 on day one
    await board.submit('2', 5); // then 2 reaches 5
    now += DAY;
    await board.submit('2', 3); // day two: 2 reaches 3 (later), 1 reaches 3 after
    const twoOnDayTwo = now;
    await board.submit('1', 3);
    const sources = [source(board, `DAILY:${dayKey(START)}`), source(board, `DAILY:${dayKey(now)}`)];
    // MAX: both 5, reached on day one: 1 first.
    expect((await all(await leaderboards.combined(sources, 'MAX'))).entries.map((e) => [e.playerId, e.score, e.reachedAtMicros]))
      .toEqual([['1', 5, first], ['2', 5, first + 1000]]);
    // MIN: both 3, reached on day two: 2 first.
    expect((await all(await leaderboards.combined(sources, 'MIN'))).entries.map((e) => [e.playerId, e.score, e.reachedAtMicros]))
      .toEqual([['2', 3, twoOnDayTwo], ['1', 3, now]]);
    // SUM: both 8, completed by the day-two scores: 2 completed first.
    expect((await all(await leaderboards.combined(sources, 'SUM'))).entries.map((e) => [e.playerId, e.score, e.reachedAtMicros]))
      .toEqual([['2', 8, twoOnDayTwo], ['1', 8, now]]);
  });

  it('takes the last N periods of a kind with `last`, as if each were named, and rolls forward with the calendar', async () => {
    now = START;
    const board = await ModelledBoard.create();
    for (let day = 0; day < 3; day++) {
      now = START + day * DAY;
      await board.submit('1', 10 + day);
      await board.submit(String(2 + day), 5);
    }
    const rolling = [{ leaderboardId: board.id, period: { kind: 'DAILY' }, last: 2 }];
    const named = [0, 1].map((back) => source(board, `DAILY:${dayKey(now - back * DAY)}`));
    const view = await leaderboards.combined(rolling, 'SUM');
    expect(view.sources.map((s) => s.key).sort()).toEqual([dayKey(now - DAY), dayKey(now)].sort());
    expect(view.id).toBe((await leaderboards.combined(named, 'SUM')).id);
    const expected = combineModel([0, 1].map((back): ModelSource => ({ entries: board.entries(`DAILY:${dayKey(now - back * DAY)}`), weight: 1 })), 'SUM', 'DESCENDING');
    expect((await all(view)).entries.map(project)).toEqual(expected.map(project));
    // The next day the same request names that day and the one before.
    now = START + 3 * DAY;
    const next = await leaderboards.combined(rolling, 'SUM');
    expect(next.sources.map((s) => s.key).sort()).toEqual([dayKey(now - DAY), dayKey(now)].sort());
    expect(next.id).not.toBe(view.id);
  });

  it('orders imported ties by their arrival on the board, as the board does', async () => {
    now = START + DAY;
    const board = await ModelledBoard.create('ASCENDING');
    const moment = START + 3_600_000_000;
    // Both imported at one moment: z arrived first, so it ranks first in the day and in the view.
    await leaderboards.submit([{ boardId: board.id, playerId: 'z', score: 7, reachedAtMicros: moment }, { boardId: board.id, playerId: 'a', score: 7, reachedAtMicros: moment }]);
    const view = await leaderboards.combined([{ leaderboardId: board.id, period: { kind: 'DAILY', key: dayKey(moment) }, weight: 3 }], 'MAX');
    expect((await all(view)).entries.map((e) => [e.playerId, e.score, e.rank])).toEqual([['z', 21, 1], ['a', 21, 2]]);
  });

  it('combines boards of one sort order that share no hash tag, each read by itself, and reads as a board', async () => {
    now = START;
    const north = await ModelledBoard.create('DESCENDING', 'LATEST');
    const south = await ModelledBoard.create('DESCENDING', 'BEST');
    await north.submit('1', 10);
    await south.submit('1', 12);
    await south.submit('2', 12);
    await north.submit('3', -4);
    const sources = [source(north, 'ALL_TIME:all', 2), source(south, 'ALL_TIME:all')];
    const view = await leaderboards.combined(sources, 'MAX');
    expect(view.boardId).toBeUndefined();
    const expected = combineModel([{ entries: north.entries('ALL_TIME:all'), weight: 2 }, { entries: south.entries('ALL_TIME:all'), weight: 1 }], 'MAX', 'DESCENDING');
    expect((await all(view)).entries.map(project)).toEqual(expected.map(project));
    // Every read of a board works on it.
    const ref = { view };
    expect(await leaderboards.size(ref)).toBe(3);
    expect((await leaderboards.entries(ref, ['2', 'x'])).map((e) => e && [e.playerId, e.rank])).toEqual([['2', 2], null]);
    expect((await leaderboards.around(ref, '3', 1))!.entries.map((e) => e.playerId)).toEqual(['1', '2', '3']);
    expect((await leaderboards.aroundScore(ref, 15, 1)).entries.map((e) => e.playerId)).toEqual(['1', '2']);
    expect((await leaderboards.topPercent(ref, 34, 10)).entries.map((e) => e.playerId)).toEqual(['1', '2']);
    expect(await leaderboards.countByScore(ref, { min: { value: 0 } })).toBe(2);
    expect(await leaderboards.scoreAtRank(ref, 3)).toBe(-8);
    const first = await leaderboards.page(ref, { limit: 1 });
    expect((await leaderboards.page(ref, { limit: 5, cursor: first.entries[0].cursor })).entries.map((e) => e.playerId)).toEqual(['2', '3']);
    // Only the view's keys are left: the build's own were renamed into them, and all expire.
    const keys = await redis.keys(`st:{view#${view.id}}:*`);
    expect(keys.sort()).toEqual(['cfg', 'z', 'b'].map((name) => `st:{view#${view.id}}:${name}`).sort());
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
  });
});

describe('a build reads its sources a few buckets a call', () => {
  /** The read_buckets.lua calls a build makes, with what each returned. */
  function watchReads(afterRead?: (call: number) => Promise<unknown>) {
    const calls: { keys: string[]; entries: number }[] = [];
    const original = scripts.runScript;
    const spy = jest.spyOn(scripts, 'runScript').mockImplementation(async (...args) => {
      const reply = await original(...args);
      if (args[1] !== 'read_buckets') return reply;
      calls.push({ keys: args[2], entries: (reply as Buffer[][]).reduce((total, items) => total + items.length / 2, 0) });
      await afterRead?.(calls.length);
      return reply;
    });
    return { calls, restore: () => spy.mockRestore() };
  }

  it('reads a large board in many bounded calls, each player once, as the model computes', async () => {
    now = START;
    const id = uniqueId('chunked');
    await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: 20_000, periods: PERIODS });
    const model = new ReferenceBoard('DESCENDING', 'BEST');
    const players = 12_000;
    for (let from = 0; from < players; from += 1000) {
      now += 1000;
      const batch = Array.from({ length: 1000 }, (_, i) => ({ playerId: String(from + i), score: (from + i) % 977 }));
      await leaderboards.submit(batch.map((item) => ({ boardId: id, ...item })));
      batch.forEach(({ playerId, score }, i) => model.submit(playerId, score, now + i, false));
    }
    const reads = watchReads();
    try {
      const view = await leaderboards.combined([{ leaderboardId: id, period: { kind: 'ALL_TIME', key: 'all' } }, { leaderboardId: id, period: { kind: 'DAILY', key: dayKey(now) } }], 'MAX');
      const page = await leaderboards.page({ view }, { limit: 1000 });
      expect(page.total).toBe(players);
      expect(page.entries.map((e) => [e.playerId, e.score])).toEqual(model.ranking().slice(0, 1000).map((e) => [e.playerId, e.score]));
    } finally {
      reads.restore();
    }
    expect(reads.calls.length).toBeGreaterThan(2);
    // Each call reads about 5,000 entries of the two sources together, never the whole board.
    expect(Math.max(...reads.calls.map((call) => call.entries))).toBeLessThan(2 * players / 2);
    expect(reads.calls.reduce((total, call) => total + call.entries, 0)).toBe(2 * players);
  });

  it('starts the build again when a board is re-created with another bucket count while it is read', async () => {
    now = START;
    const id = uniqueId('recreated');
    const fill = async (capacity: number, prefix: string, players: number) => {
      await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity, periods: PERIODS });
      for (let from = 0; from < players; from += 1000) {
        now += 1000;
        await leaderboards.submit(Array.from({ length: Math.min(1000, players - from) }, (_, i) => ({ boardId: id, playerId: `${prefix}${from + i}`, score: from + i })));
      }
    };
    await fill(20_000, 'old', 12_000);
    // After the first call has been folded in, the board goes and comes back with other players and more buckets.
    const reads = watchReads(async (call) => {
      if (call !== 1) return;
      await leaderboards.deleteBoard(id);
      await fill(100_000, 'new', 3_000);
    });
    let entries: Entry[];
    try {
      const view = await leaderboards.combined([{ leaderboardId: id, period: { kind: 'ALL_TIME', key: 'all' } }], 'SUM');
      entries = [];
      for (let offset = 0; offset < 4000; offset += 1000) entries.push(...(await leaderboards.page({ view }, { limit: 1000, offset })).entries);
    } finally {
      reads.restore();
    }
    expect(entries.map((e) => e.playerId).sort()).toEqual(Array.from({ length: 3_000 }, (_, i) => `new${i}`).sort());
  });

  it('takes each player once, as of one moment, when players move between two calls of the build', async () => {
    now = START;
    const id = uniqueId('moving');
    await leaderboards.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 20_000, periods: PERIODS });
    const players = 12_000;
    for (let from = 0; from < players; from += 1000) {
      now += 1000;
      await leaderboards.submit(Array.from({ length: 1000 }, (_, i) => ({ boardId: id, playerId: String(from + i), score: 100 })));
    }
    // After the first call, every player moves: those already read to the bottom, the others to the top.
    const reads = watchReads(async (call) => {
      if (call !== 1) return;
      for (let from = 0; from < players; from += 1000) {
        now += 1000;
        await leaderboards.submit(Array.from({ length: 1000 }, (_, i) => ({ boardId: id, playerId: String(from + i), score: 50 + ((from + i) % 2) * 100 })));
      }
    });
    let entries: Entry[];
    try {
      const view = await leaderboards.combined([{ leaderboardId: id, period: { kind: 'ALL_TIME', key: 'all' } }], 'SUM');
      entries = [];
      for (let offset = 0; offset < players; offset += 1000) entries.push(...(await leaderboards.page({ view }, { limit: 1000, offset })).entries);
    } finally {
      reads.restore();
    }
    expect(new Set(entries.map((e) => e.playerId)).size).toBe(players);
    expect(entries).toHaveLength(players);
    for (const entry of entries) expect([100, 50 + (Number(entry.playerId) % 2) * 100]).toContain(entry.score);
  });
});

it('keeps scores and ids exact: 2^53 - 1, fractions, 15-digit and other ids', async () => {
  now = START;
  const board = await ModelledBoard.create();
  await board.submit('999999999999999', MAX_SCORE);
  await board.submit('x-1', 0.1);
  await board.submit('7', -MAX_SCORE);
  const view = await leaderboards.combined([source(board, 'ALL_TIME:all', 1), source(board, `DAILY:${dayKey(now)}`, 0.5)], 'MAX');
  expect((await all(view)).entries.map((e) => [e.playerId, e.score])).toEqual([['999999999999999', MAX_SCORE], ['x-1', 0.1], ['7', -MAX_SCORE / 2]]);
  expect((await leaderboards.entries({ view }, ['999999999999999', 'x-1'])).map((e) => e?.score)).toEqual([MAX_SCORE, 0.1]);
});

describe('random submissions over two boards and their periods', () => {
  const aggregate = fc.constantFrom<Aggregate>('SUM', 'MAX', 'MIN');
  const write = fc.record({
    board: fc.integer({ min: 0, max: 1 }),
    playerId: fc.constantFrom('1', '2', '300', 'amy'),
    score: fc.integer({ min: -3, max: 3 }),
    nextDay: fc.boolean(),
  });
  const pick = fc.record({ index: fc.nat(), weight: fc.constantFrom(undefined, 1, 2, 0.5, 3) });

  it.each<SortOrder>(['DESCENDING', 'ASCENDING'])('%s: a view of any of the rankings equals the reference, in full order', async (sortOrder) => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 14 }), fc.array(pick, { minLength: 1, maxLength: 5 }), aggregate,
        async (writes, picks, how) => {
          now = START;
          clockMs += 10 * TTL_MS; // every view is built afresh
          const boards = [await ModelledBoard.create(sortOrder, 'BEST'), await ModelledBoard.create(sortOrder, 'LATEST')];
          try {
            for (const { board, playerId, score, nextDay } of writes) {
              if (nextDay && now < START + DAY) now += DAY;
              await boards[board].submit(playerId, score);
            }
            // Any of the periods written (two days at most, so every one is still kept), each once.
            const rankings = boards.flatMap((board) => [...board.periods.keys()].map((period) => ({ board, period })));
            const chosen = new Map<number, number | undefined>();
            for (const { index, weight } of picks) if (!chosen.has(index % rankings.length)) chosen.set(index % rankings.length, weight);
            const picked = [...chosen].map(([i, weight]) => ({ ...rankings[i], weight }));
            const view = await leaderboards.combined(picked.map(({ board, period, weight }) => source(board, period, weight)), how);
            const expected = combineModel(picked.map(({ board, period, weight }) => ({ entries: board.entries(period), weight: weight ?? 1 })), how, sortOrder);
            const page = await all(view);
            expect(page.entries.map(project)).toEqual(expected.map(project));
            expect(page.entries.map((e) => e.rank)).toEqual(expected.map((_, i) => i + 1));
          } finally {
            await Promise.all(boards.map((board) => leaderboards.deleteBoard(board.id)));
          }
        }),
      { numRuns: 25 },
    );
  });
});

describe('the view is kept for its time to live, by the injected clock', () => {
  it('answers from the build within the TTL, builds again after it, and builds once for concurrent first reads', async () => {
    now = START;
    clockMs += 10 * TTL_MS;
    const board = await ModelledBoard.create();
    await board.submit('1', 5);
    const sources = [source(board, `DAILY:${dayKey(now)}`), source(board, 'ALL_TIME:all')];
    const builds = jest.spyOn(store, 'buildView');
    try {
      const [view, again] = await Promise.all([leaderboards.combined(sources, 'SUM'), leaderboards.combined([...sources].reverse(), 'SUM')]);
      expect(builds).toHaveBeenCalledTimes(1);
      expect(again.id).toBe(view.id); // the same view, whatever the sources' order
      await board.submit('2', 7);
      clockMs += TTL_MS - 1;
      expect(await leaderboards.size({ view: await leaderboards.combined(sources, 'SUM') })).toBe(1);
      expect(builds).toHaveBeenCalledTimes(1);
      clockMs += 1;
      const rebuilt = await leaderboards.combined(sources, 'SUM');
      expect(builds).toHaveBeenCalledTimes(2);
      expect((await all(rebuilt)).entries.map((e) => [e.playerId, e.score])).toEqual([['2', 14], ['1', 10]]);
    } finally {
      builds.mockRestore();
    }
  });

  it('a build with no entries empties the view, and leaves only its config', async () => {
    now = START;
    clockMs += 10 * TTL_MS;
    const board = await ModelledBoard.create();
    await board.submit('1', 5);
    const sources = [source(board, 'ALL_TIME:all')];
    expect(await leaderboards.size({ view: await leaderboards.combined(sources, 'MAX') })).toBe(1);
    await leaderboards.remove(board.id, '1');
    clockMs += TTL_MS;
    const view = await leaderboards.combined(sources, 'MAX');
    expect(await leaderboards.size({ view })).toBe(0);
    expect((await all(view)).entries).toEqual([]);
    expect((await scanBoardKeys(redis, board.id)).filter((key) => key.includes(':v:'))).toEqual([`st:{${board.id}}:v:${view.id}:cfg`]);
  });

  it('deleting the board removes the views of its periods too', async () => {
    now = START;
    const board = await ModelledBoard.create();
    await board.submit('1', 5);
    await leaderboards.combined([source(board, 'ALL_TIME:all')], 'SUM');
    expect((await scanBoardKeys(redis, board.id)).some((key) => key.includes(':v:'))).toBe(true);
    await leaderboards.deleteBoard(board.id);
    expect(await scanBoardKeys(redis, board.id)).toEqual([]);
  });
});

describe('bad input writes nothing and names the field', () => {
  let board: ModelledBoard;
  let other: ModelledBoard;
  beforeAll(async () => {
    now = START;
    board = await ModelledBoard.create();
    other = await ModelledBoard.create('ASCENDING');
    await board.submit('1', MAX_SCORE);
    await other.submit('1', 1);
  });
  const allTime = (b: ModelledBoard, weight?: number) => source(b, 'ALL_TIME:all', weight);

  it.each<[string, () => Parameters<Leaderboards['combined']>[0], string, string]>([
    ['no source', () => [], 'BAD_USER_INPUT', 'sources'],
    ['too many sources', () => Array.from({ length: MAX_COMBINED_SOURCES + 1 }, () => allTime(board)), 'BAD_USER_INPUT', 'sources'],
    ['a source named twice', () => [allTime(board), { leaderboardId: board.id }], 'BAD_USER_INPUT', 'sources.1'],
    ['a weight of 0', () => [allTime(board, 0)], 'BAD_USER_INPUT', 'sources.0.weight'],
    ['a negative weight', () => [allTime(board, -1)], 'BAD_USER_INPUT', 'sources.0.weight'],
    ['an infinite weight', () => [allTime(board), allTime(other, Infinity)], 'BAD_USER_INPUT', 'sources.1.weight'],
    ['a weight over the maximum', () => [allTime(board, 1e6 + 1)], 'BAD_USER_INPUT', 'sources.0.weight'],
    ['a malformed board id', () => [{ leaderboardId: 'a b' }], 'BAD_USER_INPUT', 'sources.0.leaderboardId'],
    ['an unknown board', () => [allTime(board), { leaderboardId: uniqueId('nope') }], 'NOT_FOUND', 'sources.1.leaderboardId'],
    ['a kind the board does not keep', () => [{ leaderboardId: board.id, period: { kind: 'WEEKLY' } }], 'BAD_USER_INPUT', 'sources.0.period.kind'],
    ['an expired period', () => [{ leaderboardId: board.id, period: { kind: 'DAILY', key: '2031-01-01' } }], 'NOT_FOUND', 'sources.0.period'],
    ['boards of two sort orders', () => [allTime(board), allTime(other)], 'BAD_USER_INPUT', 'sources.1.leaderboardId'],
    ['a sum past 2^53 - 1', () => [allTime(board), source(board, `DAILY:${dayKey(START + 1000)}`)], 'BAD_USER_INPUT', 'sources'],
    ['a weighted score past 2^53 - 1', () => [allTime(board, 2)], 'BAD_USER_INPUT', 'sources'],
    ['last past the retention', () => [{ leaderboardId: board.id, period: { kind: 'DAILY' }, last: 4 }], 'BAD_USER_INPUT', 'sources.0.last'],
    ['last of 0', () => [{ leaderboardId: board.id, period: { kind: 'DAILY' }, last: 0 }], 'BAD_USER_INPUT', 'sources.0.last'],
    ['last with a key', () => [{ leaderboardId: board.id, period: { kind: 'DAILY', key: dayKey(START) }, last: 2 }], 'BAD_USER_INPUT', 'sources.0.period'],
    ['last of a kind the board does not keep', () => [{ leaderboardId: board.id, period: { kind: 'WEEKLY' }, last: 2 }], 'BAD_USER_INPUT', 'sources.0.period.kind'],
    ['last naming a period another source names', () => [source(board, `DAILY:${dayKey(START)}`), { leaderboardId: board.id, period: { kind: 'DAILY' }, last: 2 }], 'BAD_USER_INPUT', 'sources.1'],
  ])('%s', async (_, sources, code, field) => {
    // Other tests' views expire meanwhile, and KEYS has no order: what counts is that none is new.
    const before = new Set(await redis.keys('st:{view#*'));
    await expect(leaderboards.combined(sources(), 'SUM')).rejects.toMatchObject({ code, details: expect.objectContaining({ field }) });
    expect((await scanBoardKeys(redis, board.id)).filter((key) => key.includes(':v:'))).toEqual([]);
    expect((await redis.keys('st:{view#*')).filter((key) => !before.has(key))).toEqual([]);
  });

  it('more rankings than MAX_COMBINED_SOURCES once `last` is counted', async () => {
    const boards = await Promise.all(Array.from({ length: 5 }, () => ModelledBoard.create()));
    // Ten sources, each board's DAILY (last 3) and ALL_TIME: twenty rankings.
    const sources = boards.flatMap((b) => [{ leaderboardId: b.id, period: { kind: 'DAILY' }, last: 3 }, allTime(b)]);
    await expect(leaderboards.combined(sources, 'SUM')).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'sources' } });
  });

  it('an unknown aggregate', async () => {
    await expect(leaderboards.combined([allTime(board)], 'AVG' as Aggregate)).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'aggregate' } });
  });
});
