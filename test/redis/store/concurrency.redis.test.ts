import type { Redis } from 'ioredis';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import type { UpdatePolicy } from '../../../src/model';
import { newTestClient, uniqueId } from '../../support/redis';
import { submitted } from '../../support/store';
import { ReferenceBoard } from '../../support/referenceModel';

/**
 * Many writers on separate connections race on one board. Redis applies scripts one at a
 * time, and live moments increase strictly per board, so sorting the accepted writes by
 * reachedAt recovers the order Redis applied them in; replaying that order through the model
 * must give the final ranking exactly.
 */
const WRITERS = 8;
const WRITES_PER_WRITER = 60;

let clients: Redis[];
beforeAll(() => {
  clients = Array.from({ length: WRITERS }, () => newTestClient());
});
afterAll(() => Promise.all(clients.map((c) => c.quit())));

describe.each(['BEST', 'LATEST', 'INCREMENT'] as UpdatePolicy[])('concurrent writers, %s policy', (updatePolicy) => {
  it('end in the ranking the model gives for the order Redis applied them in', async () => {
    const boardId = uniqueId('race');
    const stores = clients.map((c) => new LeaderboardStore(c));
    await stores[0].createBoard({ id: boardId, sortOrder: 'DESCENDING', updatePolicy, capacity: 1000 });

    const applied: { playerId: string; score: number; moment: number }[] = [];
    await Promise.all(
      stores.map(async (store, writer) => {
        for (let i = 0; i < WRITES_PER_WRITER; i++) {
          // Few players and few scores: writers collide on players and on ties constantly.
          const playerId = `p${(writer * 7 + i * 3) % 12}`;
          const score = ((writer + i) % 5) * 10;
          const [result] = await submitted(store, boardId, [{ playerId, score }]);
          if (result.changed) applied.push({ playerId, score, moment: result.entry.reachedAtMicros });
          else if (updatePolicy === 'INCREMENT') expect(score).toBe(0);
        }
      }),
    );

    // Unchanged submissions leave no mark, so the model replays only the accepted ones; for
    // INCREMENT it needs the submitted amounts in order, which the changed ones carry.
    applied.sort((a, b) => a.moment - b.moment);
    expect(new Set(applied.map((a) => a.moment)).size).toBe(applied.length);
    const model = new ReferenceBoard('DESCENDING', updatePolicy);
    for (const write of applied) model.submit(write.playerId, write.score, write.moment, false);

    const { entries } = await stores[0].page(boardId, { limit: 100 });
    expect(entries.map((e) => [e.playerId, e.score, e.rank, e.sharedRank, e.reachedAtMicros])).toEqual(
      model.ranking().map((e) => [e.playerId, e.score, e.rank, e.sharedRank, e.reachedAtMicros]),
    );
    await stores[0].deleteBoard(boardId);
  });
});
