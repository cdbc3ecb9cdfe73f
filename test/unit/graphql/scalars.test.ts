import fc from 'fast-check';
import { GraphQLError } from 'graphql';
import { formatDateTime, parseDateTime } from '../../../src/graphql/scalars';

describe('DateTime', () => {
  it('writes UTC with six fractional digits', () => {
    expect(formatDateTime(Date.UTC(2026, 10, 30, 3, 11, 31) * 1000 + 123_456)).toBe('2026-11-30T03:11:31.123456Z');
    expect(formatDateTime(0)).toBe('1970-01-01T00:00:00.000000Z');
    expect(formatDateTime(7)).toBe('1970-01-01T00:00:00.000007Z');
  });

  it('reads Z and offsets, with 0 to 6 fractional digits', () => {
    const base = Date.UTC(2026, 10, 3, 15, 2, 44) * 1000;
    expect(parseDateTime('2026-11-03T15:02:44Z')).toBe(base);
    expect(parseDateTime('2026-11-03T15:02:44.5Z')).toBe(base + 500_000);
    expect(parseDateTime('2026-11-03T15:02:44.123456Z')).toBe(base + 123_456);
    expect(parseDateTime('2026-11-03T17:32:44.000001+02:30')).toBe(base + 1);
    expect(parseDateTime('2026-11-03T10:02:44-05:00')).toBe(base);
  });

  it('reads years below 100 as written, not as 19xx', () => {
    expect(parseDateTime('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z') * 1000);
    expect(parseDateTime('0000-02-29T00:00:00Z')).toBe(Date.parse('0000-02-29T00:00:00Z') * 1000);
  });

  it.each([
    'yesterday', '2026-11-03', '2026-11-03 15:02:44Z', '2026-11-03T15:02:44', '2026-11-03T15:02:44.1234567Z',
    '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-03T24:00:00Z', '2026-11-03T15:60:00Z',
    '2026-11-03T15:02:44+24:00', '2026-11-03T15:02:44+02:60',
  ])('refuses %s with BAD_USER_INPUT', (text) => {
    const attempt = () => parseDateTime(text);
    expect(attempt).toThrow(GraphQLError);
    try {
      attempt();
    } catch (err) {
      expect((err as GraphQLError).extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('round-trips every moment the store can hold (whole microseconds below 2^53, i.e. until 2255)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (micros) => parseDateTime(formatDateTime(micros)) === micros),
    );
  });
});
