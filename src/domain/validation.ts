import { badInput } from '../errors';
import {
  DEFAULT_PAGE_SIZE, ID_PATTERN, MAX_BATCH_SIZE, MAX_CAPACITY, MAX_PAGE_SIZE, MAX_RADIUS, MAX_SAFE_SCORE, MAX_TITLE_LENGTH,
  MAX_UPDATE_EVERY_MS, UPDATE_INTERVAL_MS,
} from './limits';
import type { PageOptions, ScoreBound, ScoreRange, SortOrder, UpdatePolicy } from '../model';

const SORT_ORDERS: readonly string[] = ['DESCENDING', 'ASCENDING'];
const UPDATE_POLICIES: readonly string[] = ['BEST', 'LATEST', 'INCREMENT'];

/** `field` names the argument in error messages and in `details.field`. */
export function checkId(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
    throw badInput(`${field} must be 1-128 characters of letters, digits and -_.:`, { field });
  }
  return value;
}

export function checkScore(value: unknown, field = 'score'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MAX_SAFE_SCORE) {
    throw badInput(`${field} must be a finite number with |${field}| <= 2^53 - 1`, { field });
  }
  return value === 0 ? 0 : value; // -0 and 0 are one score
}

export function checkInt(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badInput(`${field} must be an integer from ${min} to ${max}`, { field });
  }
  return value;
}

export const checkLimit = (value: unknown, field = 'first') => checkInt(value, field, 1, MAX_PAGE_SIZE);
export const checkRadius = (value: unknown, field = 'radius') => checkInt(value, field, 0, MAX_RADIUS);
export const checkEvery = (value: unknown, field = 'every') => checkInt(value, field, UPDATE_INTERVAL_MS, MAX_UPDATE_EVERY_MS);
export const checkOffset = (value: unknown, field = 'offset') => checkInt(value, field, 0, Number.MAX_SAFE_INTEGER);
export const checkCapacity = (value: unknown, field = 'capacity') => checkInt(value, field, 1, MAX_CAPACITY);
export const checkBatchSize = (size: number, field: string) => checkInt(size, field, 1, MAX_BATCH_SIZE);

export const checkRank = (value: unknown, field = 'rank') => checkInt(value, field, 1, Number.MAX_SAFE_INTEGER);
export const checkKeep = (value: unknown, field = 'count') => checkInt(value, field, 0, Number.MAX_SAFE_INTEGER);

export interface ScoreBoundInput {
  value: number;
  exclusive?: boolean | null;
}

/** Bounds given as null or left out are open; `min` above `max` is refused rather than read as empty. */
export function checkScoreRange(min: ScoreBoundInput | null | undefined, max: ScoreBoundInput | null | undefined): ScoreRange {
  const bound = (value: ScoreBoundInput | null | undefined, field: string): ScoreBound | undefined =>
    value == null ? undefined : { value: checkScore(value.value, `${field}.value`), exclusive: value.exclusive === true };
  const range = { min: bound(min, 'min'), max: bound(max, 'max') };
  if (range.min && range.max && range.min.value > range.max.value) {
    throw badInput('min must not be above max', { field: 'min' });
  }
  return range;
}

export function checkFlag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw badInput(`${field} must be true or false`, { field });
  return value;
}

export function checkPercent(value: unknown, field = 'percent'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100) {
    throw badInput(`${field} must be a number above 0 and at most 100`, { field });
  }
  return value;
}

export function checkSortOrder(value: unknown, field = 'sortOrder'): SortOrder {
  if (typeof value !== 'string' || !SORT_ORDERS.includes(value)) {
    throw badInput(`${field} must be one of ${SORT_ORDERS.join(', ')}`, { field });
  }
  return value as SortOrder;
}

export function checkUpdatePolicy(value: unknown, field = 'updatePolicy'): UpdatePolicy {
  if (typeof value !== 'string' || !UPDATE_POLICIES.includes(value)) {
    throw badInput(`${field} must be one of ${UPDATE_POLICIES.join(', ')}`, { field });
  }
  return value as UpdatePolicy;
}

/**
 * Characters text shown to people may not hold: controls (line breaks, tabs, C1), lone surrogates,
 * line and paragraph separators, and format characters, which are invisible and can hide or
 * reorder what others see (bidirectional overrides and isolates U+202A-U+202E and U+2066-U+2069,
 * zero-width spaces, soft hyphens). ZWNJ and ZWJ are format characters that scripts such as
 * Persian and emoji sequences need, and stay allowed.
 */
const HIDDEN_CHARACTER = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** Text shown to people (board titles, display names), with a length in UTF-16 code units. */
export function checkText(value: unknown, field: string, maxLength: number, minLength = 0): string {
  if (typeof value !== 'string' || value.length < minLength || value.length > maxLength) {
    const length = minLength > 0 ? `${minLength}-${maxLength}` : `at most ${maxLength}`;
    throw badInput(`${field} must be a string of ${length} characters`, { field });
  }
  const hidden = HIDDEN_CHARACTER.exec(value);
  if (hidden) {
    const codePoint = `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw badInput(
      `${field} must be visible text on one line: ${codePoint} at index ${hidden.index} is a control, format or separator character`,
      { field },
    );
  }
  return value;
}

export function checkTitle(value: unknown, field = 'title'): string | null {
  return value === null || value === undefined ? null : checkText(value, field, MAX_TITLE_LENGTH);
}

/** Microseconds since the epoch; the store refuses moments in the future (by Redis' clock). */
export function checkReachedAtMicros(value: unknown, field = 'reachedAt'): number {
  // Past 2^53 - 1 µs (the year 2255), a moment is both inexact and in the future.
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw badInput(`${field} must be a moment from 1970-01-01T00:00:00Z up to now`, { field });
  }
  return value;
}

/** A connection's paging arguments, as the Cursor Connections specification names them. */
export interface PageArguments {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  offset?: number | null;
}

/**
 * One direction per page: `first` (from the top, or `after` a cursor) or `last` (from the
 * bottom, or `before` a cursor). Mixing them is refused rather than guessed at.
 */
export function checkPageArguments({ first, after, last, before, offset }: PageArguments): PageOptions {
  if (first != null && last != null) throw badInput('pass first or last, not both', { field: 'last' });
  const backward = last != null || before != null;
  if (backward && after != null) throw badInput('after goes with first, before with last: pass one of them', { field: 'after' });
  if (backward && first != null) throw badInput('before goes with last, not first', { field: 'before' });
  return {
    limit: (backward ? last : first) ?? DEFAULT_PAGE_SIZE,
    offset: offset ?? undefined,
    cursor: (backward ? before : after) ?? undefined,
    backward,
  };
}
