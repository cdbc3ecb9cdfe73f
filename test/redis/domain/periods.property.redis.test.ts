import fc from 'fast-check';
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { PeriodCalendar, type Period } from '../../../src/domain/periods/calendar';
import { checkPeriodConfig, parsePeriodConfig } from '../../../src/domain/periods/settings';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import type { Entry, SortOrder, UpdatePolicy } from '../../../src/model';
import { MAX_SCORE, ReferenceBoard, type RankedEntry } from '../../support/referenceModel';
import { newTestClient, uniqueId } from '../../support/redis';

/**
 * Random submissions, live and imported, at random moments over several hours, days, weeks and months (YEARLY and a custom CYCLE kept too)
 * (in a zone with DST changes): every period's ranking in the store must equal a reference board
 * per period, the periods a submission lands in being chosen by the calendar (itself tested in
 * test/unit/domain/periods.test.ts). Seasons are added as the steps go (the first makes SEASON a
 * kept kind): the submissions after an add land in them by the board's new calendar. Moments lie
 * in the future of the machine's clock, so the PEXPIREATs the writes set keep every period's keys
 * for the test's length. A removal takes the player out of every period kept at the step's moment.
 */
const START = Date.parse('2027-03-26T00:00:00Z') * 1000; // the weekend Berlin moves its clocks
const PERIODS = {
  timeZone: 'Europe/Berlin',
  kinds: [
    { kind: 'ALL_TIME' }, { kind: 'HOURLY', retention: 30 }, { kind: 'DAILY', retention: 3 }, { kind: 'WEEKLY', retention: 2 }, { kind: 'MONTHLY', retention: 2 }, { kind: 'YEARLY', retention: 2 },
    // A custom cycle whose first cycle starts a few hours in, so early steps land in none.
    { kind: 'CYCLE', every: { hours: 5 }, anchor: START + 7 * 3_600_000_000, retention: 6 },
  ],
};
const MINUTE = 60_000_000;
const PLAYERS = ['1', '2', 'amy', 'zed'];
const SCORES = [0, 1, -1, 2.5, 100, MAX_SCORE, -MAX_SCORE];

const submission = fc.record({
  playerId: fc.constantFrom(...PLAYERS),
  score: fc.oneof(fc.constantFrom(...SCORES), fc.integer({ min: -3, max: 3 })),
  // Minutes before the step's now, for an import (it may fall in a period no longer kept).
  importedAgo: fc.option(fc.integer({ min: 0, max: 6 * 24 * 60 }), { nil: undefined, freq: 3 }),
});
const step = fc.record({
  // Whole minutes, so no step's now falls a few µs before a boundary (see submit.lua's windows).
  advance: fc.integer({ min: 1, max: 3 * 24 * 60 }),
  // A season added before the step's submissions: minutes from now (or from the last season's
  // end, if later) to its start, and its length.
  season: fc.option(fc.record({ delay: fc.integer({ min: 1, max: 2 * 24 * 60 }), length: fc.integer({ min: 1, max: 3 * 24 * 60 }) }), { nil: undefined, freq: 3 }),
  items: fc.array(submission, { minLength: 1, maxLength: 3 }),
  // A player removed after the step's submissions: from every period kept at the step's now.
  removed: fc.option(fc.constantFrom(...PLAYERS), { nil: undefined, freq: 4 }),
});

let redis: Redis;
let now = START;
let leaderboards: Leaderboards;
beforeAll(() => {
  redis = newTestClient();
  leaderboards = new Leaderboards(new LeaderboardStore(redis, { testNow: () => now }), undefined, { nowMicros: () => now });
});
afterAll(() => redis.quit());

const project = (e: Entry | RankedEntry) => ({
  playerId: e.playerId, score: e.score, rank: e.rank, sharedRank: e.sharedRank, reachedAtMicros: e.reachedAtMicros,
});
const nameOf = (period: Period) => `${period.kind}:${period.key}`;

const combos: [SortOrder, UpdatePolicy][] = [['DESCENDING', 'BEST'], ['ASCENDING', 'LATEST'], ['DESCENDING', 'INCREMENT']];

describe.each(combos)('%s board with %s policy, four kinds of period and seasons added', (sortOrder, updatePolicy) => {
  it('ranks every period exactly as a reference board per period', async () => {
    const clockNow = { nowMicros: () => now };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const boardId = uniqueId('periods-prop');
        await leaderboards.createBoard({ id: boardId, sortOrder, updatePolicy, capacity: 256, periods: PERIODS });
        const models = new Map<string, { period: Period; board: ReferenceBoard }>();
        const modelOf = (period: Period) => {
          let model = models.get(nameOf(period));
          if (!model) models.set(nameOf(period), (model = { period, board: new ReferenceBoard(sortOrder, updatePolicy) }));
          return model.board;
        };
        now = START;
        let clock = 0;
        let calendar = new PeriodCalendar(checkPeriodConfig(PERIODS), clockNow);
        let seasonsEnd = 0;
        try {
          for (const { advance, season, items, removed } of steps) {
            now += advance * MINUTE;
            if (season) {
              const start = Math.max(now + season.delay * MINUTE, seasonsEnd);
              seasonsEnd = start + season.length * MINUTE;
              const added = { id: `s${calendar.config.seasons.length}`, start, end: seasonsEnd };
              const { board } = await leaderboards.addSeasons({ leaderboardId: boardId, seasons: [added], retention: 2 });
              calendar = new PeriodCalendar(parsePeriodConfig(board.periods), clockNow);
            }
            // Where each item lands, as the calendar says; the same periods for the model's trial.
            const planned = items.map((item) => {
              const imported = item.importedAgo !== undefined;
              const reachedAt = imported ? now - item.importedAgo! * MINUTE : undefined;
              return { ...item, reachedAt, periods: imported ? calendar.landingPeriods(reachedAt!, now) : calendar.periodsAt(now) };
            });
            const trial = new Map([...models].map(([name, model]) => [name, model.board.clone()]));
            const overflows = planned.some((item) => item.periods.some((period) => {
              const board = trial.get(nameOf(period)) ?? trial.set(nameOf(period), new ReferenceBoard(sortOrder, updatePolicy)).get(nameOf(period))!;
              if (board.nextScore(item.playerId, item.score) === 'overflow') return true;
              board.submit(item.playerId, item.score, 0, false);
              return false;
            }));
            const submissions = planned.map(({ playerId, score, reachedAt }) => ({ boardId, playerId, score, reachedAtMicros: reachedAt }));
            if (overflows) {
              await expect(leaderboards.submit(submissions)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
              continue;
            }
            const results = await leaderboards.submit(submissions);
            // Live items are stamped now, now + 1, ... (the steps leave the board's clock behind now).
            let live = Math.max(now, clock + 1);
            planned.forEach((item, i) => {
              const imported = item.reachedAt !== undefined;
              const moment = imported ? item.reachedAt! : live++;
              const outcomes = item.periods.map((period) => modelOf(period).submit(item.playerId, item.score, moment, imported));
              const changed = outcomes.some((outcome) => outcome.changed);
              if (changed && !imported) clock = Math.max(clock, moment);
              expect({ ...outcomes[0], changed }).toEqual({
                changed: results[i].changed, previousScore: results[i].previousScore, previousRank: results[i].previousRank,
              });
            });
            if (removed !== undefined) {
              const kept = [...models.values()].filter(({ period }) => calendar.status(period, now) === 'kept');
              const held = kept.map(({ board }) => board.remove(removed)).some(Boolean);
              expect(await leaderboards.remove(boardId, removed)).toBe(held);
            }
          }
          for (const { period, board } of models.values()) {
            const page = await leaderboards.store.page({ boardId, kind: period.kind, key: period.key }, { limit: 1000 });
            expect([nameOf(period), page.entries.map(project)]).toEqual([nameOf(period), board.ranking().map(project)]);
          }
        } finally {
          await leaderboards.deleteBoard(boardId);
        }
      }),
      { numRuns: 20 },
    );
  });
});
