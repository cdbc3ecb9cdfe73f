import fc from 'fast-check';
import { boardKeys } from '../../../src/store/keys';
import { decodeMember, tokenLengthOf } from '../../../src/store/memberCodec';
import { uniqueId } from '../../support/redis';
import { submitted, useTestStore } from '../../support/store';

/** The member bytes the scripts build, read back raw and decoded by Node. */
const t = useTestStore();

const playerIds = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/),
  fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }).map(String),
  fc.constantFrom('0', '00', '007', '256', '65536', '999999999999999', '1000000000000000', '12345678'),
);

it('decodes every kind of player id and the exact moment from the stored member', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(playerIds, { minLength: 1, maxLength: 30 }), async (ids) => {
      const id = uniqueId('members');
      await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
      const results = await submitted(t.store, id, ids.map((playerId) => ({ playerId, score: 1 })));
      const members = await t.redis.zrangeBuffer(boardKeys(id).ranking, '0', '-1');
      const decoded = members.map((m) => decodeMember(m));
      expect(decoded.map((d) => d.playerId)).toEqual(ids); // equal scores: arrival order
      expect(decoded.map((d) => d.reachedAtMicros)).toEqual(results.map((r) => r.entry.reachedAtMicros));
      await t.store.deleteBoard(id);
    }),
    { numRuns: 30 },
  );
});

it('keeps a live member with an 8-digit id at 13 bytes, inside jemalloc 16-byte allocations', async () => {
  const id = uniqueId('size');
  await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
  await submitted(t.store, id, [{ playerId: '99999999', score: 1 }]);
  const [member] = await t.redis.zrangeBuffer(boardKeys(id).ranking, '0', '0');
  expect(member.length).toBe(13);
  await t.store.deleteBoard(id);
});

/**
 * The player code as memberCodec.ts specifies it, written independently of the scripts: type byte
 * n and the id as an n-byte big-endian integer (n as small as it takes, 1 for 0) for a canonical
 * decimal of up to 15 digits, else type byte 0 and the id's bytes. Members already stored depend on
 * these exact bytes, so the scripts must never make others.
 */
function specifiedCode(playerId: string): Buffer {
  if (!/^(0|[1-9]\d{0,14})$/.test(playerId)) return Buffer.concat([Buffer.from([0]), Buffer.from(playerId)]);
  const bytes: number[] = [];
  let n = BigInt(playerId);
  do {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  } while (n > 0n);
  return Buffer.from([bytes.length, ...bytes]);
}

it('makes exactly the specified player code for every kind of id', async () => {
  // Around every length of the big-endian number, and any id at all.
  const boundaries = Array.from({ length: 7 }, (_, i) => 256n ** BigInt(i + 1)).flatMap((edge) => [edge - 1n, edge, edge + 1n])
    .filter((n) => n < 10n ** 15n).map(String);
  const ids = fc.oneof(playerIds, fc.constantFrom(...boundaries), fc.bigInt({ min: 0n, max: 10n ** 16n }).map(String));
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(ids, { minLength: 1, maxLength: 30 }), async (players) => {
      const id = uniqueId('codes');
      await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
      await submitted(t.store, id, players.map((playerId) => ({ playerId, score: 1 })));
      const members = await t.redis.zrangeBuffer(boardKeys(id).ranking, '0', '-1');
      expect(members.map((member) => member.subarray(tokenLengthOf(member)).toString('hex'))).toEqual(players.map((p) => specifiedCode(p).toString('hex')));
      // Reads find the players again through the members they make (memberOf).
      const read = await t.store.entries(id, players);
      expect(read.map((entry) => entry?.playerId)).toEqual(players);
      await t.store.deleteBoard(id);
    }),
    { numRuns: 40 },
  );
});
