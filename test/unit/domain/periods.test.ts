import fc from 'fast-check';
import { DateTime } from 'luxon';
import { PeriodCalendar, type Period } from '../../../src/domain/periods/calendar';
import type { MomentClock } from '../../../src/domain/periods/clock';
import { addSeasons, checkPeriodConfig, type PeriodConfigInput } from '../../../src/domain/periods/settings';

const HOUR = 3_600_000_000; // µs
const us = (iso: string) => Date.parse(iso) * 1000;
const refused = expect.objectContaining({ code: 'BAD_USER_INPUT' });

const ROLLING = [{ kind: 'DAILY' }, { kind: 'WEEKLY' }, { kind: 'MONTHLY' }, { kind: 'YEARLY' }];

function calendar(input: PeriodConfigInput, clock?: MomentClock): PeriodCalendar {
  return new PeriodCalendar(checkPeriodConfig(input), clock);
}

const rolling = (timeZone: string, retention?: number) =>
  calendar({ timeZone, kinds: [{ kind: 'ALL_TIME' }, ...ROLLING.map((k) => ({ ...k, retention }))] });

/** A clock the test sets; nothing else moves it. */
function fixedClock(at: number) {
  const clock = { at, nowMicros: () => clock.at };
  return clock;
}

const span = (period: Period | null) => period && { key: period.key, start: period.start, end: period.end };

describe('the period calendar', () => {
  it('rolls a Tokyo daily board over at Tokyo midnight, to the microsecond, by the injected clock', () => {
    const clock = fixedClock(us('2026-12-01T15:00:00Z') - 1); // 23:59:59.999999 in Tokyo
    const tokyo = calendar({ timeZone: 'Asia/Tokyo', kinds: [{ kind: 'DAILY' }] }, clock);
    expect(span(tokyo.periodAt('DAILY'))).toEqual({
      key: '2026-12-01', start: us('2026-11-30T15:00:00Z'), end: us('2026-12-01T15:00:00Z'),
    });
    clock.at += 1;
    expect(tokyo.periodAt('DAILY')!.key).toBe('2026-12-02');
    expect(tokyo.kept('DAILY').map((p) => p.key).slice(0, 2)).toEqual(['2026-12-02', '2026-12-01']);
    // UTC still says 1 December: the board's zone decides.
    expect(calendar({ kinds: [{ kind: 'DAILY' }] }, clock).periodAt('DAILY')!.key).toBe('2026-12-01');
  });

  it.each([
    ['2026-03-29', 23, '2026-03-28T23:00:00Z', 167],
    ['2026-10-25', 25, '2026-10-24T22:00:00Z', 169],
    ['2026-03-28', 24, '2026-03-27T23:00:00Z', 167],
  ])('makes Europe/Berlin %s one period of %d hours', (key, hours, start, weekHours) => {
    const berlin = rolling('Europe/Berlin');
    const day = berlin.periodByKey('DAILY', key);
    expect(day.start).toBe(us(start));
    expect(day.end! - day.start).toBe(hours * HOUR);
    for (let at = day.start; at < day.end!; at += HOUR / 2) expect(berlin.periodAt('DAILY', at)!.key).toBe(key);
    // The week that holds a short or long day is as much shorter or longer.
    const week = berlin.periodAt('WEEKLY', day.start)!;
    expect(week.end! - week.start).toBe(weekHours * HOUR);
  });

  it('starts a day at its first instant where clocks skip midnight or fall back over it', () => {
    // Sao Paulo skipped 2018-11-04 00:00-01:00; Havana went from 01:00 back to 00:00 that day.
    const saoPaulo = rolling('America/Sao_Paulo').periodByKey('DAILY', '2018-11-04');
    expect([saoPaulo.start, saoPaulo.end! - saoPaulo.start]).toEqual([us('2018-11-04T03:00:00Z'), 23 * HOUR]);
    const havana = rolling('America/Havana').periodByKey('DAILY', '2018-11-04');
    expect([havana.start, havana.end! - havana.start]).toEqual([us('2018-11-04T04:00:00Z'), 25 * HOUR]);
  });

  it('puts 1 January 2027 in ISO week 2026-W53, followed by 2027-W01', () => {
    const utc = rolling('UTC');
    const week = utc.periodAt('WEEKLY', us('2027-01-01T12:00:00Z'))!;
    expect(span(week)).toEqual({ key: '2026-W53', start: us('2026-12-28T00:00:00Z'), end: us('2027-01-04T00:00:00Z') });
    expect(span(utc.following(week))).toEqual({ key: '2027-W01', start: us('2027-01-04T00:00:00Z'), end: us('2027-01-11T00:00:00Z') });
    expect(utc.periodByKey('WEEKLY', '2027-W01')).toEqual(utc.following(week));
    expect(() => utc.periodByKey('WEEKLY', '2027-W53')).toThrow(refused); // 2027 has 52 weeks
    // In Tokyo, the week turns on Monday at Tokyo midnight: Sunday 15:00 UTC.
    expect(rolling('Asia/Tokyo').periodAt('WEEKLY', us('2027-01-03T15:00:00Z'))!.key).toBe('2027-W01');
  });

  describe('hours, on the wall clock of the board zone', () => {
    const hourly = (timeZone: string) => calendar({ timeZone, kinds: [{ kind: 'HOURLY', retention: 4 }] });
    const hourAt = (cal: PeriodCalendar, iso: string) => span(cal.periodAt('HOURLY', us(iso)));

    it('are the zone\'s clock hours, keyed by local date and hour; one the clocks skip is none, one they repeat is one period', () => {
      const berlin = hourly('Europe/Berlin');
      expect(hourAt(berlin, '2027-03-28T00:30:00Z')).toEqual({ key: '2027-03-28T01', start: us('2027-03-28T00:00:00Z'), end: us('2027-03-28T01:00:00Z') });
      // 02:00 becomes 03:00: there is no 02 hour, and the 01 hour is followed by the 03 hour.
      expect(hourAt(berlin, '2027-03-28T01:30:00Z')).toEqual({ key: '2027-03-28T03', start: us('2027-03-28T01:00:00Z'), end: us('2027-03-28T02:00:00Z') });
      expect(() => berlin.periodByKey('HOURLY', '2027-03-28T02')).toThrow(refused);
      expect(berlin.following(berlin.periodByKey('HOURLY', '2027-03-28T01'))!.key).toBe('2027-03-28T03');
      expect(berlin.preceding(berlin.periodByKey('HOURLY', '2027-03-28T03'))!.key).toBe('2027-03-28T01');
      // 03:00 becomes 02:00: the 02 hour happens twice, and is one period of two hours.
      const repeated = { key: '2027-10-31T02', start: us('2027-10-31T00:00:00Z'), end: us('2027-10-31T02:00:00Z') };
      expect(hourAt(berlin, '2027-10-31T00:30:00Z')).toEqual(repeated);
      expect(hourAt(berlin, '2027-10-31T01:30:00Z')).toEqual(repeated);
    });

    it('follow Lord Howe Island\'s half-hour shifts: a 30-minute hour and a 90-minute one', () => {
      const lordHowe = hourly('Australia/Lord_Howe');
      // 02:00 (+10:30) becomes 02:30 (+11).
      expect(hourAt(lordHowe, '2026-10-03T15:40:00Z')).toEqual({ key: '2026-10-04T02', start: us('2026-10-03T15:30:00Z'), end: us('2026-10-03T16:00:00Z') });
      // 02:00 (+11) becomes 01:30 (+10:30).
      expect(hourAt(lordHowe, '2026-04-04T15:10:00Z')).toEqual({ key: '2026-04-05T01', start: us('2026-04-04T14:00:00Z'), end: us('2026-04-04T15:30:00Z') });
    });

    it('follow Santiago\'s changes at midnight: no 00 hour on the day clocks jump, a two-hour 23 hour when they fall back', () => {
      const santiago = hourly('America/Santiago');
      expect(hourAt(santiago, '2026-09-06T04:30:00Z')).toEqual({ key: '2026-09-06T01', start: us('2026-09-06T04:00:00Z'), end: us('2026-09-06T05:00:00Z') });
      expect(() => santiago.periodByKey('HOURLY', '2026-09-06T00')).toThrow(refused);
      expect(hourAt(santiago, '2026-04-05T03:30:00Z')).toEqual({ key: '2026-04-04T23', start: us('2026-04-05T02:00:00Z'), end: us('2026-04-05T04:00:00Z') });
    });

    it('are kept for their retention, the skipped hour not counted', () => {
      const berlin = hourly('Europe/Berlin');
      expect(berlin.kept('HOURLY', us('2027-03-28T02:30:00Z')).map((p) => p.key)).toEqual(['2027-03-28T04', '2027-03-28T03', '2027-03-28T01', '2027-03-28T00']);
      // The 01 hour is kept with the next three (03, 04, 05: 02 does not count), until 06 starts (04:00 UTC).
      expect(berlin.expiresAt(berlin.periodByKey('HOURLY', '2027-03-28T01'))).toBe(us('2027-03-28T04:00:00Z'));
      for (const key of ['2027-03-28T24', '2027-03-28 01', '2027-03-28T1']) expect(() => berlin.periodByKey('HOURLY', key)).toThrow(refused);
    });
  });

  it('turns the year at local midnight on 1 January in the board zone, keyed by the year', () => {
    const tokyo = rolling('Asia/Tokyo');
    // Tokyo's new year comes 9 hours before UTC's.
    expect(tokyo.periodAt('YEARLY', us('2026-12-31T14:59:59.999Z'))!.key).toBe('2026');
    const year = tokyo.periodAt('YEARLY', us('2026-12-31T15:00:00Z'))!;
    expect(span(year)).toEqual({ key: '2027', start: us('2026-12-31T15:00:00Z'), end: us('2027-12-31T15:00:00Z') });
    expect(tokyo.periodByKey('YEARLY', '2027')).toEqual(year);
    expect(span(tokyo.preceding(year))).toEqual({ key: '2026', start: us('2025-12-31T15:00:00Z'), end: us('2026-12-31T15:00:00Z') });
    // A leap year in Berlin holds a 23-hour and a 25-hour day: 366 days to the hour.
    const berlin = rolling('Europe/Berlin').periodByKey('YEARLY', '2028');
    expect(berlin.end! - berlin.start).toBe(366 * 24 * HOUR);
    for (const key of ['27', '2027-01', '20270']) expect(() => tokyo.periodByKey('YEARLY', key)).toThrow(refused);
  });

  it('turns the month at local midnight in the board zone', () => {
    const newYork = rolling('America/New_York');
    expect(newYork.periodAt('MONTHLY', us('2026-12-01T04:59:59.999Z'))!.key).toBe('2026-11');
    const december = newYork.periodAt('MONTHLY', us('2026-12-01T05:00:00Z'))!;
    expect(span(december)).toEqual({ key: '2026-12', start: us('2026-12-01T05:00:00Z'), end: us('2027-01-01T05:00:00Z') });
    // November holds the end of daylight saving: 30 days and one hour.
    const november = newYork.preceding(december)!;
    expect([november.key, november.end! - november.start]).toEqual(['2026-11', (30 * 24 + 1) * HOUR]);
  });

  describe('seasons', () => {
    const s1 = { id: 'spring', start: us('2026-03-01T00:00:00Z'), end: us('2026-06-01T00:00:00Z') };
    const s2 = { id: 'summer', start: us('2026-06-15T00:00:00Z'), end: us('2026-09-01T00:00:00Z') };
    const s3 = { id: 'autumn', start: us('2026-09-01T00:00:00Z'), end: us('2026-12-01T00:00:00Z') };
    const seasons = (retention = 1) => calendar({ kinds: [{ kind: 'ALL_TIME' }, { kind: 'SEASON', retention }], seasons: [s3, s1, s2] });

    it('holds a moment until the season ends, then none until the next starts', () => {
      const cal = seasons();
      expect(cal.periodAt('SEASON', s1.end - 1)!.key).toBe('spring');
      expect(cal.periodAt('SEASON', s1.end)).toBeNull();
      expect(cal.periodsAt(s1.end).map((p) => p.key)).toEqual(['all']);
      expect(cal.periodAt('SEASON', s2.start)!.key).toBe('summer');
      expect(cal.periodAt('SEASON', s3.start)!.key).toBe('autumn'); // touching seasons: end is exclusive
      expect(cal.periodAt('SEASON', s1.start - 1)).toBeNull();
      expect(cal.following(cal.periodByKey('SEASON', 'spring'))!.key).toBe('summer');
      expect(() => cal.periodByKey('SEASON', 'winter')).toThrow(refused);
    });

    it('keeps an ended season until the retention-th season after it starts', () => {
      const one = seasons(1);
      const spring = one.periodByKey('SEASON', 'spring');
      expect(one.expiresAt(spring)).toBe(s2.start);
      expect(one.kept('SEASON', s1.end).map((p) => p.key)).toEqual(['spring']); // final standings stay
      expect(one.status(spring, s2.start)).toBe('expired');
      expect(one.status(one.periodByKey('SEASON', 'autumn'), s2.start)).toBe('upcoming');
      const two = seasons(2);
      expect(two.expiresAt(two.periodByKey('SEASON', 'spring'))).toBe(s3.start);
      expect(two.kept('SEASON', s3.start).map((p) => p.key)).toEqual(['autumn', 'summer']);
      // Nothing ends the last seasons until more are named.
      expect(two.expiresAt(two.periodByKey('SEASON', 'summer'))).toBeNull();
      const winter = { id: 'winter', start: us('2027-01-01T00:00:00Z'), end: us('2027-03-01T00:00:00Z') };
      const later = new PeriodCalendar(addSeasons(two.config, { seasons: [winter] }).config);
      expect(later.expiresAt(later.periodByKey('SEASON', 'summer'))).toBe(winter.start);
    });

    it('names the next season to start: none once the last has started, none on a board without seasons', () => {
      const cal = seasons();
      expect(cal.nextSeason(s1.start - 1)!.key).toBe('spring');
      expect(cal.nextSeason(s1.start)!.key).toBe('summer');
      expect(cal.nextSeason(s1.end)!.key).toBe('summer'); // between spring and summer
      expect(cal.nextSeason(s3.start)).toBeNull();
      expect(rolling('UTC').nextSeason(s1.start)).toBeNull();
    });

    it('gives a script the season, or the gap between seasons, and the boundaries around it', () => {
      const cal = seasons();
      const summer = cal.window('SEASON', s2.start);
      expect([summer.period!.key, summer.from, summer.to]).toEqual(['summer', s2.start, s2.end]);
      expect(cal.window('SEASON', s1.end)).toEqual({ kind: 'SEASON', period: null, from: s1.end, to: s2.start });
      expect(cal.window('SEASON', s1.start - 1)).toEqual({ kind: 'SEASON', period: null, from: 0, to: s1.start });
      expect(cal.window('SEASON', s3.end)).toEqual({ kind: 'SEASON', period: null, from: s3.end, to: null });
    });
  });

  describe('retention', () => {
    it('expires a period when the retention-th period after it starts', () => {
      const tokyo = rolling('Asia/Tokyo', 3);
      const day = tokyo.periodByKey('DAILY', '2026-12-01');
      expect(tokyo.expiresAt(day)).toBe(us('2026-12-03T15:00:00Z')); // the start of 4 December in Tokyo
      expect(tokyo.status(day, us('2026-12-03T15:00:00Z') - 1)).toBe('kept');
      expect(tokyo.status(day, us('2026-12-03T15:00:00Z'))).toBe('expired');
      expect(tokyo.status(day, day.start - 1)).toBe('upcoming');
      expect(tokyo.expiresAt(tokyo.periodByKey('WEEKLY', '2026-W49'))).toBe(us('2026-12-20T15:00:00Z')); // 2026-W52
      expect(tokyo.expiresAt(tokyo.periodByKey('MONTHLY', '2026-11'))).toBe(us('2027-01-31T15:00:00Z'));
      expect(tokyo.expiresAt(tokyo.periodAt('ALL_TIME', 0)!)).toBeNull();
      // Retention 1 keeps only the current period: a Berlin day ends with its last hour.
      const berlin = rolling('Europe/Berlin', 1);
      expect(berlin.expiresAt(berlin.periodByKey('DAILY', '2026-03-29'))).toBe(us('2026-03-29T22:00:00Z'));
    });

    it('lists the kept periods, newest first, and lands an import only in those', () => {
      const at = us('2026-12-01T12:00:00Z');
      const utc = rolling('UTC', 2);
      expect(utc.allKept(at).map((p) => p.key)).toEqual(['all', '2026-12-01', '2026-11-30', '2026-W49', '2026-W48', '2026-12', '2026-11', '2026', '2025']);
      expect(utc.landingPeriods(us('2026-11-30T23:00:00Z'), at).map((p) => p.key)).toEqual(['all', '2026-11-30', '2026-W49', '2026-11', '2026']);
      expect(utc.landingPeriods(us('2026-11-29T23:00:00Z'), at).map((p) => p.key)).toEqual(['all', '2026-W48', '2026-11', '2026']);
      const noAllTime = calendar({ kinds: [{ kind: 'DAILY', retention: 1 }] });
      expect(noAllTime.landingPeriods(us('2026-11-30T23:00:00Z'), at)).toEqual([]);
      expect(noAllTime.kept('WEEKLY', at)).toEqual([]); // not a kind the board keeps
    });

    it('uses the default retention when a kind names none', () => {
      const utc = calendar({ kinds: ROLLING });
      const at = us('2026-12-01T12:00:00Z');
      expect([utc.kept('DAILY', at).length, utc.kept('WEEKLY', at).length, utc.kept('MONTHLY', at).length]).toEqual([8, 5, 13]);
    });
  });

  it('gives a script the current and the next boundary', () => {
    const berlin = rolling('Europe/Berlin');
    const day = berlin.window('DAILY', us('2026-03-29T12:00:00Z'));
    expect([day.period!.key, day.from, day.to]).toEqual(['2026-03-29', us('2026-03-28T23:00:00Z'), us('2026-03-29T22:00:00Z')]);
    expect(berlin.window('ALL_TIME', 0)).toEqual({ kind: 'ALL_TIME', period: { kind: 'ALL_TIME', key: 'all', start: 0, end: null }, from: 0, to: null });
  });

  describe('the period a client asks for', () => {
    const now = us('2026-12-02T12:00:00Z');
    const board = calendar({
      timeZone: 'Asia/Tokyo',
      kinds: [{ kind: 'DAILY', retention: 2 }, { kind: 'SEASON' }],
      seasons: [{ id: 's1', start: us('2026-11-01T00:00:00Z'), end: us('2026-12-01T00:00:00Z') }],
    }, fixedClock(now));
    const code = (code: string, field: string) => expect.objectContaining({ code, details: { field } });

    it('is the current one unless a moment or a key says otherwise', () => {
      expect(board.requested({ kind: 'DAILY' }).key).toBe('2026-12-02');
      expect(board.requested({ kind: 'DAILY', at: us('2026-12-01T15:00:00Z') - 1 }).key).toBe('2026-12-01');
      expect(board.requested({ kind: 'DAILY', key: '2026-12-01' }).key).toBe('2026-12-01');
      expect(board.requested({ kind: 'DAILY', key: '2026-12-03' }).key).toBe('2026-12-03'); // upcoming: empty until it starts
      expect(board.requested({ kind: 'SEASON', key: 's1' }).key).toBe('s1'); // ended, kept until a next season starts
    });

    it('is BAD_USER_INPUT for a kind the board does not keep, a bad key, or both a moment and a key', () => {
      expect(() => board.requested({ kind: 'WEEKLY' })).toThrow(code('BAD_USER_INPUT', 'period.kind'));
      expect(() => board.requested({ kind: 'YEARLY' })).toThrow(code('BAD_USER_INPUT', 'period.kind'));
      expect(() => board.requested({ kind: 'DAILY', key: '2026-12-32' })).toThrow(code('BAD_USER_INPUT', 'period.key'));
      expect(() => board.requested({ kind: 'DAILY', key: 20261201 })).toThrow(code('BAD_USER_INPUT', 'period.key'));
      expect(() => board.requested({ kind: 'DAILY', at: -1 })).toThrow(code('BAD_USER_INPUT', 'period.at'));
      expect(() => board.requested({ kind: 'DAILY', at: now, key: '2026-12-02' })).toThrow(code('BAD_USER_INPUT', 'period'));
    });

    it('is NOT_FOUND once expired, and between seasons, naming what was asked', () => {
      expect(() => board.requested({ kind: 'DAILY', key: '2026-11-30' })).toThrow(code('NOT_FOUND', 'period'));
      expect(() => board.requested({ kind: 'SEASON' })).toThrow(code('NOT_FOUND', 'period.kind'));
      expect(() => board.requested({ kind: 'SEASON', at: now })).toThrow(code('NOT_FOUND', 'period.at'));
    });

    it('has no current season between seasons, which currentOrRequested answers with null', () => {
      expect(board.currentOrRequested({ kind: 'SEASON' })).toBeNull();
      expect(board.currentOrRequested({ kind: 'SEASON', key: 's1' })!.key).toBe('s1');
      expect(() => board.currentOrRequested({ kind: 'SEASON', at: now })).toThrow(code('NOT_FOUND', 'period.at'));
    });
  });

  it('refuses keys that name no period of the kind', () => {
    const utc = rolling('UTC');
    expect(utc.periodByKey('ALL_TIME', 'all').key).toBe('all');
    expect(utc.periodByKey('MONTHLY', '2026-12').start).toBe(us('2026-12-01T00:00:00Z'));
    for (const [kind, key] of [
      ['DAILY', '2026-02-30'], ['DAILY', '2026-12-1'], ['DAILY', '2026-W49'], ['WEEKLY', '2026-W00'], ['WEEKLY', '2026-12'],
      ['MONTHLY', '2026-13'], ['MONTHLY', '2026-12-01'], ['ALL_TIME', '2026'], ['DAILY', '1969-12-30'], ['DAILY', '9999-01-01'],
    ] as const) {
      expect(() => utc.periodByKey(kind, key, 'period.key')).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT', details: { field: 'period.key' } }));
    }
  });

  describe('over random zones and moments', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    const zoneArb = fc.constantFrom(...zones);
    // 1971 to 2200: a day either side of the range stays within moments the store accepts.
    const momentArb = fc.integer({ min: us('1971-01-01T00:00:00Z'), max: us('2200-01-01T00:00:00Z') });
    const kindArb = fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY' as const);

    it('puts every moment in exactly one period of each kind, whose neighbours touch it', () => {
      fc.assert(fc.property(zoneArb, momentArb, kindArb, (zone, at, kind) => {
        const cal = rolling(zone);
        const period = cal.periodAt(kind, at)!;
        expect(period.start <= at && at < period.end!).toBe(true);
        const before = cal.preceding(period)!, after = cal.following(period)!;
        expect(before.end).toBe(period.start);
        expect(after.start).toBe(period.end);
        // Both ends decide: the last microsecond before the start is the period before.
        expect(cal.periodAt(kind, period.start - 1)).toEqual(before);
        expect(cal.periodAt(kind, period.end! - 1)).toEqual(period);
        expect(cal.periodAt(kind, period.end!)).toEqual(after);
        expect(cal.periodByKey(kind, period.key)).toEqual(period);
        expect(cal.window(kind, at)).toEqual({ kind, period, from: period.start, to: period.end });
      }), { numRuns: 300 });
    });

    it('tiles a year with days, weeks and months in key order, each within a day of its nominal length', () => {
      fc.assert(fc.property(zoneArb, fc.integer({ min: 1971, max: 2199 }), kindArb, (zone, year, kind) => {
        const cal = rolling(zone);
        const last = us(`${year + 1}-01-01T00:00:00Z`);
        let period = cal.periodAt(kind, us(`${year}-01-01T00:00:00Z`))!;
        const nominal = { DAILY: [1, 1], WEEKLY: [7, 7], MONTHLY: [28, 31] }[kind].map((days) => days * 24 * HOUR);
        while (period.start < last) {
          const next = cal.following(period)!;
          expect(next.start).toBe(period.end);
          expect(next.key > period.key).toBe(true);
          const length = period.end! - period.start;
          // Zones have moved by up to a whole day (Pacific/Apia skipped 2011-12-30).
          expect(length).toBeGreaterThanOrEqual(nominal[0] - 24 * HOUR);
          expect(length).toBeLessThanOrEqual(nominal[1] + 24 * HOUR);
          period = next;
        }
      }), { numRuns: 40 });
    });

    it("names periods as luxon reads the wall clock, away from midnight's DST changes", () => {
      fc.assert(fc.property(zoneArb, momentArb, (zone, at) => {
        const local = DateTime.fromMillis(Math.floor(at / 1000), { zone });
        fc.pre(local.hour >= 3 && local.hour < 21);
        const cal = rolling(zone);
        expect(cal.periodAt('DAILY', at)!.key).toBe(local.toISODate());
        expect(cal.periodAt('WEEKLY', at)!.key).toBe(`${local.weekYear}-W${String(local.weekNumber).padStart(2, '0')}`);
        expect(cal.periodAt('MONTHLY', at)!.key).toBe(local.toFormat('yyyy-MM'));
      }), { numRuns: 300 });
    });

    it('keeps exactly `retention` periods: each kept, the one before them expired', () => {
      const laterArb = fc.integer({ min: us('1975-01-01T00:00:00Z'), max: us('2200-01-01T00:00:00Z') }); // 20 months back stay after 1970
      fc.assert(fc.property(zoneArb, laterArb, kindArb, fc.integer({ min: 1, max: 20 }), (zone, at, kind, retention) => {
        const cal = rolling(zone, retention);
        const kept = cal.kept(kind, at);
        expect(kept).toHaveLength(retention);
        expect(kept[0]).toEqual(cal.periodAt(kind, at));
        for (const period of kept) expect(cal.status(period, at)).toBe('kept');
        const gone = cal.preceding(kept[retention - 1])!;
        expect(cal.status(gone, at)).toBe('expired');
        expect(cal.expiresAt(gone)).toBe(kept[0].start);
      }), { numRuns: 200 });
    });
  });
});
