import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { Cluster } from 'ioredis';
import type { ManagedRedis } from '../../src/server/managedRedis';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { startDedicatedRedis, uniqueId } from '../support/redis';
import { ReferenceBoard } from '../support/referenceModel';

/**
 * The store on a real three-master Redis Cluster: every script keeps to its board's slot (hash
 * tags), so the same code serves boards spread over the masters.
 */
let nodes: ManagedRedis[] = [];
let cluster: Cluster;
let store: LeaderboardStore;

beforeAll(async () => {
  nodes = await Promise.all(
    [0, 1, 2].map(() => startDedicatedRedis({ persistence: 'none', extraArgs: ['--cluster-enabled', 'yes'] })),
  );
  execFileSync('redis-cli', [
    '--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes',
  ], { stdio: 'ignore' });
  cluster = new Cluster(nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
  // Slots are assigned at once but gossip takes a moment to agree; poll, bounded.
  const deadline = Date.now() + 20_000;
  while (!/cluster_state:ok/.test(String(await cluster.cluster('INFO')))) {
    if (Date.now() > deadline) throw new Error('the test cluster did not reach cluster_state:ok');
    await delay(100);
  }
  store = new LeaderboardStore(cluster);
}, 60_000);

afterAll(async () => {
  await cluster?.quit();
  await Promise.all(nodes.map((n) => n.stop()));
});

it('serves boards on every master with the same ranking as the model', async () => {
  const ids = Array.from({ length: 8 }, () => uniqueId('cluster'));
  const slots = new Set(ids.map((id) => Number(execFileSync('redis-cli', ['-p', String(nodes[0].port), 'CLUSTER', 'KEYSLOT', `{${id}}`]).toString())));
  expect(slots.size).toBeGreaterThan(1);

  for (const id of ids) {
    await store.createBoard({ id, sortOrder: 'ASCENDING', updatePolicy: 'BEST', capacity: 500 });
    const model = new ReferenceBoard('ASCENDING', 'BEST');
    const submissions = Array.from({ length: 40 }, (_, i) => ({ playerId: `p${i % 15}`, score: (i * 7) % 5 }));
    const results = await store.submit(id, submissions.map((s, i) => ({ ...s, idempotencyKey: `k${i}` })));
    submissions.forEach((s, i) => model.submit(s.playerId, s.score, results[i].entry.reachedAtMicros, false));
    const expected = model.ranking().map((e) => [e.playerId, e.score, e.rank, e.sharedRank]);

    const pages = [];
    let after: string | undefined;
    do {
      const page = await store.page(id, { limit: 4, after });
      pages.push(...page.entries);
      after = page.hasMore ? page.entries[page.entries.length - 1].cursor : undefined;
    } while (after);
    expect(pages.map((e) => [e.playerId, e.score, e.rank, e.sharedRank])).toEqual(expected);
    expect((await store.entries(id, ['p3', 'nobody'])).map((e) => e?.rank ?? null)).toEqual([model.rankOf('p3'), null]);
    expect((await store.around(id, 'p3', 2))!.center!.playerId).toBe('p3');
    expect(await store.remove(id, 'p3')).toBe(true);
  }
  expect((await store.listBoards(1000)).ids).toEqual(expect.arrayContaining(ids));
  for (const id of ids) expect(await store.deleteBoard(id)).toBe(true);
  for (const id of ids) expect(await store.getBoard(id)).toBeNull();
  // Idempotency keys are found by SCAN on every master; nothing of any board is left anywhere.
  for (const master of cluster.nodes('master')) expect(await master.keys('st:{cluster-*')).toEqual([]);
});
