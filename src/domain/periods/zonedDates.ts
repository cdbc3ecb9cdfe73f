import { DateTime, IANAZone } from 'luxon';

/**
 * Calendar dates and the instants they start at in a time zone, with the platform's time-zone
 * data (Intl, through luxon). A date is a luxon DateTime at UTC midnight: its year, month, day,
 * ISO week and date arithmetic hold no zone and no daylight saving.
 */
export type CalendarDate = DateTime;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const zones = new Map<string, IANAZone>();

export function zone(name: string): IANAZone {
  let found = zones.get(name);
  if (!found) zones.set(name, (found = IANAZone.create(name)));
  return found;
}

/** The date a wall clock in the zone shows at the instant. */
export function dateAt(tz: IANAZone, ms: number): CalendarDate {
  const local = DateTime.fromMillis(ms, { zone: tz });
  return DateTime.utc(local.year, local.month, local.day);
}

/**
 * The first instant (ms) whose wall-clock date in the zone is `date` or later. Usually local
 * midnight; when the clocks fall back over midnight, its first occurrence; when midnight is
 * skipped, the instant the clocks jump (so the day starts at 01:00, say).
 */
export function dayStart(tz: IANAZone, date: CalendarDate): number {
  const wall = date.toMillis(); // the wall-clock reading, as if it were UTC
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
