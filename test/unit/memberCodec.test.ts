import fc from 'fast-check';
import { decodeMember, encodePlayer } from '../../src/store/memberCodec';
import { decodeCursor, encodeCursor } from '../../src/store/replies';

// What submit.lua builds: 7-byte big-endian moment, then the sequence varint.
function token(moment: number, seq: number): Buffer {
  const head = Buffer.alloc(7);
  head.writeUIntBE(Math.floor(moment / 256), 0, 6);
  head[6] = moment % 256;
  if (seq < 128) return Buffer.concat([head, Buffer.from([seq])]);
  let width = 1;
  while (seq >= 256 ** width) width++;
  const tail = Buffer.alloc(width);
  tail.writeUIntBE(seq, 0, width);
  return Buffer.concat([head, Buffer.from([128 + width]), tail]);
}

const playerIds = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/),
  fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }).map(String),
  fc.constantFrom('0', '00', '007', '999999999999999', '1000000000000000', '12345678'),
);
const moments = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const seqs = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 40 }));

describe('member codec', () => {
  it('decodes the player id and moment of any member', () => {
    fc.assert(fc.property(playerIds, moments, seqs, (id, moment, seq) => {
      const decoded = decodeMember(Buffer.concat([token(moment, seq), encodePlayer(id)]));
      expect(decoded).toEqual({ playerId: id, reachedAtMicros: moment, tokenLength: token(moment, seq).length });
    }));
  });

  it('orders members by (moment, sequence) under memcmp, whatever the ids', () => {
    fc.assert(fc.property(moments, seqs, playerIds, moments, seqs, playerIds, (m1, s1, id1, m2, s2, id2) => {
      fc.pre(m1 !== m2 || s1 !== s2);
      const a = Buffer.concat([token(m1, s1), encodePlayer(id1)]);
      const b = Buffer.concat([token(m2, s2), encodePlayer(id2)]);
      const expected = m1 < m2 || (m1 === m2 && s1 < s2) ? -1 : 1;
      expect(Buffer.compare(a, b)).toBe(expected);
    }));
  });

  it('keeps a live member with an 8-digit id within 14 bytes (jemalloc 16-byte class)', () => {
    expect(token(1_796_000_000_000_000, 0).length + encodePlayer('99999999').length).toBe(13);
  });
});

describe('cursor codec', () => {
  it('round-trips a position and refuses what it did not make', () => {
    const member = Buffer.concat([token(5, 0), encodePlayer('amy')]);
    expect(decodeCursor(encodeCursor('-2.5', member))).toEqual({ stored: '-2.5', member });
    for (const bad of ['', 'abc', Buffer.from('x\nshort').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
    }
  });
});
