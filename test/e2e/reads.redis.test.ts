import { uniqueId } from '../support/redis';
import { createBoard, submitAll, TestServer } from '../support/harness';

let server: TestServer;
let boardId: string;
/** p0 = 100, p1 = 90, ... p9 = 10 on a high-first board: pN has rank N + 1. */
const players = Array.from({ length: 10 }, (_, i) => `p${i}`);
const ids = (entries: { playerId: string }[]) => entries.map((entry) => entry.playerId);

beforeAll(async () => {
  server = await TestServer.start();
  boardId = uniqueId('reads');
  await createBoard(server, boardId);
  await submitAll(server, boardId, players.map((id, i) => [id, 100 - 10 * i]));
});
afterAll(() => server.stop());

/** Reads `fields` of the shared board; `declarations` declares the variables they use. */
const onBoard = async (fields: string, variables: Record<string, unknown> = {}, declarations = '') => {
  const query = `query ($id: ID!${declarations ? `, ${declarations}` : ''}) { leaderboard(id: $id) { ${fields} } }`;
  return (await server.data(query, { id: boardId, ...variables })).leaderboard;
};

describe('Leaderboard.entry', () => {
  it('resolves every Entry field', async () => {
    const { entry, totalCount } = await onBoard(`totalCount entry(playerId: "p3") {
      id playerId score rank sharedRank percentile reachedAt leaderboard { id totalCount } player { id displayName }
    }`);
    expect(totalCount).toBe(10);
    expect(entry).toMatchObject({
      playerId: 'p3', score: 70, rank: 4, sharedRank: 4, percentile: 70,
      leaderboard: { id: boardId, totalCount: 10 }, player: { id: 'p3', displayName: null },
    });
    expect(entry.id).toEqual(expect.any(String));
    expect(entry.reachedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Math.abs(Date.parse(entry.reachedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('is null for a player without a score', async () => {
    expect((await onBoard('entry(playerId: "nobody") { rank }')).entry).toBeNull();
  });
});

describe('Query.entries', () => {
  it('returns the players asked for, in that order, with null for absent ones', async () => {
    const { entries } = await server.data(`query ($id: ID!) {
      entries(leaderboardId: $id, playerIds: ["p9", "ghost", "p0", "p9"]) { playerId rank leaderboard { id } }
    }`, { id: boardId });
    expect(entries).toEqual([
      { playerId: 'p9', rank: 10, leaderboard: { id: boardId } },
      null,
      { playerId: 'p0', rank: 1, leaderboard: { id: boardId } },
      { playerId: 'p9', rank: 10, leaderboard: { id: boardId } },
    ]);
  });

  it('returns an empty list for no ids, and nulls on a board that does not exist', async () => {
    const data = await server.data(`{
      none: entries(leaderboardId: "${boardId}", playerIds: []) { rank }
      unknown: entries(leaderboardId: "${uniqueId('nope')}", playerIds: ["p1"]) { rank }
    }`);
    expect(data).toEqual({ none: [], unknown: [null] });
  });
});

describe('Leaderboard.entries', () => {
  const PAGE = `entries(first: $first, after: $after) {
    totalCount edges { cursor node { playerId rank } } nodes { playerId }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }`;

  it('pages through the whole board with cursors, never skipping or repeating an entry', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { entries } = await onBoard(PAGE, { first: 3, after }, '$first: Int, $after: String');
      pages++;
      expect(entries.totalCount).toBe(10);
      expect(ids(entries.nodes)).toEqual(entries.edges.map((edge: { node: { playerId: string } }) => edge.node.playerId));
      expect(entries.pageInfo.startCursor).toBe(entries.edges[0].cursor);
      expect(entries.pageInfo.endCursor).toBe(entries.edges.at(-1).cursor);
      expect(entries.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...ids(entries.nodes));
      if (!entries.pageInfo.hasNextPage) break;
      after = entries.pageInfo.endCursor;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(players);
  });

  it('continues right after the cursor entry even when entries above it moved', async () => {
    const moving = uniqueId('moving');
    await createBoard(server, moving, 'DESCENDING', 'LATEST');
    await submitAll(server, moving, players.map((id, i) => [id, 100 - 10 * i]));
    const PAGE_OF = `query ($id: ID!, $after: String) {
      leaderboard(id: $id) { entries(first: 3, after: $after) { nodes { playerId rank } pageInfo { endCursor } } }
    }`;
    const first = (await server.data(PAGE_OF, { id: moving })).leaderboard.entries;
    expect(ids(first.nodes)).toEqual(['p0', 'p1', 'p2']);

    await submitAll(server, moving, [['p8', 1000], ['p1', 0]]); // one jumps to the top, one drops out of page 1
    const second = (await server.data(PAGE_OF, { id: moving, after: first.pageInfo.endCursor })).leaderboard.entries;
    expect(second.nodes).toEqual([
      { playerId: 'p3', rank: 4 }, { playerId: 'p4', rank: 5 }, { playerId: 'p5', rank: 6 },
    ]);
  });

  it('jumps with offset, reads the bottom with last, and defaults to 10 entries', async () => {
    const { byOffset, bottom, bottomOffset, all } = await onBoard(`
      byOffset: entries(first: 3, offset: 3) { nodes { playerId rank } pageInfo { hasPreviousPage hasNextPage } }
      bottom: entries(last: 3) { nodes { playerId rank } pageInfo { hasPreviousPage hasNextPage startCursor } }
      bottomOffset: entries(last: 2, offset: 1) { nodes { playerId } }
      all: entries { nodes { playerId } pageInfo { hasNextPage } }
    `);
    expect(byOffset.nodes).toEqual([{ playerId: 'p3', rank: 4 }, { playerId: 'p4', rank: 5 }, { playerId: 'p5', rank: 6 }]);
    expect(byOffset.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: true });
    // Top-down within the page, as every page is (Cursor Connections specification).
    expect(bottom.nodes).toEqual([{ playerId: 'p7', rank: 8 }, { playerId: 'p8', rank: 9 }, { playerId: 'p9', rank: 10 }]);
    expect(bottom.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    expect(ids(bottomOffset.nodes)).toEqual(['p7', 'p8']);
    expect(ids(all.nodes)).toEqual(players);
    expect(all.pageInfo.hasNextPage).toBe(false);
  });

  it('pages backward with last and before up to the top', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    for (;;) {
      const { entries } = await onBoard(
        'entries(last: 4, before: $before) { nodes { playerId } pageInfo { hasPreviousPage hasNextPage startCursor } }',
        { before }, '$before: String',
      );
      expect(entries.pageInfo.hasNextPage).toBe(before !== null);
      seen.unshift(...ids(entries.nodes));
      if (!entries.pageInfo.hasPreviousPage) break;
      before = entries.pageInfo.startCursor;
    }
    expect(seen).toEqual(players);
  });

  it('nulls only the connection for a bad cursor or page size, with an error naming the argument', async () => {
    const { body } = await server.post(`query ($id: ID!) {
      leaderboard(id: $id) {
        id
        badCursor: entries(after: "not-a-cursor") { totalCount }
        badBefore: entries(last: 2, before: "not-a-cursor") { totalCount }
        tooMany: entries(first: 1001) { totalCount }
        both: entries(first: 1, last: 1) { totalCount }
        mixed: entries(last: 1, after: "x") { totalCount }
        ok: entries(first: 1) { nodes { playerId } }
        topPercent(percent: 0) { playerId }
        aroundScore(score: 1, radius: -1) { totalCount }
      }
    }`, { id: boardId });
    expect(body.data).toEqual({
      leaderboard: {
        id: boardId, badCursor: null, badBefore: null, tooMany: null, both: null, mixed: null,
        ok: { nodes: [{ playerId: 'p0' }] }, topPercent: null, aroundScore: null,
      },
    });
    const fieldOf = (alias: string) => body.errors!.find((error) => error.path!.at(-1) === alias)?.extensions;
    expect(fieldOf('badCursor')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'after' } });
    expect(fieldOf('badBefore')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'before' } });
    expect(fieldOf('tooMany')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'first' } });
    expect(fieldOf('both')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'last' } });
    expect(fieldOf('mixed')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'after' } });
    expect(fieldOf('topPercent')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'percent' } });
    expect(fieldOf('aroundScore')).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'radius' } });
    expect(body.errors).toHaveLength(7);
  });
});

describe('Leaderboard.around / aroundScore / topPercent', () => {
  it('centres a window on a player, filled out from the other side at the edges', async () => {
    const { middle, edge, absent } = await onBoard(`
      middle: around(playerId: "p5", radius: 1) { center { playerId } entries { playerId rank } totalCount }
      edge: around(playerId: "p0", radius: 2) { center { playerId rank } entries { playerId } totalCount }
      absent: around(playerId: "nobody") { totalCount }
    `);
    expect(middle).toEqual({
      center: { playerId: 'p5' },
      entries: [{ playerId: 'p4', rank: 5 }, { playerId: 'p5', rank: 6 }, { playerId: 'p6', rank: 7 }],
      totalCount: 10,
    });
    expect(edge).toEqual({
      center: { playerId: 'p0', rank: 1 },
      entries: ['p0', 'p1', 'p2', 'p3', 'p4'].map((playerId) => ({ playerId })),
      totalCount: 10,
    });
    expect(absent).toBeNull();
  });

  it('shows where a score would rank, after existing equal scores', async () => {
    const { between, equal, defaults } = await onBoard(`
      between: aroundScore(score: 75, radius: 2) { center { playerId } entries { playerId } totalCount }
      equal: aroundScore(score: 70, radius: 1) { entries { playerId } }
      defaults: aroundScore(score: 1000) { entries { playerId } }
    `);
    expect(between).toEqual({ center: null, entries: ['p1', 'p2', 'p3', 'p4'].map((playerId) => ({ playerId })), totalCount: 10 });
    expect(ids(equal.entries)).toEqual(['p3', 'p4']);
    expect(ids(defaults.entries)).toEqual(players); // radius 5 by default, filled out below the top
  });

  it('returns the top percent, at most `limit` of them', async () => {
    const { thirty, quarter, limited, everyone } = await onBoard(`
      thirty: topPercent(percent: 30) { playerId rank }
      quarter: topPercent(percent: 25) { playerId }
      limited: topPercent(percent: 50, limit: 2) { playerId }
      everyone: topPercent(percent: 100) { playerId }
    `);
    expect(thirty).toEqual([{ playerId: 'p0', rank: 1 }, { playerId: 'p1', rank: 2 }, { playerId: 'p2', rank: 3 }]);
    expect(ids(quarter)).toEqual(['p0', 'p1', 'p2']); // ceil(2.5)
    expect(ids(limited)).toEqual(['p0', 'p1']);
    expect(ids(everyone)).toEqual(players);
  });
});

describe('Node ids: node / nodes', () => {
  it('reads every Node again by its id, and answers null for ids that name nothing', async () => {
    const { entry, around, aroundScore } = await onBoard(`
      entry(playerId: "p3") { id }
      around(playerId: "p3", radius: 1) { id }
      aroundScore(score: 75, radius: 1) { id }
    `);
    const NODES = `query ($ids: [ID!]!) {
      nodes(ids: $ids) {
        __typename id
        ... on Entry { playerId rank leaderboard { id } }
        ... on RankWindow { center { playerId } entries { playerId } totalCount }
        ... on TopUpdate { entries { playerId } version }
      }
    }`;
    const other = uniqueId('other');
    await createBoard(server, other);
    await submitAll(server, other, [['p3', 1]]);
    const otherEntry = (await server.data(`{ leaderboard(id: "${other}") { entry(playerId: "p3") { id } } }`)).leaderboard.entry;
    // Not ours, another spelling of one of ours (padded), or a type with parts missing.
    const garbled = ['', 'nonsense', Buffer.from('Entry only-two').toString('base64url'), `${entry.id}=`];
    const { nodes } = await server.data(NODES, { ids: [entry.id, around.id, aroundScore.id, otherEntry.id, ...garbled] });
    expect(nodes).toEqual([
      { __typename: 'Entry', id: entry.id, playerId: 'p3', rank: 4, leaderboard: { id: boardId } },
      { __typename: 'RankWindow', id: around.id, center: { playerId: 'p3' }, entries: [{ playerId: 'p2' }, { playerId: 'p3' }, { playerId: 'p4' }], totalCount: 10 },
      { __typename: 'RankWindow', id: aroundScore.id, center: null, entries: [{ playerId: 'p2' }, { playerId: 'p3' }], totalCount: 10 },
      { __typename: 'Entry', id: otherEntry.id, playerId: 'p3', rank: 1, leaderboard: { id: other } },
      null, null, null, null,
    ]);
    expect(otherEntry.id).not.toBe(entry.id); // the same player on two boards: two entries
  });

  it('keeps an entry id whatever its score, and is null once the entry or board is gone', async () => {
    const board = uniqueId('node-ids');
    await createBoard(server, board, 'DESCENDING', 'LATEST');
    await submitAll(server, board, [['a', 1]]);
    const ENTRY = `{ leaderboard(id: "${board}") { entry(playerId: "a") { id score } } }`;
    const before = (await server.data(ENTRY)).leaderboard.entry;
    await submitAll(server, board, [['a', 50]]);
    const after = (await server.data(ENTRY)).leaderboard.entry;
    expect(after).toEqual({ id: before.id, score: 50 });
    const NODE = 'query ($id: ID!) { node(id: $id) { id ... on Entry { score } } }';
    expect((await server.data(NODE, { id: before.id })).node).toEqual({ id: before.id, score: 50 });
    await server.data(`mutation { removeEntry(leaderboardId: "${board}", playerId: "a") { removed } }`);
    expect((await server.data(NODE, { id: before.id })).node).toBeNull();
  });
});
