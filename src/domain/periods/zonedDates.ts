import { IANAZone } from 'luxon';

/**
 * Calendar dates and the instants they start at in a time zone. A date is a day number (days
 * since 1970-01-01 in the proleptic Gregorian calendar): its arithmetic holds no zone and no
 * daylight saving. Offsets come from the platform's time-zone data (Intl, through luxon's
 * IANAZone, which reads and caches it).
 */
export type Day = number;

const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const zones = new Map<string, IANAZone>();

export function zone(name: string): IANAZone {
  let found = zones.get(name);
  if (!found) zones.set(name, (found = IANAZone.create(name)));
  return found;
}

/** Date.UTC takes months past 12 or below 1 into the next or previous years. */
export const dayOf = (year: number, month: number, day: number): Day => Date.UTC(year, month - 1, day) / DAY_MS;

export function fieldsOf(day: Day): { year: number; month: number; day: number } {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The Monday that starts the date's ISO week (day 0, 1970-01-01, was a Thursday). */
export const mondayOf = (day: Day): Day => day - ((((day + 3) % 7) + 7) % 7);

/** ISO 8601: a week belongs to the year of its Thursday, and week 1 holds 4 January. */
export function isoWeekOf(monday: Day): { weekYear: number; week: number } {
  const thursday = monday + 3;
  const weekYear = fieldsOf(thursday).year;
  return { weekYear, week: Math.floor((thursday - dayOf(weekYear, 1, 1)) / 7) + 1 };
}

export const isoWeekMonday = (weekYear: number, week: number): Day => mondayOf(dayOf(weekYear, 1, 4)) + (week - 1) * 7;

/**
 * The wall-clock slot a zone shows at the instant: its date (`slotMs` a day) or its hour since
 * 1970-01-01 00:00 on the wall clock (`slotMs` an hour).
 */
export const slotAt = (tz: IANAZone, ms: number, slotMs: number): number => Math.floor((ms + tz.offset(ms) * MINUTE_MS) / slotMs);

/** The date a wall clock in the zone shows at the instant. */
export const dayAt = (tz: IANAZone, ms: number): Day => slotAt(tz, ms, DAY_MS);

/**
 * The first instant (ms) whose wall-clock date in the zone is `day` or later. Usually local
 * midnight; when the clocks fall back over midnight, its first occurrence; when midnight is
 * skipped, the instant the clocks jump (so the day starts at 01:00, say).
 */
export const dayStart = (tz: IANAZone, day: Day): number => slotStart(tz, day, DAY_MS);

/**
 * The first instant (ms) whose wall-clock reading in the zone is at the start of `slot` (of
 * `slotMs`, see slotAt) or later: as dayStart, for days or hours. An hour the clocks skip starts
 * where the next does (it is empty); an hour they repeat starts at its first occurrence.
 */
export function slotStart(tz: IANAZone, slot: number, slotMs: number): number {
  const wall = slot * slotMs; // the wall-clock reading, as if it were UTC
  // Offsets a day either side cover any change near the day's start (offsets stay within a day).
  const before = tz.offset(wall - DAY_MS), after = tz.offset(wall + DAY_MS);
  const readings = [wall - before * MINUTE_MS, wall - after * MINUTE_MS].filter(
    (instant, i) => tz.offset(instant) === (i === 0 ? before : after),
  );
  if (readings.length > 0) return Math.min(...readings);
  // Midnight falls in a gap: the clocks jump somewhere between these two, from before to after.
  let skipped = wall - after * MINUTE_MS, reached = wall - before * MINUTE_MS;
  while (reached - skipped > 1) {
    const mid = Math.floor((skipped + reached) / 2);
    if (mid + tz.offset(mid) * MINUTE_MS >= wall) reached = mid;
    else skipped = mid;
  }
  return reached;
}
