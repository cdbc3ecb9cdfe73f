import { badInput, unavailable, WriteOutcome } from '../errors';
import type { Submission, SubmitPlan, SubmitResult } from '../model';
import { STALE_LAYOUT, type StaleLayout } from '../store/commands/scriptErrors';
import type { LeaderboardStore } from '../store/leaderboardStore';
import type { Period, PeriodCalendar } from './periods/calendar';

/**
 * The loops of the writes the domain plans from a board's periods: read the periods, plan, write,
 * and plan again when the store says the plan went stale. The store only executes.
 */

/**
 * Runs a write made from the board's periods as the store knows them (BoardConfig.periods);
 * once more, with the periods read again, when the store answers that the board changed under
 * it (STALE_LAYOUT: re-created, or seasons added). Null when there is no such board.
 */
export async function withBoardPeriods<T>(
  store: LeaderboardStore, boardId: string, write: (periods: string) => Promise<T | StaleLayout>,
): Promise<T | null> {
  for (let attempt = 0; ; attempt++) {
    const periods = await store.boardPeriods(boardId);
    if (periods === null) return null;
    const result = await write(periods);
    if (result !== STALE_LAYOUT) return result as T;
    // Changed again since the refresh (seasons added twice in a moment, a board re-created):
    // nothing was written, and a retry will find it settled.
    if (attempt > 0) throw unavailable('the board changed twice while this call was made; retry', WriteOutcome.NOT_APPLIED);
  }
}

/** Plans a submission call for a board with these periods, its live windows taken at `at` (µs; undefined: the calendar's now). */
export type SubmitPlanner = (calendar: PeriodCalendar, at?: number) => SubmitPlan;

/**
 * Writes the submissions to the board as `plan` places them, and plans once more at Redis'
 * moment when that moment lies outside the plan's windows (a period ended between the plan and
 * the write). Null when there is no such board.
 */
export function submitPlanned(
  store: LeaderboardStore, calendarOf: (periods: string) => PeriodCalendar, boardId: string, submissions: Submission[], plan: SubmitPlanner,
): Promise<SubmitResult[] | null> {
  return withBoardPeriods(store, boardId, async (periods) => {
    const calendar = calendarOf(periods);
    let at: number | undefined;
    for (let attempt = 0; ; attempt++) {
      const outcome = await store.submit(boardId, submissions, { periods, plan: plan(calendar, at) });
      if ('results' in outcome) return outcome.results;
      if ('missing' in outcome) return null;
      if (outcome.stale === 'layout') return outcome;
      if (attempt > 0) throw unavailable('the periods of the board moved twice while writing; retry', WriteOutcome.NOT_APPLIED);
      at = outcome.moment;
    }
  });
}

/**
 * Where each submission lands: a live one in the period of every kept kind that holds the
 * moment (the script checks that moment, by Redis' clock, against the windows), an imported
 * one in the kept periods holding its reachedAt; BAD_USER_INPUT (naming the batch position,
 * `indexes`, when a batch) when that is none.
 */
export function submissionPlanner(submissions: Submission[], indexes: number[] | null): SubmitPlanner {
  return (calendar, at) => {
    const now = calendar.now();
    const slots: SubmitPlan['slots'] = [];
    const slotIndexes = new Map<string, number>();
    const slotOf = (period: Period) => {
      const name = `${period.kind}:${period.key}`;
      let index = slotIndexes.get(name);
      if (index === undefined) {
        slotIndexes.set(name, (index = slots.length));
        slots.push({ kind: period.kind, key: period.key, expiresAtMs: calendar.expiresAtMs(period) });
      }
      return index;
    };
    const windows = calendar.config.kinds.map((kind) => calendar.window(kind, at ?? now));
    let live: number[] | undefined;
    const itemSlots = submissions.map((submission, i) => {
      const landing = submission.reachedAtMicros === undefined
        ? (live ??= windows.flatMap((window) => (window.period ? [slotOf(window.period)] : [])))
        : calendar.landingPeriods(submission.reachedAtMicros, now).map(slotOf);
      if (landing.length === 0) {
        const what = submission.reachedAtMicros === undefined ? 'no period the board keeps holds now' : 'reachedAt is in no period the board still keeps';
        throw indexes ? badInput(`item ${indexes[i]}: ${what}`, { field: 'reachedAt', index: indexes[i] }) : badInput(what, { field: 'reachedAt' });
      }
      return landing;
    });
    return { windows: windows.map(({ from, to }) => ({ from, to })), slots, itemSlots };
  };
}
