// The service on a real three-master Redis Cluster (REDIS_CLUSTER_NODES): two servers, as behind a
// balancer, with boards spread over the masters, writes through one and reads and live updates
// through the other; and live updates when a master's subscriber connection drops or a board's
// slot moves to another master.
import type { Cluster } from 'ioredis';
import { freePort } from '../../src/dev/managedRedis';
import { createSubscriberClient, waitUntilReady } from '../../src/server/redis';
import { type BoardListener, EventBridge } from '../../src/store/eventBridge';
import { boardKeys } from '../../src/store/keys';
import { createBoard, SUBMIT, submitAll, TestServer } from '../support/harness';
import { connect, type LiveConnection } from '../support/liveClient';
import { addressOf, boardOnEachMaster, startTestCluster, type TestCluster } from '../support/cluster';

let cluster: TestCluster;
let admin: Cluster;
let a: TestServer;
let b: TestServer;
const connections: LiveConnection[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  admin = cluster.client();
  [a, b] = await Promise.all([TestServer.start(cluster.config), TestServer.start(cluster.config)]);
}, 60_000);
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), admin?.quit()]);
  await cluster?.stop();
});

const live = (server: TestServer) => {
  const connection = connect(server.graphqlUrl);
  connections.push(connection);
  return connection;
};

const READ = /* GraphQL */ `
  query ($id: ID!) { leaderboard(id: $id) { id totalCount entries(first: 10) { nodes { playerId rank score } } } }
`;
const RANK_CHANGED = /* GraphQL */ `
  subscription ($board: ID!, $player: ID!) {
    rankChanged(leaderboardId: $board, playerId: $player) { entry { rank score } previousRank cause }
  }
`;
const SNAPSHOT = { entry: { rank: 2, score: 20 }, previousRank: null, cause: 'SNAPSHOT' };
const OVERTAKEN = { entry: { rank: 3, score: 20 }, previousRank: 2, cause: 'RANK' };

/** Boards on every master, each with a at 30 and b at 20, written through server A. */
async function boardsOnEveryMaster(prefix: string) {
  const boards = await boardOnEachMaster(admin, prefix);
  await Promise.all(boards.map(async ({ id }) => {
    await createBoard(a, id);
    await submitAll(a, id, [['a', 30], ['b', 20]]);
  }));
  return boards;
}

/** The masters that hold keys of the board: the one that owns its slot, and no other. */
async function holders(boardId: string): Promise<string[]> {
  const found = [];
  for (const node of admin.nodes('master')) {
    if ((await node.keys(`st:{${boardId}}:*`)).length > 0) found.push(addressOf(node));
  }
  return found;
}

/** Cuts this test's sharded subscriber connections on one master (both servers' and any bridge's). */
async function killSubscribers(master: string): Promise<number> {
  const node = cluster.node(master);
  try {
    const list = String(await node.client('LIST'));
    const ids = [...list.matchAll(/^id=(\d+) .* name=ioredis-cluster\(ssubscriber\):standings-live /gm)].map(([, id]) => id);
    for (const id of ids) await node.client('KILL', 'ID', id);
    return ids.length;
  } finally {
    node.disconnect();
  }
}

/** Polls `done` until it holds, for at most `timeoutMs`. */
async function eventually(done: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('serves boards on every master: written through one server, read through the other', async () => {
  const boards = await boardsOnEveryMaster('cl-http');
  for (const { id, master } of boards) {
    expect((await b.data(READ, { id })).leaderboard).toEqual({
      id, totalCount: 2, entries: { nodes: [{ playerId: 'a', rank: 1, score: 30 }, { playerId: 'b', rank: 2, score: 20 }] },
    });
    expect(await holders(id)).toEqual([master]);
  }
});

it('combines boards on every master into a view under a tag of its own, and a board with itself under its own tag', async () => {
  const boards = await boardsOnEveryMaster('cluster-combined');
  const COMBINED = /* GraphQL */ `
    query ($sources: [CombinedSourceInput!]!) { combined(sources: $sources, aggregate: SUM) { totalCount entries { nodes { playerId score rank } } } }
  `;
  const across = await b.data(COMBINED, { sources: boards.map(({ id }, i) => ({ leaderboardId: id, weight: i + 1 })) });
  expect(across.combined).toEqual({ totalCount: 2, entries: { nodes: [{ playerId: 'a', score: 180, rank: 1 }, { playerId: 'b', score: 120, rank: 2 }] } });
  const one = await b.data(COMBINED, { sources: [{ leaderboardId: boards[0].id, weight: 3 }] });
  expect(one.combined.entries.nodes).toEqual([{ playerId: 'a', score: 90, rank: 1 }, { playerId: 'b', score: 60, rank: 2 }]);
});

it('sends a write through one server to subscriptions on the other, for boards on every master', async () => {
  const boards = await boardsOnEveryMaster('cl-live');
  const connection = live(b);
  const subscriptions = boards.map(({ id }) => connection.subscribe(RANK_CHANGED, { board: id, player: 'b' }));
  for (const subscription of subscriptions) expect((await subscription.nextData()).rankChanged).toEqual(SNAPSHOT);

  await Promise.all(boards.map(({ id }) => submitAll(a, id, [['c', 40]])));
  for (const subscription of subscriptions) expect((await subscription.nextData()).rankChanged).toEqual(OVERTAKEN);
});

it('resynchronises the boards of a master whose subscriber connection dropped, and only those', async () => {
  const [dropped, kept] = await boardsOnEveryMaster('cl-drop');
  const connection = live(b);
  const onDropped = connection.subscribe(RANK_CHANGED, { board: dropped.id, player: 'b' });
  const onKept = connection.subscribe(RANK_CHANGED, { board: kept.id, player: 'b' });
  expect((await onDropped.nextData()).rankChanged).toEqual(SNAPSHOT);
  expect((await onKept.nextData()).rankChanged).toEqual(SNAPSHOT);

  expect(await killSubscribers(dropped.master)).toBeGreaterThan(0);
  // Messages published while it was down may be lost: a fresh snapshot, once subscribed again.
  expect((await onDropped.nextData()).rankChanged).toEqual(SNAPSHOT);

  await submitAll(a, dropped.id, [['c', 40]]);
  await submitAll(a, kept.id, [['c', 40]]);
  expect((await onDropped.nextData()).rankChanged).toEqual(OVERTAKEN);
  expect((await onKept.nextData()).rankChanged).toEqual(OVERTAKEN);
  expect(connection.connections()).toBe(1);
});

describe('the event bridge on a cluster', () => {
  let bridge: EventBridge;
  beforeAll(() => {
    bridge = new EventBridge(createSubscriberClient(a.redis), { info: () => undefined, warn: () => undefined });
  });
  afterAll(() => bridge.close());

  /** What each board's listener heard, in order: lost, resubscribed, and events (by kind). */
  const heard = new Map<string, string[]>();
  const listener = (boardId: string): BoardListener => {
    heard.set(boardId, []);
    return {
      events: ({ events }) => heard.get(boardId)!.push(...events.map(({ kind }) => kind)),
      lost: () => heard.get(boardId)!.push('lost'),
      resubscribed: () => heard.get(boardId)!.push('resubscribed'),
    };
  };
  const submit = (boardId: string, playerId: string, score: number) =>
    a.data(SUBMIT, { input: { leaderboardId: boardId, playerId, score } });

  it('tells the listeners of a dropped master lost, then resubscribed once their channel is live again', async () => {
    const [dropped, kept] = await boardsOnEveryMaster('cl-bridge');
    await Promise.all([dropped, kept].map(({ id }) => bridge.listen(id, listener(id))));

    expect(await killSubscribers(dropped.master)).toBeGreaterThan(0);
    await eventually(() => heard.get(dropped.id)!.includes('resubscribed'), 'resubscribed');
    await submit(dropped.id, 'c', 40);
    await submit(kept.id, 'c', 40);
    await eventually(() => [dropped, kept].every(({ id }) => heard.get(id)!.includes('score')), 'the scores');
    expect(heard.get(dropped.id)).toEqual(['lost', 'resubscribed', 'score']);
    expect(heard.get(kept.id)).toEqual(['score']);
  });

  it('resubscribes a board whose slot moved to another master, and tells its listeners', async () => {
    const [board, , target] = await boardsOnEveryMaster('cl-move');
    await bridge.listen(board.id, listener(board.id));
    const connection = live(b);
    const subscription = connection.subscribe(RANK_CHANGED, { board: board.id, player: 'b' });
    expect((await subscription.nextData()).rankChanged).toEqual(SNAPSHOT);

    await moveSlot(board.id, board.master, target.master);
    await eventually(() => heard.get(board.id)!.includes('resubscribed'), 'resubscribed', 10_000);
    expect((await subscription.nextData(10_000)).rankChanged).toEqual(SNAPSHOT);
    expect(await holders(board.id)).toEqual([target.master]);

    await submit(board.id, 'c', 40);
    expect((await subscription.nextData()).rankChanged).toEqual(OVERTAKEN);
    await eventually(() => heard.get(board.id)!.includes('score'), 'the score');
    expect(heard.get(board.id)).toEqual(['lost', 'resubscribed', 'score']);
  }, 30_000);
});

/** Reshards the board's slot, keys and all, the way `redis-cli --cluster reshard` does. */
async function moveSlot(boardId: string, from: string, to: string): Promise<void> {
  const others = admin.nodes('master').map(addressOf).filter((master) => master !== from && master !== to);
  const [source, target, ...rest] = [from, to, ...others].map((master) => cluster.node(master));
  try {
    const slot = Number(await source.cluster('KEYSLOT', boardKeys(boardId).events));
    const [sourceId, targetId] = await Promise.all([source, target].map(async (node) => String(await node.cluster('MYID'))));
    await target.cluster('SETSLOT', slot, 'IMPORTING', sourceId);
    await source.cluster('SETSLOT', slot, 'MIGRATING', targetId);
    const keys = (await source.cluster('GETKEYSINSLOT', slot, 1000)) as string[];
    const [host, port] = to.split(':');
    await source.call('MIGRATE', host, port, '', 0, 5000, 'AUTH', cluster.config.password!, 'KEYS', ...keys);
    for (const node of [target, source, ...rest]) await node.cluster('SETSLOT', slot, 'NODE', targetId);
  } finally {
    for (const node of [source, target, ...rest]) node.disconnect();
  }
}

describe('an unreachable cluster', () => {
  it('fails the start-up wait with a message naming REDIS_CLUSTER_NODES, without the password', async () => {
    const config = { nodes: [{ host: '127.0.0.1', port: await freePort() }], password: 'never-printed' };
    const server = await TestServer.start(config, { waitForRedis: false });
    try {
      const started = Date.now();
      const waiting = waitUntilReady(server.redis, config, 300);
      await expect(waiting).rejects.toThrow(/^Redis Cluster at 127\.0\.0\.1:\d+ did not answer PING within 300 ms \(.*\)\. .*REDIS_CLUSTER_NODES/);
      await expect(waiting).rejects.not.toThrow(/never-printed/);
      expect(Date.now() - started).toBeLessThan(5_000);
      // Requests meanwhile fail at once, as UNAVAILABLE.
      expect((await server.errors(READ, { id: 'any' }))[0].extensions.code).toBe('UNAVAILABLE');
    } finally {
      await server.stop();
    }
  });
});
