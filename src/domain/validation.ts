import { badInput } from '../errors';
import {
  ID_PATTERN, MAX_BATCH_SIZE, MAX_CAPACITY, MAX_PAGE_SIZE, MAX_RADIUS, MAX_SAFE_SCORE, MAX_TITLE_LENGTH,
} from './limits';
import type { SortOrder, UpdatePolicy } from '../store/types';

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
export const checkOffset = (value: unknown, field = 'offset') => checkInt(value, field, 0, Number.MAX_SAFE_INTEGER);
export const checkCapacity = (value: unknown, field = 'capacity') => checkInt(value, field, 1, MAX_CAPACITY);
export const checkBatchSize = (size: number, field: string) => checkInt(size, field, 1, MAX_BATCH_SIZE);

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

export function checkTitle(value: unknown, field = 'title'): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || value.length > MAX_TITLE_LENGTH || /[\u0000-\u001f]/.test(value)) {
    throw badInput(`${field} must be at most ${MAX_TITLE_LENGTH} printable characters`, { field });
  }
  return value;
}

/** Microseconds since the epoch, 1970 onwards; the store refuses moments in the future. */
export function checkReachedAtMicros(value: unknown, field = 'reachedAt'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw badInput(`${field} must be a moment from 1970 onwards`, { field });
  }
  return value;
}
