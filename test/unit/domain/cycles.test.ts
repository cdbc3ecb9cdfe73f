// Custom cycles (issue 34): a board's CYCLE periods, every N minutes, hours or days from an anchor.
// In minutes or hours a cycle is absolute time; in days it follows local midnight.
import { PeriodCalendar, type Period } from '../../../src/domain/periods/calendar';
import { checkPeriodConfig, type PeriodConfigInput, serializePeriodConfig, parsePeriodConfig } from '../../../src/domain/periods/settings';

const HOUR = 3_600_000_000; // µs
const us = (iso: string) => Date.parse(iso) * 1000;
const refused = (field: string) => expect.objectContaining({ code: 'BAD_USER_INPUT', details: expect.objectContaining({ field }) });

function cycle(timeZone: string, every: Record<string, number>, anchor: string, retention?: number): PeriodCalendar {
  return new PeriodCalendar(checkPeriodConfig({ timeZone, kinds: [{ kind: 'ALL_TIME' }, { kind: 'CYCLE', every, anchor: us(anchor), retention }] }));
}

const span = (period: Period | null) => period && { key: period.key, start: new Date(period.start / 1000).toISOString(), end: new Date(period.end! / 1000).toISOString() };

describe('cycles in hours are absolute time', () => {
  it('runs every 3 hours from the anchor, keyed by the start in UTC, with none before the anchor', () => {
    const threeHours = cycle('Europe/Berlin', { hours: 3 }, '2026-12-01T09:30:00Z');
    expect(threeHours.periodAt('CYCLE', us('2026-12-01T09:29:59.999999Z'))).toBeNull();
    expect(span(threeHours.periodAt('CYCLE', us('2026-12-01T09:30:00Z')))).toEqual({
      key: '2026-12-01T09:30Z', start: '2026-12-01T09:30:00.000Z', end: '2026-12-01T12:30:00.000Z',
    });
    expect(span(threeHours.periodAt('CYCLE', us('2026-12-02T00:00:00Z')))).toEqual({
      key: '2026-12-01T21:30Z', start: '2026-12-01T21:30:00.000Z', end: '2026-12-02T00:30:00.000Z',
    });
    // Before the anchor, a write's window runs up to the first cycle.
    expect(threeHours.window('CYCLE', us('2026-11-30T00:00:00Z'))).toEqual({ kind: 'CYCLE', period: null, from: 0, to: us('2026-12-01T09:30:00Z') });
  });

  it.each([
    ['Europe/Berlin', '2026-10-25T00:00:00Z'], // clocks fall back 03:00 -> 02:00 local
    ['America/Santiago', '2026-09-06T03:00:00Z'], // clocks jump at local midnight
    ['Australia/Lord_Howe', '2026-10-04T15:00:00Z'], // a 30-minute shift
  ])('keeps every cycle exactly its length through a DST change in %s', (timeZone, from) => {
    const hourly = cycle(timeZone, { hours: 1 }, from);
    const keys = new Set<string>();
    for (let period: Period | null = hourly.periodAt('CYCLE', us(from)), i = 0; i < 48; i++, period = hourly.following(period!)) {
      expect(period!.end! - period!.start).toBe(HOUR);
      keys.add(period!.key);
      expect(hourly.periodByKey('CYCLE', period!.key)).toEqual(period);
    }
    expect(keys.size).toBe(48);
  });
});

describe('cycles in days follow local midnight', () => {
  it('runs two-week ladders from a local midnight; a DST day makes that ladder an hour shorter', () => {
    const ladder = cycle('Europe/Berlin', { days: 14 }, '2027-03-14T23:00:00Z', 3); // Monday 15 March, 00:00 in Berlin
    const first = ladder.periodAt('CYCLE', us('2027-03-20T12:00:00Z'))!;
    expect(span(first)).toEqual({ key: '2027-03-15', start: '2027-03-14T23:00:00.000Z', end: '2027-03-28T22:00:00.000Z' });
    expect(first.end! - first.start).toBe(14 * 24 * HOUR - HOUR);
    expect(ladder.following(first)!.key).toBe('2027-03-29');
    expect(ladder.preceding(first)).toBeNull();
    // Retention 3: the first ladder is kept until the third after it starts.
    expect(ladder.expiresAt(first)).toBe(us('2027-04-25T22:00:00Z'));
    expect(ladder.kept('CYCLE', us('2027-04-20T00:00:00Z')).map((p) => p.key)).toEqual(['2027-04-12', '2027-03-29', '2027-03-15']);
  });

  it('starts a cycle at the first instant of its date where Santiago skips midnight', () => {
    const daily = cycle('America/Santiago', { days: 1 }, '2026-09-01T04:00:00Z');
    // 6 September 2026: clocks jump from 00:00 to 01:00 (UTC-4 to UTC-3).
    expect(span(daily.periodByKey('CYCLE', '2026-09-06'))).toEqual({
      key: '2026-09-06', start: '2026-09-06T04:00:00.000Z', end: '2026-09-07T03:00:00.000Z',
    });
  });

  it('refuses keys that name no cycle of the board', () => {
    const weekly = cycle('UTC', { days: 7 }, '2026-12-07T00:00:00Z');
    expect(weekly.periodByKey('CYCLE', '2026-12-14').key).toBe('2026-12-14');
    for (const key of ['2026-12-15', '2026-11-30', '2026-12-14T00:00Z', '2026-02-30']) {
      expect(() => weekly.periodByKey('CYCLE', key)).toThrow(refused('period.key'));
    }
    expect(() => cycle('UTC', { hours: 2 }, '2026-12-07T00:00:00Z').periodByKey('CYCLE', '2026-12-07T01:00Z')).toThrow(refused('period.key'));
  });
});

describe('a cycle\'s settings', () => {
  const check = (item: Record<string, unknown>, timeZone = 'Europe/Berlin') => () => checkPeriodConfig({ timeZone, kinds: [{ kind: 'CYCLE', ...item }] } as PeriodConfigInput);

  it('are checked, each problem naming its field', () => {
    const anchor = us('2026-11-30T23:00:00Z'); // midnight in Berlin
    expect(check({ anchor })).toThrow(refused('periods.kinds[0].every'));
    expect(check({ every: { hours: 1, days: 1 }, anchor })).toThrow(refused('periods.kinds[0].every'));
    expect(check({ every: { minutes: 0 }, anchor })).toThrow(refused('periods.kinds[0].every.minutes'));
    expect(check({ every: { days: 367 }, anchor })).toThrow(refused('periods.kinds[0].every.days'));
    expect(check({ every: { hours: 3 } })).toThrow(refused('periods.kinds[0].anchor'));
    expect(check({ every: { hours: 3 }, anchor: anchor + 1_000_000 })).toThrow(refused('periods.kinds[0].anchor'));
    expect(check({ every: { days: 1 }, anchor: anchor + HOUR })).toThrow(refused('periods.kinds[0].anchor'));
    expect(() => checkPeriodConfig({ kinds: [{ kind: 'DAILY', every: { days: 1 } }] })).toThrow(refused('periods.kinds[0].every'));
    expect(check({ every: { days: 1 }, anchor })()).toMatchObject({ cycle: { unit: 'DAYS', every: 1, anchor }, retention: { CYCLE: 10 } });
  });

  it('are stored with the board\'s periods and read back unchanged', () => {
    const config = check({ every: { minutes: 90 }, anchor: us('2026-12-01T10:15:00Z'), retention: 4 })();
    const text = serializePeriodConfig(config);
    expect(parsePeriodConfig(text)).toEqual(config);
    // Another cycle is another configuration: re-creating the board with it is refused.
    expect(serializePeriodConfig(check({ every: { minutes: 60 }, anchor: us('2026-12-01T10:15:00Z'), retention: 4 })())).not.toBe(text);
  });
});
