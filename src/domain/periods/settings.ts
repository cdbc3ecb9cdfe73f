import { badInput, conflict } from '../../errors';
import { dayAt, dayStart, zone } from './zonedDates';

const MINUTE_MICROS = 60_000_000;

/**
 * The periods a board keeps: which kinds, in which time zone, how many of each, and its seasons.
 * Moments are microseconds since the epoch as JavaScript numbers, like `Entry.reachedAtMicros`:
 * every moment the store accepts is a safe integer (below 2^53, the year 2255), and so is a
 * period's bound (a day's is a whole millisecond times 1000, a season's any µs), so both stay
 * exact. Scripts get them as `String(n)`; expiries in ms are rounded up (calendar.ts expiresAtMs).
 */

/** In the order a board's periods are listed. */
export const PERIOD_KINDS = ['ALL_TIME', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'SEASON', 'CYCLE'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];
/** Kinds whose periods end and are kept for a number of periods (ALL_TIME never ends). */
export type RetainedKind = Exclude<PeriodKind, 'ALL_TIME'>;

/**
 * How many periods of a kind are kept, the current one included, when a board does not say: an
 * hour and the 47 before it (two days), a day and the seven before it (enough for "the last 7 days"), this week and four before, this
 * month and the twelve before, this year and the two before, a season until two more have started,
 * a custom cycle and the nine before it.
 */
export const DEFAULT_RETENTION: Readonly<Record<RetainedKind, number>> = { HOURLY: 48, DAILY: 8, WEEKLY: 5, MONTHLY: 13, YEARLY: 3, SEASON: 2, CYCLE: 10 };
/**
 * Most periods of one kind a board may keep: over a year of days, 16 days of hours. Each kept
 * period is a sorted set, and `Leaderboard.periods` lists them all, unpaged, within the query
 * cost: a year of hours (8,784 periods) would not fit, so hours further back are for MONTHLY or
 * YEARLY rankings kept beside them (docs/time-windows.md).
 */
export const MAX_RETENTION = 400;
/** Most periods a board keeps at once (`Leaderboard.periods`): ALL_TIME, and up to MAX_RETENTION of each other kind. */
export const MAX_KEPT_PERIODS = 1 + (PERIOD_KINDS.length - 1) * MAX_RETENTION;
/** Most seasons one board may name. */
export const MAX_SEASONS = 1000;
export const DEFAULT_TIME_ZONE = 'UTC';
/**
 * A season's id is its period key, in the API and in Redis key names: no colon, so that no
 * season's keys can be read as another's (`...:<season>:z`, `...:<season>:b:<n>`).
 */
const SEASON_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export interface Season {
  id: string;
  /** µs since the epoch. */
  start: number;
  /** µs since the epoch, exclusive: the next season may start at this moment. */
  end: number;
}

/** The units a custom cycle's length is counted in. */
export const CYCLE_UNITS = ['MINUTES', 'HOURS', 'DAYS'] as const;
export type CycleUnit = (typeof CYCLE_UNITS)[number];
/** The longest cycle, in each unit: a year and a day. */
const MAX_CYCLE: Readonly<Record<CycleUnit, number>> = { MINUTES: 366 * 24 * 60, HOURS: 366 * 24, DAYS: 366 };

/**
 * A board's custom recurring period (kind CYCLE): `every` units from `anchor` on, the first
 * cycle starting at the anchor (none before it). In minutes or hours a cycle is a stretch of
 * absolute time, whatever the clocks do; in days it runs from local midnight to local midnight
 * `every` dates later, so it follows the board's zone through DST as DAILY does.
 */
export interface Cycle {
  unit: CycleUnit;
  every: number;
  /** µs; a whole minute, and for DAYS the first instant of a date in the board's zone. */
  anchor: number;
}

export interface PeriodConfig {
  /** An IANA zone name as the platform's time-zone data spells it. */
  timeZone: string;
  /** No repeats, in PERIOD_KINDS order. */
  kinds: readonly PeriodKind[];
  /** For each kept kind but ALL_TIME, and for no other. */
  retention: Readonly<Partial<Record<RetainedKind, number>>>;
  /** By start; none overlap. */
  seasons: readonly Season[];
  /** Set exactly when the board keeps CYCLE. */
  cycle?: Cycle;
}

/** What a client asks for, unchecked. `field` prefixes name its parts in errors. */
export interface PeriodConfigInput {
  timeZone?: unknown;
  /** `{ kind, retention? }` for each kind to keep; CYCLE's adds `every: { minutes | hours | days }` and `anchor` (µs). */
  kinds?: unknown;
  /** `{ id, start, end }` each, moments in µs; they need SEASON among the kinds. */
  seasons?: unknown;
}

/** A board that names no periods: ALL_TIME in UTC, as every board was before periods. */
export const DEFAULT_PERIOD_CONFIG: PeriodConfig = { timeZone: DEFAULT_TIME_ZONE, kinds: ['ALL_TIME'], retention: {}, seasons: [] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function checkList(value: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(value) || value.length > max) {
    throw badInput(`${field} must be a list of at most ${max} items`, { field });
  }
  return value;
}

/** The platform's spelling of an IANA zone name; BAD_USER_INPUT for anything else. */
function checkTimeZone(value: unknown, field = 'timeZone'): string {
  // Intl also takes offsets such as "+09:00" on newer platforms: not zones, their day never moves.
  if (typeof value === 'string' && /^[A-Za-z]/.test(value)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      // a RangeError: not a zone the platform's data knows
    }
  }
  throw badInput(`${field} must be an IANA time zone such as Europe/Berlin`, { field });
}

export function checkKind(value: unknown, field: string): PeriodKind {
  if (typeof value !== 'string' || !(PERIOD_KINDS as readonly string[]).includes(value)) {
    throw badInput(`${field} must be one of ${PERIOD_KINDS.join(', ')}`, { field });
  }
  return value as PeriodKind;
}

function checkRetention(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RETENTION) {
    throw badInput(`${field} must be an integer from 1 to ${MAX_RETENTION} (periods kept, the current one included)`, { field });
  }
  return value;
}

export function checkMoment(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw badInput(`${field} must be a moment from 1970-01-01T00:00:00Z in µs, below 2^53`, { field });
  }
  return value;
}

function checkSeason(value: unknown, field: string): Season {
  if (!isRecord(value)) throw badInput(`${field} must be a season { id, start, end }`, { field });
  if (typeof value.id !== 'string' || !SEASON_ID.test(value.id)) {
    throw badInput(`${field}.id must be 1-64 characters of letters, digits and -_.`, { field: `${field}.id` });
  }
  const season = {
    id: value.id,
    start: checkMoment(value.start, `${field}.start`),
    end: checkMoment(value.end, `${field}.end`),
  };
  if (season.end <= season.start) {
    throw badInput(`${field}.end must be after ${field}.start (season ${season.id})`, { field: `${field}.end` });
  }
  return season;
}

/**
 * Seasons by start, refusing overlaps and repeated ids. `existing` were checked before; `added`
 * (each with its place in the list `field`, for messages) are new.
 */
function mergeSeasons(existing: readonly Season[], added: { season: Season; field: string }[], field: string): Season[] {
  if (existing.length + added.length > MAX_SEASONS) {
    throw badInput(`${field}: a board names at most ${MAX_SEASONS} seasons`, { field });
  }
  const all = [...existing.map((season) => ({ season, field: '' })), ...added];
  const ids = new Map<string, string>();
  for (const { season, field: place } of all) {
    const earlier = ids.get(season.id);
    if (earlier !== undefined) {
      const where = earlier === '' ? 'an existing season' : earlier;
      throw badInput(`${place}.id: season ${season.id} is named twice (also ${where})`, { field: `${place}.id` });
    }
    ids.set(season.id, place);
  }
  all.sort((a, b) => a.season.start - b.season.start);
  for (let i = 1; i < all.length; i++) {
    const before = all[i - 1], after = all[i];
    if (after.season.start < before.season.end) {
      const place = after.field || before.field; // at least one of two overlapping seasons is new
      throw badInput(`${place}: season ${after.season.id} overlaps season ${before.season.id}`, { field: place });
    }
  }
  return all.map(({ season }) => season);
}

function checkSeasons(value: unknown, field: string): Season[] {
  const added = checkList(value, field, MAX_SEASONS).map((season, i) => ({ season: checkSeason(season, `${field}[${i}]`), field: `${field}[${i}]` }));
  return mergeSeasons([], added, field);
}

/** A board's periods, checked and in canonical form; null or undefined gives the default. */
export function checkPeriodConfig(input: PeriodConfigInput | null | undefined, field = 'periods'): PeriodConfig {
  if (input == null) return DEFAULT_PERIOD_CONFIG;
  if (!isRecord(input)) throw badInput(`${field} must be an object`, { field });
  const timeZone = input.timeZone == null ? DEFAULT_TIME_ZONE : checkTimeZone(input.timeZone, `${field}.timeZone`);

  const kindsField = `${field}.kinds`;
  const kindList = input.kinds == null ? [{ kind: 'ALL_TIME' }] : checkList(input.kinds, kindsField, PERIOD_KINDS.length);
  if (kindList.length === 0) throw badInput(`${kindsField} must name at least one period kind`, { field: kindsField });
  const retention: Partial<Record<RetainedKind, number>> = {};
  const kept = new Set<PeriodKind>();
  let cycle: Cycle | undefined;
  kindList.forEach((item, i) => {
    const at = `${kindsField}[${i}]`;
    if (!isRecord(item)) throw badInput(`${at} must be { kind, retention }`, { field: at });
    const kind = checkKind(item.kind, `${at}.kind`);
    if (kept.has(kind)) throw badInput(`${at}.kind: ${kind} is named twice`, { field: `${at}.kind` });
    kept.add(kind);
    if (kind === 'ALL_TIME') {
      if (item.retention != null) {
        throw badInput(`${at}.retention: ALL_TIME is kept for as long as the board`, { field: `${at}.retention` });
      }
    } else {
      retention[kind] = item.retention == null ? DEFAULT_RETENTION[kind] : checkRetention(item.retention, `${at}.retention`);
    }
    if (kind === 'CYCLE') cycle = checkCycle(item, at, timeZone);
    else if (item.every != null || item.anchor != null) {
      throw badInput(`${at}: every and anchor are for a CYCLE, not ${kind}`, { field: `${at}.${item.every != null ? 'every' : 'anchor'}` });
    }
  });

  const seasonsField = `${field}.seasons`;
  const seasons = input.seasons == null ? [] : checkSeasons(input.seasons, seasonsField);
  if (seasons.length > 0 && !kept.has('SEASON')) {
    throw badInput(`${seasonsField} needs SEASON among ${kindsField}`, { field: seasonsField });
  }
  return { timeZone, kinds: PERIOD_KINDS.filter((kind) => kept.has(kind)), retention, seasons, ...(cycle && { cycle }) };
}

/** A CYCLE kind's length and anchor (`item` is `{ kind, retention, every, anchor }`, named `field`). */
function checkCycle(item: Record<string, unknown>, field: string, timeZone: string): Cycle {
  const every = item.every;
  const lengths = isRecord(every) ? CYCLE_UNITS.filter((unit) => every[unit.toLowerCase()] != null) : [];
  if (lengths.length !== 1) {
    throw badInput(`${field}.every must give the cycle's length in one of minutes, hours or days`, { field: `${field}.every` });
  }
  const unit = lengths[0], lengthField = `${field}.every.${unit.toLowerCase()}`;
  const length = (every as Record<string, unknown>)[unit.toLowerCase()];
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 1 || length > MAX_CYCLE[unit]) {
    throw badInput(`${lengthField} must be an integer from 1 to ${MAX_CYCLE[unit]}`, { field: lengthField });
  }
  if (item.anchor == null) throw badInput(`${field}.anchor: a CYCLE needs the moment its first cycle starts`, { field: `${field}.anchor` });
  const anchor = checkMoment(item.anchor, `${field}.anchor`);
  if (anchor % MINUTE_MICROS !== 0) {
    throw badInput(`${field}.anchor must be a whole minute (its cycles' keys name minutes)`, { field: `${field}.anchor` });
  }
  if (unit === 'DAYS' && dayStart(zone(timeZone), dayAt(zone(timeZone), anchor / 1000)) * 1000 !== anchor) {
    throw badInput(`${field}.anchor: a cycle in days runs from local midnight, so it must start a date in ${timeZone}`, { field: `${field}.anchor` });
  }
  return { unit, every: length, anchor };
}

/** What `addSeasons` takes, unchecked, as the mutation's input names it. */
export interface AddSeasonsInput {
  /** `{ id, start, end }` each, moments in µs. */
  seasons: unknown;
  /** How many seasons are kept, when the board keeps none yet; else left out or the board's own. */
  retention?: unknown;
}

/** A season `addSeasons` adds, and where in the input it came (`seasons[2]`), for errors about it. */
export interface AddedSeason {
  season: Season;
  field: string;
}

/**
 * The board's periods with more seasons, and those that are new. A board that keeps no SEASON
 * periods starts keeping them, for `retention` seasons (default DEFAULT_RETENTION.SEASON); on one
 * that does, a `retention` other than its own is CONFLICT (it would move the expiry of seasons
 * already written). A season already there with the same id and moments is left as it is (a
 * retried request changes nothing); one with the same id and other moments is CONFLICT; an
 * overlap with any season is BAD_USER_INPUT.
 */
export function addSeasons(config: PeriodConfig, input: AddSeasonsInput): { config: PeriodConfig; added: AddedSeason[] } {
  const list = checkList(input.seasons, 'seasons', MAX_SEASONS);
  if (list.length === 0) throw badInput('seasons must name at least one season', { field: 'seasons' });
  const retention = input.retention == null ? undefined : checkRetention(input.retention, 'retention');
  const kept = config.kinds.includes('SEASON');
  if (kept && retention !== undefined && retention !== config.retention.SEASON) {
    throw conflict(`retention: this board keeps ${config.retention.SEASON} seasons; it cannot change`, { field: 'retention' });
  }
  const byId = new Map(config.seasons.map((season) => [season.id, season]));
  const added = list.flatMap((value, i) => {
    const field = `seasons[${i}]`;
    const season = checkSeason(value, field);
    const known = byId.get(season.id);
    if (!known) return [{ season, field }];
    if (known.start !== season.start || known.end !== season.end) {
      throw conflict(`${field}: season ${season.id} exists with other moments`, { field });
    }
    return [];
  });
  if (added.length === 0) return { config, added };
  const seasons = mergeSeasons(config.seasons, added, 'seasons');
  if (kept) return { config: { ...config, seasons }, added };
  return {
    config: {
      ...config,
      kinds: PERIOD_KINDS.filter((kind) => kind === 'SEASON' || config.kinds.includes(kind)),
      retention: { ...config.retention, SEASON: retention ?? DEFAULT_RETENTION.SEASON },
      seasons,
    },
    added,
  };
}

/**
 * The first setting in which two checked configurations differ (`periods.timeZone`,
 * `periods.kinds`, `periods.kinds.DAILY.retention`, `periods.seasons[2]`), or null when they are equal.
 */
export function periodConfigDifference(a: PeriodConfig, b: PeriodConfig, field = 'periods'): string | null {
  if (a.timeZone !== b.timeZone) return `${field}.timeZone`;
  if (a.kinds.join() !== b.kinds.join()) return `${field}.kinds`;
  for (const kind of a.kinds) {
    if (kind !== 'ALL_TIME' && a.retention[kind] !== b.retention[kind]) return `${field}.kinds.${kind}.retention`;
  }
  if (JSON.stringify(a.cycle) !== JSON.stringify(b.cycle)) return `${field}.kinds.CYCLE`;
  const count = Math.max(a.seasons.length, b.seasons.length);
  for (let i = 0; i < count; i++) {
    const x = a.seasons[i], y = b.seasons[i];
    if (!x || !y || x.id !== y.id || x.start !== y.start || x.end !== y.end) return `${field}.seasons[${i}]`;
  }
  return null;
}

/** CONFLICT naming the setting, when a board is created again with other periods than it has. */
export function checkSamePeriods(existing: PeriodConfig, requested: PeriodConfig, field = 'periods'): void {
  const differs = periodConfigDifference(existing, requested, field);
  if (differs !== null) {
    throw conflict(`the leaderboard exists with other periods: ${differs} differs`, { field: differs });
  }
}

/**
 * The canonical text of a board's periods, as its config hash keeps it (field `periods`): '' for
 * the default, so a board that names none stores nothing and reads like every board before periods.
 */
export function serializePeriodConfig(config: PeriodConfig): string {
  if (periodConfigDifference(config, DEFAULT_PERIOD_CONFIG) === null) return '';
  const retention = Object.fromEntries(config.kinds.flatMap((kind) => (kind === 'ALL_TIME' ? [] : [[kind, config.retention[kind]]])));
  const seasons = config.seasons.map(({ id, start, end }) => ({ id, start, end }));
  const cycle = config.cycle && { unit: config.cycle.unit, every: config.cycle.every, anchor: config.cycle.anchor };
  return JSON.stringify({ timeZone: config.timeZone, kinds: config.kinds, retention, seasons, ...(cycle && { cycle }) });
}

/** What serializePeriodConfig wrote (checked when it was). */
export function parsePeriodConfig(text: string): PeriodConfig {
  return text === '' ? DEFAULT_PERIOD_CONFIG : (JSON.parse(text) as PeriodConfig);
}
