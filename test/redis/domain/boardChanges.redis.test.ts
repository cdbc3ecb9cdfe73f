// The domain's board changes that have no GraphQL mutation yet: bulk removals (with their limit
// per call), board settings and profile deletion. Validation happens here, before Redis.
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { MAX_REMOVALS_PER_CALL } from '../../../src/domain/limits';
import { Players } from '../../../src/domain/players';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { PlayerStore } from '../../../src/store/playerStore';
import { newTestClient, uniqueId } from '../../support/redis';

let redis: Redis;
let leaderboards: Leaderboards;
let players: Players;
beforeAll(() => {
  redis = newTestClient();
  leaderboards = new Leaderboards(new LeaderboardStore(redis));
  players = new Players(new PlayerStore(redis));
});
afterAll(() => redis.quit());

async function boardWith(count: number): Promise<string> {
  const id = uniqueId('changes');
  await leaderboards.createBoard({ id, title: 'Weekly', sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: 2000 });
  for (let from = 0; from < count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - from) }, (_, k) => ({ boardId: id, playerId: `p${from + k}`, score: from + k }));
    await leaderboards.submit(batch);
  }
  return id;
}

const allIds = async (id: string) => (await leaderboards.page(id, { limit: 1000 })).entries.map((e) => e.playerId);

describe('bulk removals', () => {
  it(`refuse past ${MAX_REMOVALS_PER_CALL} entries a call, removing nothing; at the limit they go`, async () => {
    const id = await boardWith(MAX_REMOVALS_PER_CALL + 2);
    const tooMany = [
      () => leaderboards.keepTop({ leaderboardId: id, count: 1 }),
      () => leaderboards.removeByScore({ leaderboardId: id, min: { value: 0 } }),
      () => leaderboards.removeEntries({ leaderboardId: id, playerIds: Array.from({ length: MAX_REMOVALS_PER_CALL + 1 }, (_, i) => `p${i}`) }),
    ];
    for (const call of tooMany) {
      await expect(call()).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(await leaderboards.size(id)).toBe(MAX_REMOVALS_PER_CALL + 2);
    }
    expect(await leaderboards.keepTop({ leaderboardId: id, count: 2 })).toBe(MAX_REMOVALS_PER_CALL);
    expect(await allIds(id)).toEqual([`p${MAX_REMOVALS_PER_CALL + 1}`, `p${MAX_REMOVALS_PER_CALL}`]);
  });

  it('remove a score range, the entries below the top N, or a list of players, and say how many', async () => {
    const id = await boardWith(10);
    expect(await leaderboards.removeByScore({ leaderboardId: id, min: { value: 2, exclusive: true }, max: { value: 4 } })).toBe(2);
    expect(await leaderboards.removeEntries({ leaderboardId: id, playerIds: ['p9', 'p9', 'nobody'] })).toBe(1);
    expect(await leaderboards.keepTop({ leaderboardId: id, count: 5 })).toBe(2);
    expect(await allIds(id)).toEqual(['p8', 'p7', 'p6', 'p5', 'p2']);
    expect(await leaderboards.keepTop({ leaderboardId: id, count: 5 })).toBe(0);
    expect(await leaderboards.removeByScore({ leaderboardId: id, max: { value: 2 } })).toBe(1);
  });

  it('refuse bad input and unknown boards', async () => {
    const id = await boardWith(3);
    const refused = [
      [() => leaderboards.removeByScore({ leaderboardId: id, min: { value: 3 }, max: { value: 2 } }), 'BAD_USER_INPUT'],
      [() => leaderboards.removeByScore({ leaderboardId: id, min: { value: Number.NaN } }), 'BAD_USER_INPUT'],
      [() => leaderboards.removeByScore({ leaderboardId: id, max: { value: 2 ** 53 } }), 'BAD_USER_INPUT'],
      [() => leaderboards.keepTop({ leaderboardId: id, count: -1 }), 'BAD_USER_INPUT'],
      [() => leaderboards.keepTop({ leaderboardId: id, count: 1.5 }), 'BAD_USER_INPUT'],
      [() => leaderboards.removeEntries({ leaderboardId: id, playerIds: ['p1', 'not valid'] }), 'BAD_USER_INPUT'],
      [() => leaderboards.keepTop({ leaderboardId: 'no{such', count: 1 }), 'BAD_USER_INPUT'],
      [() => leaderboards.keepTop({ leaderboardId: uniqueId('missing'), count: 1 }), 'NOT_FOUND'],
      [() => leaderboards.removeEntries({ leaderboardId: uniqueId('missing'), playerIds: ['p1'] }), 'NOT_FOUND'],
    ] as const;
    for (const [call, code] of refused) await expect(call()).rejects.toMatchObject({ code });
    expect(await leaderboards.size(id)).toBe(3);
  });
});

describe('updateBoard', () => {
  it('changes the title and the update policy, which the next submissions follow', async () => {
    const id = await boardWith(1);
    const { board, changed } = await leaderboards.updateBoard({ id, title: 'Monthly', updatePolicy: 'LATEST' });
    expect(changed).toBe(true);
    expect(board).toMatchObject({ id, title: 'Monthly', updatePolicy: 'LATEST', sortOrder: 'DESCENDING', denseRanks: true });
    expect(await leaderboards.getBoard(id)).toEqual(board);
    // LATEST now: a worse score replaces the better one.
    await leaderboards.submit([{ boardId: id, playerId: 'p0', score: -5 }]);
    expect((await leaderboards.entries(id, ['p0']))[0]!.score).toBe(-5);
    expect((await leaderboards.updateBoard({ id, title: null })).board.title).toBeNull();
    expect(await leaderboards.updateBoard({ id, sortOrder: 'DESCENDING', capacity: 2000, denseRanks: true })).toMatchObject({ changed: false });
  });

  it('refuses settings that cannot change without rebuilding the board, and changes nothing', async () => {
    const id = await boardWith(1);
    const before = await leaderboards.getBoard(id);
    for (const update of [
      { sortOrder: 'ASCENDING' as const },
      { capacity: 1_000_000 },
      { denseRanks: false },
      { title: 'bad\u202Etitle' },
      { updatePolicy: 'SOMETIMES' as 'BEST' },
    ]) {
      await expect(leaderboards.updateBoard({ id, title: 'Renamed', ...update })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    }
    expect(await leaderboards.getBoard(id)).toEqual(before);
    await expect(leaderboards.updateBoard({ id: uniqueId('missing'), title: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('deletePlayer', () => {
  it('removes the profile, after which the player reads as having none', async () => {
    const id = uniqueId('player');
    await players.upsert({ id, displayName: 'Märta' });
    expect(await players.delete(id)).toBe(true);
    expect(await players.get([id])).toEqual([null]);
    expect(await players.delete(id)).toBe(false);
    await expect(players.delete('bad id')).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});
