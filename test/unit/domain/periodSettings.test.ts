import fc from 'fast-check';
import {
  addSeasons, checkPeriodConfig, checkSamePeriods, DEFAULT_PERIOD_CONFIG, MAX_RETENTION, MAX_SEASONS,
  periodConfigDifference, type PeriodConfigInput,
} from '../../../src/domain/periods/settings';

const H = 3_600_000_000; // an hour in µs
const refusedAt = (field: string) => expect.objectContaining({ code: 'BAD_USER_INPUT', details: { field } });
const season = (id: string, start: number, end: number) => ({ id, start, end });

describe('period configuration', () => {
  it('keeps ALL_TIME in UTC for a board that names no periods', () => {
    expect(checkPeriodConfig(undefined)).toEqual(DEFAULT_PERIOD_CONFIG);
    expect(checkPeriodConfig(null)).toEqual({ timeZone: 'UTC', kinds: ['ALL_TIME'], retention: {}, seasons: [] });
    expect(checkPeriodConfig({})).toEqual(DEFAULT_PERIOD_CONFIG);
  });

  it('puts kinds in one order, spells zones as the platform does, and fills in retentions', () => {
    const config = checkPeriodConfig({
      timeZone: 'asia/tokyo',
      kinds: [{ kind: 'SEASON' }, { kind: 'DAILY', retention: 30 }, { kind: 'ALL_TIME' }, { kind: 'MONTHLY' }],
      seasons: [season('s2', 10 * H, 20 * H), season('s1', 0, 10 * H)],
    });
    expect(config).toEqual({
      timeZone: 'Asia/Tokyo',
      kinds: ['ALL_TIME', 'DAILY', 'MONTHLY', 'SEASON'],
      retention: { DAILY: 30, MONTHLY: 13, SEASON: 2 },
      seasons: [season('s1', 0, 10 * H), season('s2', 10 * H, 20 * H)],
    });
  });

  it.each<[string, PeriodConfigInput, string]>([
    ['an unknown kind', { kinds: [{ kind: 'MINUTELY' }] }, 'periods.kinds[0].kind'],
    ['a kind named twice', { kinds: [{ kind: 'DAILY' }, { kind: 'DAILY' }] }, 'periods.kinds[1].kind'],
    ['no kind at all', { kinds: [] }, 'periods.kinds'],
    ['kinds that are not a list', { kinds: 'DAILY' }, 'periods.kinds'],
    ['an unknown zone', { timeZone: 'Mars/Olympus_Mons' }, 'periods.timeZone'],
    ['an offset instead of a zone', { timeZone: '+09:00' }, 'periods.timeZone'],
    ['a zone that is not text', { timeZone: 9 }, 'periods.timeZone'],
    ['a retention of 0', { kinds: [{ kind: 'DAILY', retention: 0 }] }, 'periods.kinds[0].retention'],
    ['a retention over the maximum', { kinds: [{ kind: 'WEEKLY', retention: MAX_RETENTION + 1 }] }, 'periods.kinds[0].retention'],
    ['a fractional retention', { kinds: [{ kind: 'MONTHLY', retention: 1.5 }] }, 'periods.kinds[0].retention'],
    ['a retention for ALL_TIME', { kinds: [{ kind: 'ALL_TIME', retention: 3 }] }, 'periods.kinds[0].retention'],
    ['seasons without SEASON', { kinds: [{ kind: 'DAILY' }], seasons: [season('s', 0, H)] }, 'periods.seasons'],
    ['a season ending before it starts', { kinds: [{ kind: 'SEASON' }], seasons: [season('s', 2 * H, H)] }, 'periods.seasons[0].end'],
    ['a season ending as it starts', { kinds: [{ kind: 'SEASON' }], seasons: [season('s', H, H)] }, 'periods.seasons[0].end'],
    ['a season before 1970', { kinds: [{ kind: 'SEASON' }], seasons: [season('s', -H, H)] }, 'periods.seasons[0].start'],
    ['a season with a bad id', { kinds: [{ kind: 'SEASON' }], seasons: [season('a{b}', 0, H)] }, 'periods.seasons[0].id'],
    ['a season id with a colon', { kinds: [{ kind: 'SEASON' }], seasons: [season('2026:spring', 0, H)] }, 'periods.seasons[0].id'],
    ['a season id too long', { kinds: [{ kind: 'SEASON' }], seasons: [season('s'.repeat(65), 0, H)] }, 'periods.seasons[0].id'],
    ['overlapping seasons', { kinds: [{ kind: 'SEASON' }], seasons: [season('a', 0, 2 * H), season('b', H, 3 * H)] }, 'periods.seasons[1]'],
    ['overlapping seasons listed late first', { kinds: [{ kind: 'SEASON' }], seasons: [season('b', H, 3 * H), season('a', 0, 2 * H)] }, 'periods.seasons[0]'],
    ['a season id used twice', { kinds: [{ kind: 'SEASON' }], seasons: [season('a', 0, H), season('a', H, 2 * H)] }, 'periods.seasons[1].id'],
  ])('refuses %s, naming the field', (_, input, field) => {
    expect(() => checkPeriodConfig(input)).toThrow(refusedAt(field));
  });

  it('accepts the largest retention and seasons that touch', () => {
    expect(checkPeriodConfig({ kinds: [{ kind: 'DAILY', retention: MAX_RETENTION }] }).retention.DAILY).toBe(MAX_RETENTION);
    const touching = checkPeriodConfig({ kinds: [{ kind: 'SEASON' }], seasons: [season('a', 0, H), season('b', H, 2 * H)] });
    expect(touching.seasons.map((s) => s.id)).toEqual(['a', 'b']);
  });

  describe('seasons added later', () => {
    const board = checkPeriodConfig({ kinds: [{ kind: 'SEASON' }], seasons: [season('a', 0, 10 * H), season('c', 20 * H, 30 * H)] });

    const add = (config: typeof board, seasons: unknown, retention?: unknown) => addSeasons(config, { seasons, retention }).config;

    it('slot into the list in order', () => {
      const { config, added } = addSeasons(board, { seasons: [season('d', 40 * H, 50 * H), season('b', 10 * H, 20 * H)] });
      expect(config.seasons.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
      expect(added).toEqual([{ season: season('d', 40 * H, 50 * H), field: 'seasons[0]' }, { season: season('b', 10 * H, 20 * H), field: 'seasons[1]' }]);
    });

    it('refuse an overlap with an existing season or with one another, an end before its start, a bad id, an empty list', () => {
      expect(() => add(board, [season('b', 5 * H, 15 * H)])).toThrow(refusedAt('seasons[0]'));
      expect(() => add(board, [season('b', 10 * H, 20 * H), season('b2', 19 * H, 20 * H)])).toThrow(refusedAt('seasons[1]'));
      expect(() => add(board, [season('z', 0, 100 * H)])).toThrow(refusedAt('seasons[0]'));
      expect(() => add(board, [season('e', 40 * H, 30 * H)])).toThrow(refusedAt('seasons[0].end'));
      expect(() => add(board, [season('a', 0, 10 * H), season('bad:id', 40 * H, 50 * H)])).toThrow(refusedAt('seasons[1].id'));
      expect(() => add(board, [season('f', -1, 50 * H)])).toThrow(refusedAt('seasons[0].start'));
      expect(() => add(board, [])).toThrow(refusedAt('seasons'));
    });

    it('leave a repeated identical season as it is, and call the same id with other moments a conflict', () => {
      expect(addSeasons(board, { seasons: [season('a', 0, 10 * H)] })).toEqual({ config: board, added: [] });
      expect(add(board, [season('a', 0, 10 * H)])).toBe(board);
      expect(() => add(board, [season('a', 0, 11 * H)]))
        .toThrow(expect.objectContaining({ code: 'CONFLICT', details: { field: 'seasons[0]' } }));
    });

    it('make SEASON a kept kind of a board that kept none, with the retention asked for or the default', () => {
      const daily = checkPeriodConfig({ kinds: [{ kind: 'DAILY' }] });
      expect(add(daily, [season('a', 0, H)])).toEqual({ ...daily, kinds: ['DAILY', 'SEASON'], retention: { DAILY: 8, SEASON: 2 }, seasons: [season('a', 0, H)] });
      expect(add(DEFAULT_PERIOD_CONFIG, [season('a', 0, H)], 5)).toEqual({
        timeZone: 'UTC', kinds: ['ALL_TIME', 'SEASON'], retention: { SEASON: 5 }, seasons: [season('a', 0, H)],
      });
      expect(() => add(DEFAULT_PERIOD_CONFIG, [season('a', 0, H)], 0)).toThrow(refusedAt('retention'));
      expect(() => add(DEFAULT_PERIOD_CONFIG, [season('a', 0, H)], MAX_RETENTION + 1)).toThrow(refusedAt('retention'));
    });

    it('take the retention of a board that keeps seasons only as it is', () => {
      expect(add(board, [season('d', 40 * H, 50 * H)], 2).seasons).toHaveLength(3);
      expect(() => add(board, [season('d', 40 * H, 50 * H)], 3))
        .toThrow(expect.objectContaining({ code: 'CONFLICT', details: { field: 'retention' } }));
    });

    it('stay under the maximum', () => {
      const many = Array.from({ length: MAX_SEASONS - 1 }, (_, i) => season(`s${i}`, (40 + i) * H, (41 + i) * H));
      expect(() => add(board, many)).toThrow(refusedAt('seasons'));
    });

    it('never leave two seasons overlapping, whatever is added in whatever order', () => {
      const seasonArb = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), start: fc.nat(50), length: fc.integer({ min: 1, max: 20 }) })
        .map(({ id, start, length }) => season(id, start * H, (start + length) * H));
      fc.assert(fc.property(fc.array(fc.array(seasonArb, { maxLength: 3 }), { maxLength: 5 }), (batches) => {
        let config = checkPeriodConfig({ kinds: [{ kind: 'SEASON' }] });
        for (const batch of batches) {
          try {
            config = addSeasons(config, { seasons: batch }).config;
          } catch (err) {
            expect(['BAD_USER_INPUT', 'CONFLICT']).toContain((err as { code: string }).code);
          }
        }
        const seasons = config.seasons;
        for (let i = 1; i < seasons.length; i++) expect(seasons[i].start).toBeGreaterThanOrEqual(seasons[i - 1].end);
        expect(new Set(seasons.map((s) => s.id)).size).toBe(seasons.length);
      }));
    });
  });

  describe('comparing configurations', () => {
    const base = { timeZone: 'Europe/Berlin', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 7 }, { kind: 'SEASON' }], seasons: [season('s', 0, H)] };

    it('calls equal what checks to the same settings', () => {
      const same = { ...base, kinds: [{ kind: 'SEASON', retention: 2 }, { kind: 'DAILY', retention: 7 }, { kind: 'ALL_TIME' }] };
      expect(periodConfigDifference(checkPeriodConfig(base), checkPeriodConfig(same))).toBeNull();
      expect(() => checkSamePeriods(checkPeriodConfig(base), checkPeriodConfig(same))).not.toThrow();
    });

    it.each<[string, PeriodConfigInput, string]>([
      ['zone', { ...base, timeZone: 'Europe/Paris' }, 'periods.timeZone'],
      ['kinds', { ...base, kinds: [{ kind: 'DAILY', retention: 7 }, { kind: 'SEASON' }] }, 'periods.kinds'],
      ['retention', { ...base, kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 8 }, { kind: 'SEASON' }] }, 'periods.kinds.DAILY.retention'],
      ['seasons', { ...base, seasons: [season('s', 0, 2 * H)] }, 'periods.seasons[0]'],
      ['number of seasons', { ...base, seasons: [season('s', 0, H), season('t', H, 2 * H)] }, 'periods.seasons[1]'],
    ])('names the setting that differs: %s, as CONFLICT', (_, other, field) => {
      expect(periodConfigDifference(checkPeriodConfig(base), checkPeriodConfig(other))).toBe(field);
      expect(() => checkSamePeriods(checkPeriodConfig(base), checkPeriodConfig(other)))
        .toThrow(expect.objectContaining({ code: 'CONFLICT', details: { field } }));
    });
  });
});
