import fc from 'fast-check';
import { boardKeys } from '../../../src/store/keys';
import { decodeMember } from '../../../src/store/memberCodec';
import { uniqueId } from '../../support/redis';
import { useTestStore } from '../../support/store';

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
      const results = await t.store.submit(id, ids.map((playerId) => ({ playerId, score: 1 })));
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
  await t.store.submit(id, [{ playerId: '99999999', score: 1 }]);
  const [member] = await t.redis.zrangeBuffer(boardKeys(id).ranking, '0', '0');
  expect(member.length).toBe(13);
  await t.store.deleteBoard(id);
});
