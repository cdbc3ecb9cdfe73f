import { checkId, checkLimit, checkPercent, checkScore, checkSortOrder, checkTitle } from '../../src/domain/validation';
import { bucketCount } from '../../src/store/leaderboardStore';

const refused = expect.objectContaining({ code: 'BAD_USER_INPUT' });

describe('input validation', () => {
  it('accepts scores up to 2^53 - 1 in magnitude and refuses the rest', () => {
    expect(checkScore(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(checkScore(-Number.MAX_SAFE_INTEGER)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(Object.is(checkScore(-0), 0)).toBe(true);
    expect(checkScore(0.1)).toBe(0.1);
    for (const bad of [2 ** 53, -(2 ** 53), 2 ** 53 + 2, NaN, Infinity, -Infinity, '5', null]) {
      expect(() => checkScore(bad)).toThrow(refused);
    }
  });

  it('accepts ids of 1-128 safe characters only', () => {
    expect(checkId('a-Z_0.9:x', 'id')).toBe('a-Z_0.9:x');
    expect(checkId('x'.repeat(128), 'id')).toHaveLength(128);
    for (const bad of ['', 'x'.repeat(129), 'a{b}', 'a b', 'a\u0000', 'é', 7]) {
      expect(() => checkId(bad, 'id')).toThrow(refused);
    }
  });

  it('bounds pages, percents, enums and titles', () => {
    expect(checkLimit(1000)).toBe(1000);
    for (const bad of [0, 1001, 1.5, -1]) expect(() => checkLimit(bad)).toThrow(refused);
    expect(checkPercent(100)).toBe(100);
    for (const bad of [0, -1, 100.1, NaN]) expect(() => checkPercent(bad)).toThrow(refused);
    expect(() => checkSortOrder('SIDEWAYS')).toThrow(refused);
    expect(checkTitle(undefined)).toBeNull();
    expect(() => checkTitle('a\nb')).toThrow(refused);
  });
});

describe('bucket count', () => {
  it('keeps buckets below the listpack limit at capacity', () => {
    expect(bucketCount(1)).toBe(1);
    expect(bucketCount(1_000_000)).toBe(10_417);
    expect(1_000_000 / bucketCount(1_000_000)).toBeLessThan(128);
  });
});
