import type { IANAZone } from 'luxon';
import type { Period } from './calendar';
import type { Cycle } from './settings';
import { dayAt, dayOf, dayStart, fieldsOf } from './zonedDates';

const UNIT_MICROS = { MINUTES: 60_000_000, HOURS: 3_600_000_000 } as const;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The periods of a board's custom cycle (settings.ts `Cycle`), numbered from 0, the cycle that
 * starts at the anchor. A cycle in minutes or hours is absolute time, keyed by its start in UTC
 * to the minute (`2026-12-01T14:00Z`): the clocks' changes move neither its bounds nor its key,
 * and two cycles can never share a key, as two starts at the same local time could when the
 * clocks fall back. A cycle in days is keyed by its first local date (`2026-12-01`), as DAILY is.
 */
export class CyclePeriods {
  private readonly firstDay: number;

  constructor(private readonly cycle: Cycle, private readonly tz: IANAZone) {
    this.firstDay = dayAt(tz, cycle.anchor / 1000);
  }

  /** What a key looks like, for the error refusing one that is not. */
  get example(): string {
    return this.cycle.unit === 'DAYS' ? 'the first date of one of the board\'s cycles, such as 2026-12-01' : 'the start of one of the board\'s cycles in UTC, such as 2026-12-01T14:00Z';
  }

  /** The number of the cycle that holds the moment (µs); negative before the anchor. */
  indexAt(at: number): number {
    const { unit, every, anchor } = this.cycle;
    if (unit !== 'DAYS') return Math.floor((at - anchor) / (every * UNIT_MICROS[unit]));
    if (at < anchor) return -1;
    let n = Math.floor((dayAt(this.tz, Math.floor(at / 1000)) - this.firstDay) / every);
    // Where the clocks fall back over midnight, a wall-clock date can belong to the cycle before.
    while (this.start(n) > at) n--;
    while (this.start(n + 1) <= at) n++;
    return n;
  }

  period(n: number): Period {
    return { kind: 'CYCLE', key: this.key(n), start: this.start(n), end: this.start(n + 1) };
  }

  /** The number of the cycle a key names, if it names one (the caller checks the bounds). */
  indexOf(key: string): number | null {
    const { unit, every, anchor } = this.cycle;
    let offset: number;
    if (unit === 'DAYS') {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
      if (!m) return null;
      offset = dayOf(Number(m[1]), Number(m[2]), Number(m[3])) - this.firstDay;
      if (offset % every !== 0) return null;
      offset /= every;
    } else {
      const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})Z$/.exec(key);
      if (!m) return null;
      const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) * 1000;
      offset = (start - anchor) / (every * UNIT_MICROS[unit]);
    }
    // Printing the key back catches dates that do not exist (2026-02-30 comes back as 2026-03-02).
    return Number.isInteger(offset) && offset >= 0 && this.key(offset) === key ? offset : null;
  }

  private start(n: number): number {
    const { unit, every, anchor } = this.cycle;
    return unit === 'DAYS' ? dayStart(this.tz, this.firstDay + n * every) * 1000 : anchor + n * every * UNIT_MICROS[unit];
  }

  private key(n: number): string {
    if (this.cycle.unit !== 'DAYS') return `${new Date(this.start(n) / 1000).toISOString().slice(0, 16)}Z`;
    const { year, month, day } = fieldsOf(this.firstDay + n * this.cycle.every);
    return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  }
}
