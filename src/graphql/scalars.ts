import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';
import { ErrorCode } from '../errors';

/**
 * DateTime travels as an ISO-8601 string and lives inside the service as microseconds since
 * the epoch (the store's resolution), so no precision is lost either way.
 */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

export function parseDateTime(text: string, node?: ValueNode): number {
  const match = ISO_8601.exec(text);
  if (!match) throw invalid(text, node);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const fraction = (match[7] ?? '').padEnd(6, '0');
  // Not Date.UTC, which reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  const millis = date.getTime();
  // 2026-02-30 rolls over into March; a valid date reads back the same fields.
  const valid =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  if (!valid || offsetHours > 23 || offsetMinutes > 59) throw invalid(text, node);
  const offsetMillis = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return (millis - offsetMillis) * 1000 + Number(fraction);
}

export function formatDateTime(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const subMillis = String(micros - millis * 1000).padStart(3, '0');
  return new Date(millis).toISOString().replace('Z', `${subMillis}Z`);
}

/** `node` lets a literal's error point at the bad value (see isInputValueError in ./errors). */
function invalid(value: unknown, node?: ValueNode): GraphQLError {
  return new GraphQLError(
    `DateTime must be an ISO-8601 string such as 2026-11-30T03:11:31.123456Z, got ${JSON.stringify(value)}`,
    { nodes: node, extensions: { code: ErrorCode.BAD_USER_INPUT } },
  );
}

/**
 * The schema is built with this object in place of schema/common.graphql's DateTime, its
 * description and `@specifiedBy` included, so both say here what they say there.
 */
export const DateTime = new GraphQLScalarType<number, string>({
  name: 'DateTime',
  description:
    'A moment as an RFC 3339 string in UTC with microseconds, e.g. `2026-11-30T03:11:31.123456Z`.\n' +
    'Input accepts up to six fractional digits and either `Z` or an offset such as `+02:00`.',
  specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339',
  serialize(value) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new TypeError(`DateTime cannot serialize ${String(value)}`);
    }
    return formatDateTime(value);
  },
  parseValue(value) {
    if (typeof value !== 'string') throw invalid(value);
    return parseDateTime(value);
  },
  parseLiteral(node) {
    if (node.kind !== Kind.STRING) throw invalid(print(node), node);
    return parseDateTime(node.value, node);
  },
});
