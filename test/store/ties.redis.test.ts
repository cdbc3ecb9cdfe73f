import type { Redis } from 'ioredis';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { newTestClient, uniqueId } from '../support/redis';
import { isoToMicros, loadTieCases } from '../support/tiesVectors';

let redis: Redis;
let store: LeaderboardStore;
beforeAll(() => {
  redis = newTestClient();
  store = new LeaderboardStore(redis);
});
afterAll(() => redis.quit());

describe.each(loadTieCases().map((c) => [c.name, c] as const))('tie scenario: %s', (_name, scenario) => {
  it('shows the expected order', async () => {
    const boardId = uniqueId('ties');
    await store.createBoard({ id: boardId, ...scenario.board });
    for (const op of scenario.ops) {
      await store.submit(boardId, [{
        playerId: op.playerId,
        score: op.score,
        reachedAtMicros: op.reachedAt === undefined ? undefined : isoToMicros(op.reachedAt),
      }]);
    }
    const { entries } = await store.page(boardId, { limit: 100 });
    expect(entries).toHaveLength(scenario.expect.length);
    scenario.expect.forEach((want, i) => expect(entries[i]).toMatchObject(want));
  });
});
