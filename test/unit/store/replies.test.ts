// The reply helpers every command module shares (src/store/replies.ts): the cursor codec.
import { decodeCursor, encodeCursor } from '../../../src/store/replies';

describe('cursor codec', () => {
  it('round-trips a position and refuses what it did not make', () => {
    const member = Buffer.concat([Buffer.alloc(8, 1), Buffer.from('\u0000amy')]);
    expect(decodeCursor(encodeCursor('-2.5', member), 'after')).toEqual({ stored: '-2.5', member });
    for (const bad of ['', 'abc', Buffer.from('x\nshort').toString('base64url')]) {
      expect(() => decodeCursor(bad, 'before')).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT', details: { field: 'before' } }));
    }
  });
});
