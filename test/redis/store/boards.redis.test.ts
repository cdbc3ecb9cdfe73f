import { createHash } from 'node:crypto';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { STALE_LAYOUT } from '../../../src/store/commands/scriptErrors';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { loadScriptSource } from '../../../src/store/scriptLoader';
import { uniqueId } from '../../support/redis';
import { submitted, useTestStore } from '../../support/store';

const t = useTestStore();

const boardKeys = (id: string) => t.redis.keys(`st:{${id}}:*`);

describe('creating boards', () => {
  it('returns the existing board for the same config and refuses a different one', async () => {
    const id = uniqueId('create');
    const first = await t.store.createBoard({ id, title: 'Blitz', sortOrder: 'ASCENDING', updatePolicy: 'LATEST' });
    expect(first).toMatchObject({ created: true, board: { id, title: 'Blitz', sortOrder: 'ASCENDING', updatePolicy: 'LATEST' } });
    const again = await t.store.createBoard({ id, title: 'Blitz', sortOrder: 'ASCENDING', updatePolicy: 'LATEST' });
    expect(again).toEqual({ created: false, board: first.board });
    await expect(t.store.createBoard({ id, title: 'Blitz', sortOrder: 'DESCENDING', updatePolicy: 'LATEST' }))
      .rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(t.store.createBoard({ id, sortOrder: 'ASCENDING', updatePolicy: 'LATEST' }))
      .rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await t.store.getBoard(id)).toEqual(first.board);
  });

  it('lists boards in id order, a page at a time', async () => {
    const prefix = uniqueId('list');
    const ids = ['c', 'a', 'b'].map((s) => `${prefix}-${s}`);
    for (const id of ids) await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' });
    const firstPage = await t.store.listBoards(1000, `${prefix}-`);
    expect(firstPage.ids.filter((id) => id.startsWith(prefix))).toEqual([...ids].sort());
    const two = await t.store.listBoards(2, `${prefix}-`);
    expect(two).toEqual({ ids: [`${prefix}-a`, `${prefix}-b`], hasMore: true });
    for (const id of ids) await t.store.deleteBoard(id);
  });
});

describe('writes', () => {
  it('answers an unknown board as missing and writes nothing', async () => {
    const id = uniqueId('missing');
    expect(await t.store.submit(id, [{ playerId: 'a', score: 1 }])).toEqual({ missing: true });
    expect(await boardKeys(id)).toEqual([]);
  });

  it('refuses a reachedAt in the future and writes nothing of the batch', async () => {
    const id = uniqueId('future');
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
    const future = (Date.now() + 3_600_000) * 1000;
    await expect(submitted(t.store, id, [{ playerId: 'a', score: 1 }, { playerId: 'b', score: 2, reachedAtMicros: future }]))
      .rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await t.store.size(id)).toBe(0);
  });

  it('keeps an imported 16-digit moment exact', async () => {
    const id = uniqueId('moment');
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST' });
    const moment = 1_700_000_123_456_789;
    const [result] = await submitted(t.store, id, [{ playerId: 'a', score: 1, reachedAtMicros: moment }]);
    expect(result.entry.reachedAtMicros).toBe(moment);
    expect((await t.store.entries(id, ['a']))[0]!.reachedAtMicros).toBe(moment);
  });

  it('replays an idempotent submission instead of applying it twice', async () => {
    const id = uniqueId('idem');
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'INCREMENT' });
    const [first] = await submitted(t.store, id, [{ playerId: 'a', score: 10, idempotencyKey: 'k1' }]);
    await submitted(t.store, id, [{ playerId: 'b', score: 50 }]);
    const [retry] = await submitted(t.store, id, [{ playerId: 'a', score: 10, idempotencyKey: 'k1' }]);
    expect(retry).toEqual({ ...first, replayed: true });
    expect((await t.store.entries(id, ['a']))[0]).toMatchObject({ score: 10, rank: 2 });
    const [other] = await submitted(t.store, id, [{ playerId: 'a', score: 10, idempotencyKey: 'k2' }]);
    expect(other).toMatchObject({ replayed: false, changed: true, previousScore: 10, entry: { score: 20 } });
    expect(await t.redis.ttl(`st:{${id}}:idem:k1`)).toBeGreaterThan(24 * 3600 - 60);
  });

  it('leaves the board as it was when one INCREMENT of a batch would overflow', async () => {
    const id = uniqueId('overflow');
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'INCREMENT' });
    await submitted(t.store, id, [{ playerId: 'a', score: Number.MAX_SAFE_INTEGER - 1 }]);
    const before = await t.store.page(id, { limit: 10 });
    await expect(submitted(t.store, id, [{ playerId: 'b', score: 5 }, { playerId: 'a', score: 1 }, { playerId: 'a', score: 1 }]))
      .rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await t.store.page(id, { limit: 10 })).toEqual(before);
  });
});

describe('scripts', () => {
  it('are called by SHA and reloaded when Redis has forgotten them', async () => {
    const id = uniqueId('noscript');
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' });
    await t.redis.script('FLUSH');
    const [result] = await submitted(t.store, id, [{ playerId: 'a', score: 1 }]);
    expect(result.entry.rank).toBe(1);
    // The fallback EVAL cached the script under the SHA the store calls it by.
    const sha = createHash('sha1').update(loadScriptSource('submit')).digest('hex');
    expect(await t.redis.script('EXISTS', sha)).toEqual([1]);
  });
});

describe('deleting boards', () => {
  it('removes every key of the board and its listing', async () => {
    const id = uniqueId('delete');
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: 1000 });
    await submitted(t.store, id, Array.from({ length: 50 }, (_, i) => ({ playerId: `p${i}`, score: i, idempotencyKey: `k${i}` })));
    expect((await boardKeys(id)).length).toBeGreaterThan(50);
    expect(await t.store.deleteBoard(id)).toBe(true);
    expect(await boardKeys(id)).toEqual([]);
    expect(await t.redis.zscore('st:boards', id)).toBeNull();
    expect(await t.store.deleteBoard(id)).toBe(false);
    expect(await t.store.getBoard(id)).toBeNull();
  });

  it('serves a board re-created with another capacity through a store that cached the old one', async () => {
    const id = uniqueId('recreate');
    const other = new LeaderboardStore(t.redis);
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 64 });
    await submitted(other, id, [{ playerId: 'a', score: 1 }]);
    await t.store.deleteBoard(id);
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 100_000 });
    await submitted(t.store, id, [{ playerId: 'a', score: 2 }, { playerId: 'b', score: 3 }]);
    // `other` still believes in the old bucket count; the scripts make it refresh: reads at once,
    // writes by answering that nothing was written, for the caller to call again.
    const [a, b] = await other.entries(id, ['a', 'b']);
    expect([a?.score, b?.score]).toEqual([2, 3]);
    await t.store.deleteBoard(id);
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 64 });
    await submitted(t.store, id, [{ playerId: 'a', score: 2 }, { playerId: 'b', score: 3 }]);
    expect(await other.submit(id, [{ playerId: 'a', score: 4 }])).toBe(STALE_LAYOUT);
    const [again] = await submitted(other, id, [{ playerId: 'a', score: 4 }]);
    expect(again).toMatchObject({ previousScore: 2, entry: { rank: 1 } });
    // A removal finds the players' buckets in the script, whatever the bucket count.
    await t.store.deleteBoard(id);
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 100_000 });
    await submitted(t.store, id, [{ playerId: 'a', score: 2 }, { playerId: 'b', score: 3 }]);
    expect(await other.remove(id, 'b')).toBe(true);
    expect(await t.store.size(id)).toBe(1);
  });

  it('answers UNAVAILABLE, not applied, when the board changes again while the domain reads it again', async () => {
    const id = uniqueId('recreate-twice');
    const other = new LeaderboardStore(t.redis);
    const leaderboards = new Leaderboards(other);
    const recreate = async (capacity: number) => {
      await t.store.deleteBoard(id);
      await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity });
    };
    await t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: 64 });
    await submitted(other, id, [{ playerId: 'a', score: 1 }]);
    await recreate(100_000);
    // The refresh reads the board, which changes again before the retried write.
    const refresh = jest.spyOn(other, 'getBoard').mockImplementationOnce(async (board) => {
      const read = await LeaderboardStore.prototype.getBoard.call(other, board);
      await recreate(1_000_000);
      return read;
    });
    await expect(leaderboards.submitOne({ boardId: id, playerId: 'a', score: 2 })).rejects.toMatchObject({ code: 'UNAVAILABLE', outcome: 'NOT_APPLIED' });
    refresh.mockRestore();
    expect(await t.store.size(id)).toBe(0);
    // The call after finds the board settled.
    expect(await leaderboards.submitOne({ boardId: id, playerId: 'a', score: 3 })).toMatchObject({ entry: { rank: 1, score: 3 } });
  });
});
