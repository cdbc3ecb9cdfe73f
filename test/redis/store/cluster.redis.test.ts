import { Cluster } from 'ioredis';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { boardOnEachMaster, startTestCluster, type TestCluster } from '../../support/cluster';
import { uniqueId } from '../../support/redis';
import { submitted } from '../../support/store';
import { ReferenceBoard } from '../../support/referenceModel';

/**
 * The store on a real three-master Redis Cluster: every script keeps to its board's slot (hash
 * tags), so the same code serves boards spread over the masters.
 */
let testCluster: TestCluster;
let cluster: Cluster;
let store: LeaderboardStore;

beforeAll(async () => {
  testCluster = await startTestCluster();
  cluster = testCluster.client();
  store = new LeaderboardStore(cluster);
}, 60_000);

afterAll(async () => {
  await cluster?.quit();
  await testCluster?.stop();
});

it('serves boards on every master with the same ranking as the model', async () => {
  const spread = (await boardOnEachMaster(cluster, 'cluster')).map(({ id }) => id);
  const ids = [...spread, ...Array.from({ length: 5 }, () => uniqueId('cluster'))];

  for (const id of ids) {
    await store.createBoard({ id, sortOrder: 'ASCENDING', updatePolicy: 'BEST', capacity: 500 });
    const model = new ReferenceBoard('ASCENDING', 'BEST');
    const submissions = Array.from({ length: 40 }, (_, i) => ({ playerId: `p${i % 15}`, score: (i * 7) % 5 }));
    const results = await submitted(store, id, submissions.map((s, i) => ({ ...s, idempotencyKey: `k${i}` })));
    submissions.forEach((s, i) => model.submit(s.playerId, s.score, results[i].entry.reachedAtMicros, false));
    const expected = model.ranking().map((e) => [e.playerId, e.score, e.rank, e.sharedRank]);

    const pages = [];
    let after: string | undefined;
    do {
      const page = await store.page(id, { limit: 4, cursor: after });
      pages.push(...page.entries);
      after = page.hasMore ? page.entries[page.entries.length - 1].cursor : undefined;
    } while (after);
    expect(pages.map((e) => [e.playerId, e.score, e.rank, e.sharedRank])).toEqual(expected);
    expect((await store.entries(id, ['p3', 'nobody'])).map((e) => e?.rank ?? null)).toEqual([model.rankOf('p3'), null]);
    expect((await store.around(id, 'p3', 2))!.center!.playerId).toBe('p3');
    expect(await store.remove(id, 'p3')).toBe(true);
    // Bulk removals reach the bucket hashes by name: on a Cluster that must stay on the board's slot.
    expect(await store.denseRanks(id, [0, 4])).toEqual([1, 5]);
    expect(await store.countByScore(id, { min: { value: 1 }, max: { value: 3 } })).toBe(model.ranking().filter((e) => e.playerId !== 'p3' && e.score >= 1 && e.score <= 3).length);
    expect(await store.removePlayers(id, ['p4', 'p5'], 10)).toBe(2);
    expect(await store.keepTop(id, 5, 100)).toBe(7);
    expect(await store.removeByScore(id, {}, 100)).toBe(5);
    expect((await store.updateBoard({ id, title: 'Emptied' })).board.title).toBe('Emptied');
  }
  expect((await store.listBoards(1000)).ids).toEqual(expect.arrayContaining(ids));
  for (const id of ids) expect(await store.deleteBoard(id)).toBe(true);
  for (const id of ids) expect(await store.getBoard(id)).toBeNull();
  // Idempotency keys are found by SCAN on every master; nothing of any board is left anywhere.
  for (const master of cluster.nodes('master')) expect(await master.keys('st:{cluster-*')).toEqual([]);
});
