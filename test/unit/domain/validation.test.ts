import {
  checkId, checkLimit, checkPercent, checkRank, checkReachedAtMicros, checkScore, checkScoreRange, checkSortOrder, checkText,
  checkTitle,
} from '../../../src/domain/validation';
import { bucketCount } from '../../../src/store/commands/arguments';

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

  it('takes score ranges with open, inclusive and exclusive ends, and refuses min above max', () => {
    expect(checkScoreRange(null, undefined)).toEqual({ min: undefined, max: undefined });
    expect(checkScoreRange({ value: -0, exclusive: null }, { value: 0, exclusive: true })).toEqual({
      min: { value: 0, exclusive: false }, max: { value: 0, exclusive: true },
    });
    expect(() => checkScoreRange({ value: 2 }, { value: 1 })).toThrow(refused);
    expect(() => checkScoreRange({ value: NaN }, null)).toThrow(expect.objectContaining({ details: { field: 'min.value' } }));
    expect(() => checkScoreRange(null, { value: 2 ** 53 })).toThrow(refused);
    expect(checkRank(1)).toBe(1);
    for (const bad of [0, -1, 1.5, Infinity]) expect(() => checkRank(bad)).toThrow(refused);
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

describe('text shown to people', () => {
  it.each([
    ['a right-to-left override', 'evil\u202Egnp.exe', 'U+202E', 4],
    ['a left-to-right embedding', '\u202Aname', 'U+202A', 0],
    ['a first-strong isolate', 'a\u2068b', 'U+2068', 1],
    ['a pop directional isolate', 'ab\u2069', 'U+2069', 2],
    ['a right-to-left mark', 'a\u200Fb', 'U+200F', 1],
    ['a zero-width space', 'ad\u200Bmin', 'U+200B', 2],
    ['a byte order mark', '\uFEFFname', 'U+FEFF', 0],
    ['a soft hyphen', 'ad\u00ADmin', 'U+00AD', 2],
    ['a newline', 'two\nlines', 'U+000A', 3],
    ['a C1 control', 'a\u0085b', 'U+0085', 1],
    ['a line separator', 'a\u2028b', 'U+2028', 1],
    ['a lone surrogate', 'a\uD800b', 'U+D800', 1],
    ['an invisible tag character', 'a\u{E0041}', 'U+E0041', 1],
  ])('refuses %s, naming the field and the character', (_case, text, codePoint, index) => {
    expect(() => checkText(text, 'displayName', 64)).toThrow(expect.objectContaining({
      code: 'BAD_USER_INPUT',
      message: `displayName must be visible text on one line: ${codePoint} at index ${index} is a control, format or separator character`,
      details: { field: 'displayName' },
    }));
  });

  it('accepts any script, emoji sequences (ZWJ) and joiners scripts need (ZWNJ)', () => {
    for (const text of ['Märta «the Rook»', '👨‍👩‍👧 team', 'می‌خواهم', '東京', 'O\'Brien', '']) {
      expect(checkText(text, 'title', 200)).toBe(text);
    }
  });

  it('bounds the length, and applies the same rule to board titles', () => {
    expect(() => checkText('', 'displayName', 64, 1)).toThrow(expect.objectContaining({ message: 'displayName must be a string of 1-64 characters' }));
    expect(() => checkText('x'.repeat(65), 'displayName', 64, 1)).toThrow(refused);
    expect(() => checkTitle('x'.repeat(201))).toThrow(expect.objectContaining({ message: 'title must be a string of at most 200 characters' }));
    expect(() => checkTitle('Weekly \u2066blitz')).toThrow(expect.objectContaining({ details: { field: 'title' } }));
  });
});

describe('reachedAt', () => {
  it('accepts 1970 onwards, and states the range it accepts', () => {
    expect(checkReachedAtMicros(0)).toBe(0);
    const outside = expect.objectContaining({
      code: 'BAD_USER_INPUT', message: 'reachedAt must be a moment from 1970-01-01T00:00:00Z up to now', details: { field: 'reachedAt' },
    });
    for (const bad of [-1, Date.UTC(2999, 0, 1) * 1000, 1.5]) expect(() => checkReachedAtMicros(bad)).toThrow(outside);
  });
});

describe('bucket count', () => {
  it('keeps buckets below the listpack limit at capacity', () => {
    expect(bucketCount(1)).toBe(1);
    expect(bucketCount(1_000_000)).toBe(10_417);
    expect(1_000_000 / bucketCount(1_000_000)).toBeLessThan(128);
  });
});
