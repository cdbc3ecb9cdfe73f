import type { IANAZone } from 'luxon';
import { badInput, ErrorCode, StandingsError } from '../../errors';
import { systemMomentClock, type MomentClock } from './clock';
import { CyclePeriods } from './cycles';
import { checkKind, checkMoment, type PeriodConfig, type PeriodKind, type RetainedKind, type Season } from './settings';
import {
  DAY_MS, dayOf, fieldsOf, HOUR_MS, isoWeekMonday, isoWeekOf, mondayOf, slotAt, slotStart, zone,
} from './zonedDates';

/** One period of a board: every moment from `start` (inclusive) to `end` (exclusive), in µs. */
export interface Period {
  readonly kind: PeriodKind;
  /** `2026-12-01`, `2026-W49`, `2026-12`, `2026`, a season's id, a cycle's start, or `all`: stable, and unique per kind. */
  readonly key: string;
  readonly start: number;
  /** null for ALL_TIME, which never ends. */
  readonly end: number | null;
}

/**
 * The stretch of time around a moment in which one period of a kind holds (or, for SEASON, none:
 * a gap between seasons; for CYCLE, none before its anchor): from the current boundary to the next (null: never). Node computes it
 * with its own clock and passes it to a script, which checks that the moment it stamps by Redis'
 * clock lies inside; when it does not, Node's clock was off by the boundary, and Node asks again
 * with the script's moment. So Redis' clock decides the period, and Node's only guesses it.
 */
export interface PeriodWindow {
  kind: PeriodKind;
  period: Period | null;
  from: number;
  to: number | null;
}

/** A period as a client names it: its kind, and a moment in it or its key (neither: the current one). */
export interface PeriodRequest {
  kind: unknown;
  at?: unknown;
  key?: unknown;
}

/** Where a period stands at a moment. */
export type PeriodStatus = 'upcoming' | 'kept' | 'expired';

type RollingKind = Exclude<PeriodKind, 'ALL_TIME' | 'SEASON' | 'CYCLE'>;

const ALL_TIME: Period = { kind: 'ALL_TIME', key: 'all', start: 0, end: null };
/** The latest moment the store accepts (see checkReachedAtMicros). */
const LAST_MOMENT = Number.MAX_SAFE_INTEGER;
/** Per slot length: over ten years of days, or all the boundaries a listing of the longest retention needs. */
const MAX_KEPT_STARTS = 4096;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * How each rolling kind groups wall-clock slots (dates, or for HOURLY hours since 1970-01-01
 * 00:00 on the wall clock): the first slot of a slot's period, its key, and steps.
 */
const UNITS: Record<RollingKind, {
  /** A slot's length on the wall clock: a day, or an hour. */
  slotMs: number;
  first(slot: number): number;
  key(first: number): string;
  /** The first slot `count` periods after (before, when negative) the period starting at `first`. */
  shift(first: number, count: number): number;
  /** The first slot of the period a key names, if it is one; the caller checks by printing it back. */
  parse(key: string): number | null;
  /** What a key looks like, for the error refusing one that is not. */
  example: string;
}> = {
  HOURLY: {
    slotMs: HOUR_MS,
    first: (hour) => hour,
    key: (first) => `${UNITS.DAILY.key(Math.floor(first / 24))}T${pad(((first % 24) + 24) % 24)}`,
    shift: (first, count) => first + count,
    parse: (key) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/.exec(key);
      return m ? dayOf(Number(m[1]), Number(m[2]), Number(m[3])) * 24 + Number(m[4]) : null;
    },
    example: 'an hour such as 2026-12-01T14',
  },
  DAILY: {
    slotMs: DAY_MS,
    first: (day) => day,
    key: (first) => {
      const { year, month, day } = fieldsOf(first);
      return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
    },
    shift: (first, count) => first + count,
    parse: (key) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
      return m ? dayOf(Number(m[1]), Number(m[2]), Number(m[3])) : null;
    },
    example: 'a date such as 2026-12-01',
  },
  WEEKLY: {
    slotMs: DAY_MS,
    first: mondayOf,
    key: (first) => {
      const { weekYear, week } = isoWeekOf(first);
      return `${pad(weekYear, 4)}-W${pad(week)}`;
    },
    shift: (first, count) => first + 7 * count,
    parse: (key) => {
      const m = /^(\d{4})-W(\d{2})$/.exec(key);
      return m ? isoWeekMonday(Number(m[1]), Number(m[2])) : null;
    },
    example: 'an ISO week such as 2026-W49',
  },
  MONTHLY: {
    slotMs: DAY_MS,
    first: (day) => {
      const { year, month } = fieldsOf(day);
      return dayOf(year, month, 1);
    },
    key: (first) => {
      const { year, month } = fieldsOf(first);
      return `${pad(year, 4)}-${pad(month)}`;
    },
    shift: (first, count) => {
      const { year, month } = fieldsOf(first);
      return dayOf(year, month + count, 1);
    },
    parse: (key) => {
      const m = /^(\d{4})-(\d{2})$/.exec(key);
      return m ? dayOf(Number(m[1]), Number(m[2]), 1) : null;
    },
    example: 'a month such as 2026-12',
  },
  YEARLY: {
    slotMs: DAY_MS,
    first: (day) => dayOf(fieldsOf(day).year, 1, 1),
    key: (first) => pad(fieldsOf(first).year, 4),
    shift: (first, count) => dayOf(fieldsOf(first).year + count, 1, 1),
    parse: (key) => {
      const m = /^(\d{4})$/.exec(key);
      return m ? dayOf(Number(m[1]), 1, 1) : null;
    },
    example: 'a year such as 2026',
  },
};

const isRolling = (kind: PeriodKind): kind is RollingKind => kind in UNITS;

/**
 * The periods of a board (config.ts) in its time zone: which period holds a moment, which are
 * kept, when each expires, and what a script needs to decide by its own clock.
 *
 * A rolling period (DAILY, WEEKLY, MONTHLY, YEARLY) runs from the first instant of its first date in the
 * zone to the first instant of the next period's first date, so days of 23 or 25 hours are one
 * period each and consecutive periods leave no gap. Retention r keeps a period until the r-th
 * period of its kind after it starts: with r = 1, a day until the next midnight, a season until
 * the next season starts. Methods that take a moment default to the clock's now, which decides
 * only what Node does by itself (a script decides by Redis' clock, see PeriodWindow).
 */
export class PeriodCalendar {
  private readonly tz: IANAZone;
  /** The period each rolling kind last found: most moments asked about fall in it again. */
  private readonly recent = new Map<RollingKind, Period>();
  /** Slot starts (µs) by slot length and slot: neighbouring periods share their boundaries, and lists ask for many. */
  private readonly starts = new Map<number, Map<number, number>>();
  /** expiresAt by period: every write asks it of the periods `recent` keeps. */
  private readonly expiries = new WeakMap<Period, number | null>();
  private readonly cycles: CyclePeriods | undefined;

  constructor(
    readonly config: PeriodConfig,
    private readonly clock: MomentClock = systemMomentClock,
  ) {
    this.tz = zone(config.timeZone);
    this.cycles = config.cycle && new CyclePeriods(config.cycle, this.tz);
  }

  now(): number {
    return this.clock.nowMicros();
  }

  keeps(kind: PeriodKind): boolean {
    return this.config.kinds.includes(kind);
  }

  /** The period of `kind` that holds the moment; null for SEASON between seasons, and for CYCLE before its anchor. */
  periodAt(kind: PeriodKind, at = this.now()): Period | null {
    if (kind === 'ALL_TIME') return ALL_TIME;
    if (kind === 'CYCLE') {
      const n = this.cycleRule().indexAt(at);
      return n < 0 ? null : this.cycleRule().period(n);
    }
    if (kind === 'SEASON') {
      const season = this.config.seasons[this.seasonIndexAt(at)];
      return season && at < season.end ? seasonPeriod(season) : null;
    }
    const recent = this.recent.get(kind);
    if (recent && recent.start <= at && at < recent.end!) return recent;
    const period = this.rollingPeriod(kind, this.firstDateAt(kind, at));
    this.recent.set(kind, period);
    return period;
  }

  /** Every kept kind's period that holds the moment: where a submission at that moment lands. */
  periodsAt(at = this.now()): Period[] {
    return this.config.kinds.flatMap((kind) => this.periodAt(kind, at) ?? []);
  }

  /**
   * Where an imported moment lands, judged at `now`: the periods that hold it and are still kept.
   * Empty when it is outside every kept period (the caller refuses such a submission).
   */
  landingPeriods(at: number, now = this.now()): Period[] {
    return this.periodsAt(at).filter((period) => this.status(period, now) === 'kept');
  }

  /**
   * The period a client asks for, judged at `now`: BAD_USER_INPUT (naming the field) for a kind
   * the board does not keep, both a moment and a key, or a key that names no period; NOT_FOUND for
   * a moment between seasons and for a period that has expired. An upcoming period is returned
   * (it is empty until it starts). The current season, asked for by its kind alone between
   * seasons (or the current cycle before the first), is NOT_FOUND naming the kind:
   * `currentOrRequested` answers null for it instead.
   */
  requested(request: PeriodRequest, now = this.now(), field = 'period'): Period {
    const period = this.currentOrRequested(request, now, field);
    if (!period) {
      const next = request.kind === 'CYCLE' ? this.cycleRule().period(0) : this.nextSeason(now);
      const what = request.kind === 'CYCLE' ? 'no cycle has started yet' : 'no season is running now';
      throw notFound(`${what}${next ? `: the next, ${next.key}, starts at ${new Date(next.start / 1000).toISOString()}` : ''}`, `${field}.kind`);
    }
    return period;
  }

  /** As `requested`, but null for the current season (its kind alone, no moment or key) between seasons. */
  currentOrRequested(request: PeriodRequest, now = this.now(), field = 'period'): Period | null {
    const kind = this.keptKind(request.kind, `${field}.kind`);
    if (request.at != null && request.key != null) {
      throw badInput(`${field}: give a moment (at) or a key, not both`, { field });
    }
    let period: Period | null;
    if (request.key != null) {
      if (typeof request.key !== 'string') throw badInput(`${field}.key must be a string`, { field: `${field}.key` });
      period = this.periodByKey(kind, request.key, `${field}.key`);
    } else {
      if (request.at == null) {
        period = this.periodAt(kind, now);
        if (!period) return null;
      } else {
        period = this.periodAt(kind, checkMoment(request.at, `${field}.at`));
        if (!period) throw notFound(`no ${kind === 'CYCLE' ? 'cycle' : 'season'} holds that moment`, `${field}.at`);
      }
    }
    if (this.status(period, now) === 'expired') throw notFound(`the ${kind} period ${period.key} has expired`, field);
    return period;
  }

  /** A kind a client named, if the board keeps it; BAD_USER_INPUT naming `field` otherwise. */
  keptKind(value: unknown, field: string): PeriodKind {
    const kind = checkKind(value, field);
    if (!this.keeps(kind)) throw badInput(`${field}: this board keeps ${this.config.kinds.join(', ')} periods, not ${kind}`, { field });
    return kind;
  }

  /** The period of `kind` named by `key`; BAD_USER_INPUT (naming `field`) for a key that names none. */
  periodByKey(kind: PeriodKind, key: string, field = 'period.key'): Period {
    const refuse = (expected: string) => badInput(`${field} must be ${expected} for a ${kind} period, not ${JSON.stringify(key)}`, { field });
    if (kind === 'ALL_TIME') {
      if (key !== ALL_TIME.key) throw refuse('"all"');
      return ALL_TIME;
    }
    if (kind === 'SEASON') {
      const season = this.config.seasons.find((s) => s.id === key);
      if (!season) throw refuse('the id of one of the board\'s seasons');
      return seasonPeriod(season);
    }
    if (kind === 'CYCLE') {
      const n = this.cycleRule().indexOf(key);
      const period = n === null ? null : this.cycleRule().period(n);
      if (!period || period.start > LAST_MOMENT) throw refuse(this.cycleRule().example);
      return period;
    }
    const unit = UNITS[kind];
    const first = unit.parse(key);
    // Printing the date back catches keys that name no date (2026-02-30 comes back as 2026-03-02).
    const period = first !== null && unit.key(first) === key ? this.rollingPeriod(kind, first) : null;
    // An hour the clocks skip names no period: nothing happens in it.
    if (!period || period.end! <= 0 || period.start > LAST_MOMENT || period.start === period.end) {
      throw refuse(unit.example);
    }
    return period;
  }

  /** The period right after this one; null after ALL_TIME and after the last season. */
  following(period: Period): Period | null {
    if (isRolling(period.kind)) return this.rollingPeriod(period.kind, this.stepped(period, 1));
    if (period.kind === 'CYCLE') return this.cycleFrom(period, 1);
    const season = this.seasonFrom(period, 1);
    return season ? seasonPeriod(season) : null;
  }

  /** The period right before this one; null before ALL_TIME, the first season and the first cycle. */
  preceding(period: Period): Period | null {
    if (isRolling(period.kind)) return this.rollingPeriod(period.kind, this.stepped(period, -1));
    if (period.kind === 'CYCLE') return this.cycleFrom(period, -1);
    const season = this.seasonFrom(period, -1);
    return season ? seasonPeriod(season) : null;
  }

  /**
   * The moment (µs) the period stops being kept, for EXPIREAT on its keys; null while nothing
   * ends it (ALL_TIME; a season until enough later seasons are named).
   */
  expiresAt(period: Period): number | null {
    if (period.kind === 'ALL_TIME') return null;
    let expires = this.expiries.get(period);
    if (expires === undefined) {
      const retention = this.retention(period.kind);
      expires = period.kind === 'SEASON' ? this.seasonFrom(period, retention)?.start ?? null
        : period.kind === 'CYCLE' ? this.cycleFrom(period, retention)!.start
          : this.startOf(this.stepped(period, retention), UNITS[period.kind as RollingKind].slotMs);
      this.expiries.set(period, expires);
    }
    return expires;
  }

  /**
   * expiresAt as PEXPIREAT takes it: whole ms, rounded up, since a season's bounds may fall
   * within a millisecond. The keys outlive the period's retention by less than a millisecond at
   * most; reads ask `status`, never the keys.
   */
  expiresAtMs(period: Period): number | null {
    const expiresAt = this.expiresAt(period);
    return expiresAt === null ? null : Math.ceil(expiresAt / 1000);
  }

  status(period: Period, at = this.now()): PeriodStatus {
    if (period.start > at) return 'upcoming';
    const expires = this.expiresAt(period);
    return expires !== null && expires <= at ? 'expired' : 'kept';
  }

  /** The first season that starts after the moment; null when none is planned (or the board keeps no SEASON). */
  nextSeason(at = this.now()): Period | null {
    if (!this.keeps('SEASON')) return null;
    const season = this.config.seasons[this.seasonIndexAt(at) + 1];
    return season ? seasonPeriod(season) : null;
  }

  /** How many periods of `kind` the board keeps at once, the current one included (1 for ALL_TIME). */
  retained(kind: PeriodKind): number {
    return kind === 'ALL_TIME' ? 1 : this.retention(kind);
  }

  /** The periods of `kind` kept at the moment, newest first (none for a kind the board does not keep). */
  kept(kind: PeriodKind, at = this.now()): Period[] {
    if (!this.keeps(kind)) return [];
    if (kind === 'ALL_TIME') return [ALL_TIME];
    const retention = this.retention(kind);
    if (kind === 'SEASON') {
      const latest = this.seasonIndexAt(at);
      return this.config.seasons.slice(Math.max(0, latest + 1 - retention), latest + 1).reverse().map(seasonPeriod);
    }
    const periods: Period[] = [];
    for (let period: Period | null = this.periodAt(kind, at); period && periods.length < retention && period.end! > 0; period = this.preceding(period)) {
      periods.push(period);
    }
    return periods;
  }

  /** Every kept period at the moment: each kind in the board's order, newest first. */
  allKept(at = this.now()): Period[] {
    return this.config.kinds.flatMap((kind) => this.kept(kind, at));
  }

  /** The period of `kind` at the moment and the boundaries it holds between (see PeriodWindow). */
  window(kind: PeriodKind, at = this.now()): PeriodWindow {
    const period = this.periodAt(kind, at);
    if (period) return { kind, period, from: period.start, to: period.end };
    if (kind === 'CYCLE') return { kind, period, from: 0, to: this.cycleRule().period(0).start };
    // Between seasons: from the end of the one before to the start of the next.
    const seasons = this.config.seasons, before = this.seasonIndexAt(at);
    return { kind, period, from: before >= 0 ? seasons[before].end : 0, to: seasons[before + 1]?.start ?? null };
  }

  /** A kind the board does not keep has only its current period. */
  private retention(kind: RetainedKind): number {
    return this.config.retention[kind] ?? 1;
  }

  /** The first instant (µs) of a wall-clock slot of `slotMs` (see slotStart). */
  private startOf(slot: number, slotMs: number): number {
    let starts = this.starts.get(slotMs);
    if (!starts) this.starts.set(slotMs, (starts = new Map()));
    let start = starts.get(slot);
    if (start === undefined) {
      if (starts.size >= MAX_KEPT_STARTS) starts.clear();
      starts.set(slot, (start = slotStart(this.tz, slot, slotMs) * 1000));
    }
    return start;
  }

  /** The first slot of the rolling period that holds the moment. */
  private firstDateAt(kind: RollingKind, at: number): number {
    const unit = UNITS[kind];
    let first = unit.first(slotAt(this.tz, Math.floor(at / 1000), unit.slotMs));
    // Where clocks fall back over midnight, a wall-clock date can belong to the period before.
    while (this.startOf(first, unit.slotMs) > at) first = unit.shift(first, -1);
    for (let next = unit.shift(first, 1); this.startOf(next, unit.slotMs) <= at; next = unit.shift(next, 1)) first = next;
    return first;
  }

  private rollingPeriod(kind: RollingKind, first: number): Period {
    const unit = UNITS[kind];
    return { kind, key: unit.key(first), start: this.startOf(first, unit.slotMs), end: this.startOf(unit.shift(first, 1), unit.slotMs) };
  }

  /**
   * The first slot of the rolling period `count` periods after (or before) this one. An hour the
   * clocks skip is no period (it starts where the next does), so it is stepped over; a day is
   * never empty, so day-based kinds step at once.
   */
  private stepped(period: Period, count: number): number {
    const unit = UNITS[period.kind as RollingKind];
    let slot = unit.parse(period.key)!;
    if (unit.slotMs !== HOUR_MS) return unit.shift(slot, count);
    for (let left = Math.abs(count), step = Math.sign(count); left > 0; left--) {
      slot = unit.shift(slot, step);
      while (this.startOf(slot, unit.slotMs) === this.startOf(unit.shift(slot, 1), unit.slotMs)) slot = unit.shift(slot, step);
    }
    return slot;
  }

  /** The board's cycle; only asked of a calendar that keeps CYCLE (a kind is checked before it is used). */
  private cycleRule(): CyclePeriods {
    if (!this.cycles) throw new Error('this board keeps no CYCLE periods');
    return this.cycles;
  }

  /** The cycle `count` cycles after (before, when negative) this one; null before the first. */
  private cycleFrom(period: Period, count: number): Period | null {
    const n = this.cycleRule().indexOf(period.key)! + count;
    return n < 0 ? null : this.cycleRule().period(n);
  }

  /** The last season that starts at or before the moment; -1 when none does. */
  private seasonIndexAt(at: number): number {
    const seasons = this.config.seasons;
    let lo = 0, hi = seasons.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seasons[mid].start <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The season `count` seasons after (before, when negative) the period, when it is one of the board's seasons. */
  private seasonFrom(period: Period, count: number): Season | undefined {
    const index = period.kind === 'SEASON' ? this.config.seasons.findIndex((season) => season.id === period.key) : -1;
    return index < 0 ? undefined : this.config.seasons[index + count];
  }
}

const notFound = (message: string, field: string) => new StandingsError(ErrorCode.NOT_FOUND, message, { field });

function seasonPeriod(season: Season): Period {
  return { kind: 'SEASON', key: season.id, start: season.start, end: season.end };
}
