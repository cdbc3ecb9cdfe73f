import { uniqueId } from '../../support/redis';
import { submitted, useTestStore } from '../../support/store';
import { isoToMicros, loadTieCases } from '../../support/tiesVectors';

const t = useTestStore();

describe.each(loadTieCases().map((c) => [c.name, c] as const))('tie scenario: %s', (_name, scenario) => {
  it('shows the expected order', async () => {
    const boardId = uniqueId('ties');
    await t.store.createBoard({ id: boardId, ...scenario.board });
    for (const op of scenario.ops) {
      await submitted(t.store, boardId, [{
        playerId: op.playerId,
        score: op.score,
        reachedAtMicros: op.reachedAt === undefined ? undefined : isoToMicros(op.reachedAt),
      }]);
    }
    const { entries } = await t.store.page(boardId, { limit: 100 });
    expect(entries).toHaveLength(scenario.expect.length);
    scenario.expect.forEach((want, i) => expect(entries[i]).toMatchObject(want));
  });
});
