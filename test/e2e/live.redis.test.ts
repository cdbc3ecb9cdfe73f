// Subscriptions end to end: real graphql-ws clients on one server, writes through another, both
// sharing the test Redis (each with its own connections), as two instances behind a balancer.
import type Redis from 'ioredis';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../src/server/websocket';
import { boardKeys } from '../../src/store/keys';
import { newTestClient, uniqueId } from '../support/redis';
import { createBoard, submitAll, TestServer } from '../support/harness';
import { connect, type LiveConnection } from '../support/liveClient';

let writer: TestServer;
let reader: TestServer;
let redis: Redis;
const connections: LiveConnection[] = [];
beforeAll(async () => {
  // Without the read cache, whose board subscriptions would be counted with those of live updates
  // (test/redis/domain/readCache.redis.test.ts counts its own).
  [writer, reader] = await Promise.all([0, 1].map(() => TestServer.start(undefined, { cacheReads: false })));
  redis = newTestClient();
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(async () => {
  await Promise.all([writer.stop(), reader.stop(), redis.quit()]);
});

const live = (server = reader) => {
  const connection = connect(server.graphqlUrl);
  connections.push(connection);
  return connection;
};

const RANK_CHANGED = /* GraphQL */ `
  subscription ($board: ID!, $player: ID!) {
    rankChanged(leaderboardId: $board, playerId: $player) {
      entry { playerId rank sharedRank score player { id } }
      previousRank previousScore cause
    }
  }
`;
const TOP_CHANGED = /* GraphQL */ `
  subscription ($board: ID!, $first: Int) {
    topChanged(leaderboardId: $board, first: $first) { entries { playerId rank score } version }
  }
`;
const AROUND_CHANGED = /* GraphQL */ `
  subscription ($board: ID!, $player: ID!, $radius: Int) {
    aroundChanged(leaderboardId: $board, playerId: $player, radius: $radius) {
      center { playerId rank } entries { playerId rank score } totalCount
    }
  }
`;
const ENTRY_SUBMITTED = /* GraphQL */ `
  subscription ($board: ID!) {
    entrySubmitted(leaderboardId: $board) { entry { playerId score rank } previousScore previousRank }
  }
`;

const shardSubscribers = async (boardId: string) => {
  const channel = boardKeys(boardId).events;
  const [, count] = (await redis.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
  return count;
};

/** Polls Redis (not the code under test) until the count is reached: the unsubscribe is not acknowledged to anyone. */
async function expectShardSubscribers(boardId: string, count: number, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await shardSubscribers(boardId)) !== count) {
    if (Date.now() > deadline) throw new Error(`${boardId} has ${await shardSubscribers(boardId)} subscribers, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function boardWith(scores: [string, number][], policy: 'BEST' | 'LATEST' = 'BEST') {
  const id = uniqueId('live');
  await createBoard(writer, id, 'DESCENDING', policy);
  await submitAll(writer, id, scores);
  return id;
}

describe('rankChanged', () => {
  it('starts with a snapshot, then follows the player when overtaken by a write on another instance', async () => {
    const board = await boardWith([['a', 30], ['b', 20], ['c', 10]]);
    const sub = live().subscribe(RANK_CHANGED, { board, player: 'b' });
    expect(await sub.nextData()).toEqual({
      rankChanged: { entry: { playerId: 'b', rank: 2, sharedRank: 2, score: 20, player: { id: 'b' } }, previousRank: null, previousScore: null, cause: 'SNAPSHOT' },
    });

    await submitAll(writer, board, [['c', 40]]); // c overtakes b
    expect(await sub.nextData()).toEqual({
      rankChanged: { entry: expect.objectContaining({ rank: 3, score: 20 }), previousRank: 2, previousScore: 20, cause: 'RANK' },
    });
    await submitAll(writer, board, [['b', 50]]); // b's own write
    expect((await sub.nextData()).rankChanged).toMatchObject({ entry: { rank: 1, score: 50 }, previousRank: 3, previousScore: 20, cause: 'SCORE' });
  });

  it('sends nothing for changes that do not move the player, and follows removals', async () => {
    const board = await boardWith([['a', 30], ['b', 20], ['c', 10], ['d', 5]]);
    const sub = live().subscribe(RANK_CHANGED, { board, player: 'b' });
    await sub.nextData();
    await submitAll(writer, board, [['d', 15], ['a', 35]]); // below and above b, b stays 2nd
    await writer.data('mutation ($board: ID!) { removeEntry(leaderboardId: $board, playerId: "a") { removed } }', { board });
    expect((await sub.nextData()).rankChanged).toMatchObject({ entry: { rank: 1 }, previousRank: 2, cause: 'RANK' });
    await writer.data('mutation ($board: ID!) { removeEntry(leaderboardId: $board, playerId: "b") { removed } }', { board });
    expect((await sub.nextData()).rankChanged).toEqual({ entry: null, previousRank: 1, previousScore: 20, cause: 'REMOVED' });
    await submitAll(writer, board, [['b', 1]]);
    expect((await sub.nextData()).rankChanged).toMatchObject({ entry: { rank: 3, score: 1 }, previousRank: null, cause: 'SCORE' });
    expect(sub.unread).toBe(0);
  });

  it('reads nested fields afresh for every update (no loader outlives an event)', async () => {
    const board = await boardWith([['a', 10]]);
    const player = uniqueId('named');
    const name = (displayName: string) =>
      writer.data('mutation ($id: ID!, $name: String) { upsertPlayer(input: { id: $id, displayName: $name }) { player { id } } }', { id: player, name: displayName });
    await name('Before');
    await submitAll(writer, board, [[player, 5]]);
    const sub = live().subscribe(
      'subscription ($board: ID!, $player: ID!) { rankChanged(leaderboardId: $board, playerId: $player) { entry { rank player { displayName } } } }',
      { board, player },
    );
    expect((await sub.nextData()).rankChanged.entry).toEqual({ rank: 2, player: { displayName: 'Before' } });
    await name('After');
    await submitAll(writer, board, [[player, 20]]);
    expect((await sub.nextData()).rankChanged.entry).toEqual({ rank: 1, player: { displayName: 'After' } });
  });

  it('follows a shared rank that changes without a move (a tie left behind)', async () => {
    const board = await boardWith([['a', 20], ['b', 20], ['c', 10]]);
    const sub = live().subscribe(RANK_CHANGED, { board, player: 'b' });
    expect((await sub.nextData()).rankChanged.entry).toMatchObject({ rank: 2, sharedRank: 1 });
    await submitAll(writer, board, [['a', 25]]); // a stays first, b's shared rank drops to 2
    expect((await sub.nextData()).rankChanged).toMatchObject({ entry: { rank: 2, sharedRank: 2 }, previousRank: 2, cause: 'RANK' });
  });
});

describe('topChanged and aroundChanged', () => {
  it('sends the top N, then only changes that reach it', async () => {
    const board = await boardWith([['a', 30], ['b', 20], ['c', 10], ['d', 5]]);
    const sub = live().subscribe(TOP_CHANGED, { board, first: 2 });
    const snapshot = (await sub.nextData()).topChanged;
    expect(snapshot.entries).toEqual([{ playerId: 'a', rank: 1, score: 30 }, { playerId: 'b', rank: 2, score: 20 }]);

    await submitAll(writer, board, [['d', 7], ['c', 25]]); // d moves below the top; c enters it
    const update = (await sub.nextData()).topChanged;
    expect(update.entries.map((e: { playerId: string }) => e.playerId)).toEqual(['a', 'c']);
    expect(Number(update.version)).toBe(Number(snapshot.version) + 2);
    expect(sub.unread).toBe(0);
  });

  it('shares one Redis subscription per board and instance, and drops it with the last subscriber', async () => {
    const board = await boardWith([['a', 1]]);
    const first = live().subscribe(TOP_CHANGED, { board });
    const second = live().subscribe(RANK_CHANGED, { board, player: 'a' });
    const elsewhere = live(writer).subscribe(TOP_CHANGED, { board });
    await Promise.all([first.nextData(), second.nextData(), elsewhere.nextData()]);
    expect(await shardSubscribers(board)).toBe(2);

    first.stop();
    elsewhere.stop();
    await expectShardSubscribers(board, 1);
    second.stop();
    await expectShardSubscribers(board, 0);
  });

  it('sends the window around a player, at the edges too', async () => {
    const board = await boardWith([['a', 50], ['b', 40], ['c', 30], ['d', 20], ['e', 10]], 'LATEST');
    const sub = live().subscribe(AROUND_CHANGED, { board, player: 'd', radius: 1 });
    expect((await sub.nextData()).aroundChanged).toEqual({
      center: { playerId: 'd', rank: 4 },
      entries: [{ playerId: 'c', rank: 3, score: 30 }, { playerId: 'd', rank: 4, score: 20 }, { playerId: 'e', rank: 5, score: 10 }],
      totalCount: 5,
    });
    await submitAll(writer, board, [['f', 5]]); // a new last entry: d's window is not at the end, nothing moves in it
    await submitAll(writer, board, [['a', 25]]); // a drops from 1st to 3rd, into d's window
    const moved = (await sub.nextData()).aroundChanged;
    expect(moved.center).toEqual({ playerId: 'd', rank: 4 });
    expect(moved.entries.map((e: { playerId: string }) => e.playerId)).toEqual(['a', 'd', 'e']);
    expect(sub.unread).toBe(0);

    const absent = live().subscribe(AROUND_CHANGED, { board, player: 'nobody' });
    expect((await absent.nextData()).aroundChanged).toEqual({ center: null, entries: [], totalCount: 6 });
  });
});

describe('Node ids of live updates', () => {
  it('gives aroundChanged the id of around with the same arguments, and every topChanged update one id', async () => {
    const board = await boardWith([['a', 30], ['b', 20], ['c', 10]]);
    const { leaderboard } = await reader.data(
      'query ($board: ID!) { leaderboard(id: $board) { around(playerId: "b", radius: 1) { id } otherRadius: around(playerId: "b", radius: 2) { id } } }',
      { board },
    );
    const around = live().subscribe('subscription ($board: ID!) { aroundChanged(leaderboardId: $board, playerId: "b", radius: 1) { id } }', { board });
    expect((await around.nextData()).aroundChanged.id).toBe(leaderboard.around.id);
    expect(leaderboard.otherRadius.id).not.toBe(leaderboard.around.id);

    const top = live().subscribe('subscription ($board: ID!) { topChanged(leaderboardId: $board, first: 2) { id version } }', { board });
    const snapshot = (await top.nextData()).topChanged;
    await submitAll(writer, board, [['c', 40]]);
    const update = (await top.nextData()).topChanged;
    expect(update.id).toBe(snapshot.id);
    expect(Number(update.version)).toBeGreaterThan(Number(snapshot.version));
    const { node } = await reader.data('query ($id: ID!) { node(id: $id) { id ... on TopUpdate { entries { playerId } version } } }', { id: snapshot.id });
    expect(node).toEqual({ id: snapshot.id, entries: [{ playerId: 'c' }, { playerId: 'a' }], version: update.version });
  });
});

describe('entrySubmitted', () => {
  it('is a feed: nothing at first, then every accepted change and no unchanged write', async () => {
    const board = await boardWith([['a', 10]]);
    const connection = live();
    const feed = connection.subscribe(ENTRY_SUBMITTED, { board });
    // A state subscription on the same connection tells when the feed is surely subscribed too.
    await connection.subscribe(TOP_CHANGED, { board }).nextData();
    expect(feed.unread).toBe(0);

    await submitAll(writer, board, [['b', 20], ['a', 5], ['a', 12]]); // a: 5 is not better (BEST)
    expect((await feed.nextData()).entrySubmitted).toEqual({
      entry: { playerId: 'b', score: 20, rank: 1 }, previousScore: null, previousRank: null,
    });
    expect((await feed.nextData()).entrySubmitted).toMatchObject({ entry: { playerId: 'a', score: 12, rank: 2 }, previousScore: 10, previousRank: 2 });
  });
});

describe('coalescing', () => {
  it('sends at most one update per 100 ms, the last one showing the final state', async () => {
    const board = await boardWith([['p', 0]]);
    const sub = live().subscribe(TOP_CHANGED, { board, first: 1 });
    await sub.nextData();
    const writes = 30;
    const started = Date.now();
    // One after another, straight to the service: far more often than every 100 ms.
    for (let i = 1; i <= writes; i++) await writer.server.services.leaderboards.submit([{ boardId: board, playerId: 'p', score: i }]);
    await sub.until((data) => data.topChanged.entries[0].score === writes);
    const updates = sub.messages.length - 1;
    // The first change of a burst goes out at once, then one update per 100 ms at most.
    expect(updates).toBeLessThanOrEqual(Math.floor((Date.now() - started) / 100) + 1);
    expect(updates).toBeLessThan(writes);
    expect(sub.unread).toBe(0);
  });
});

describe('a deleted board', () => {
  it('sends an empty state to state subscriptions and ends every subscription', async () => {
    const board = await boardWith([['a', 10]]);
    const connection = live();
    const rank = connection.subscribe(RANK_CHANGED, { board, player: 'a' });
    const top = connection.subscribe(TOP_CHANGED, { board });
    const feed = connection.subscribe(ENTRY_SUBMITTED, { board });
    await Promise.all([rank.nextData(), top.nextData()]);

    await writer.data('mutation ($board: ID!) { deleteLeaderboard(id: $board) { deleted } }', { board });
    expect((await rank.nextData()).rankChanged).toEqual({ entry: null, previousRank: 1, previousScore: 10, cause: 'DELETED' });
    expect((await top.nextData()).topChanged).toEqual({ entries: [], version: '0' });
    await Promise.all([rank.completion(), top.completion(), feed.completion()]);
    await expectShardSubscribers(board, 0);
  });
});

describe('errors', () => {
  const codes = async (query: string, variables: Record<string, unknown>) => {
    const message = await live().subscribe(query, variables).next();
    return message.errors?.map((error) => error.extensions?.code);
  };

  it('answers with the same codes as HTTP', async () => {
    const board = await boardWith([['a', 1]]);
    expect(await codes(RANK_CHANGED, { board: uniqueId('missing'), player: 'a' })).toEqual(['NOT_FOUND']);
    expect(await codes(TOP_CHANGED, { board, first: 0 })).toEqual(['BAD_USER_INPUT']);
    expect(await codes(TOP_CHANGED, { board, first: 'ten' })).toEqual(['BAD_USER_INPUT']);
    expect(await codes(`subscription { topChanged(leaderboardId: "${board}", first: "ten") { version } }`, {})).toEqual(['BAD_USER_INPUT']);
    expect(await codes(RANK_CHANGED, { board, player: 'not valid!' })).toEqual(['BAD_USER_INPUT']);
    expect(await codes('subscription { topChanged(leaderboardId: "x") { nope } }', {})).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(await codes('subscription {', {})).toEqual(['GRAPHQL_PARSE_FAILED']);
    const two = `subscription A { topChanged(leaderboardId: "${board}") { version } } subscription B { topChanged(leaderboardId: "${board}") { version } }`;
    expect(await codes(two, {})).toEqual(['OPERATION_RESOLUTION_FAILURE']);
  });

  it('limits the subscriptions of one connection', async () => {
    const board = await boardWith([['a', 1]]);
    const connection = live();
    const held = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION }, () => connection.subscribe(TOP_CHANGED, { board }));
    await Promise.all(held.map((sub) => sub.nextData()));
    const over = await connection.subscribe(TOP_CHANGED, { board }).next();
    expect(over.errors?.[0].extensions).toEqual({ code: 'BAD_REQUEST', details: { limit: 'subscriptions', maximum: MAX_SUBSCRIPTIONS_PER_CONNECTION } });
    held[0].stop(); // the server reads the connection's messages in order: this one frees a place
    expect(await connection.subscribe(TOP_CHANGED, { board }).nextData()).toMatchObject({ topChanged: { version: expect.any(String) } });
  });

  it('closes a socket whose key is refused with 4403', async () => {
    const connection = connect(reader.graphqlUrl, 'not-a-key-of-this-server');
    connections.push(connection);
    const sub = connection.subscribe(TOP_CHANGED, { board: 'any' });
    await sub.ending();
    expect((sub.failure as { code: number }).code).toBe(4403);
  });
});
