/** Score submissions: what is written, where (the plan) and what it did. */
import type { Entry } from './entries';
import type { PeriodSlot } from './periods';

export interface Submission {
  playerId: string;
  score: number;
  /** Trusted importers only: when the score was reached (µs since the epoch); not in the future. */
  reachedAtMicros?: number;
  /** Makes a retried submission return its first result instead of applying twice (kept 24 h). */
  idempotencyKey?: string;
}

/**
 * Which periods a submission call writes, planned by the domain from the board's periods
 * (BoardConfig.periods) and its calendar. Redis' clock has the last word: the script checks every
 * live moment it stamps against `windows` and asks for a new plan at its moment when one is out.
 */
export interface SubmitPlan {
  /** For each kept kind, the stretch around the planned moment in which its period (or none) holds; µs, to null = never. */
  windows: { from: number; to: number | null }[];
  /** The periods written: kind, key and when their keys expire (ms; null = never). ALL_TIME's keys are the board's own. */
  slots: { kind: string; key: string; expiresAtMs: number | null }[];
  /** For each submission, the indexes of the slots it lands in, the one its result describes first. */
  itemSlots: number[][];
}

export interface SubmitResult {
  entry: Entry;
  previousScore: number | null;
  previousRank: number | null;
  /** False when the submission left the stored score as it was (same score, or not better under BEST). */
  changed: boolean;
  /** True when this is the stored result of an earlier submission with the same idempotency key. */
  replayed: boolean;
  /**
   * The period `entry` is on, when not ALL_TIME: a board that does not keep ALL_TIME answers
   * with the entry in its first kept kind's period.
   */
  period?: PeriodSlot;
}
