// The clean-up mutations of schema/cleanup.graphql end to end: bulk removals, updateLeaderboard
// and deletePlayer. Each answers its payload, leaves reads fresh (one server, with its read
// cache), tells live subscribers, refuses an oversize call with nothing removed, needs its role
// over HTTP and WebSocket alike, and says what became of a removal whose answer was lost.
import { MAX_BATCH_SIZE, MAX_REMOVALS_PER_CALL } from '../../src/domain/limits';
import { behindCutProxy } from '../support/cutProxy';
import { CREATE_BOARD, createBoard, submitAll, TEST_KEYS, TestServer, USER_ERRORS } from '../support/harness';
import { connect, type LiveConnection } from '../support/liveClient';
import { uniqueId } from '../support/redis';

let server: TestServer;
const connections: LiveConnection[] = [];
beforeAll(async () => {
  server = await TestServer.start();
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(() => server.stop());

const live = (key?: string) => {
  const connection = connect(server.graphqlUrl, key);
  connections.push(connection);
  return connection;
};

const REMOVE_BY_SCORE = `mutation ($input: RemoveEntriesByScoreInput!) { removeEntriesByScore(input: $input) { removedCount ${USER_ERRORS} } }`;
const KEEP_TOP = `mutation ($input: KeepTopEntriesInput!) { keepTopEntries(input: $input) { removedCount ${USER_ERRORS} } }`;
const REMOVE_ENTRIES = `mutation ($input: RemoveEntriesInput!) { removeEntries(input: $input) { removedCount ${USER_ERRORS} } }`;
const UPDATE = `mutation ($input: UpdateLeaderboardInput!) {
  updateLeaderboard(input: $input) { leaderboard { id title updatePolicy sortOrder } changed ${USER_ERRORS} }
}`;
const DELETE_PLAYER = `mutation ($id: ID!) { deletePlayer(id: $id) { deleted ${USER_ERRORS} } }`;
const BOARD = 'query ($id: ID!) { leaderboard(id: $id) { title updatePolicy totalCount entries(first: 10) { nodes { playerId rank } } } }';
const TOP = 'subscription ($board: ID!) { topChanged(leaderboardId: $board, first: 3) { entries { playerId rank score } } }';
const RANK = 'subscription ($board: ID!, $player: ID!) { rankChanged(leaderboardId: $board, playerId: $player) { entry { rank } previousRank cause } }';

/** a 50, b 40, c 30, d 20, e 10. */
const FIVE: [string, number][] = [['a', 50], ['b', 40], ['c', 30], ['d', 20], ['e', 10]];

async function boardOfFive(): Promise<string> {
  const id = uniqueId('cleanup');
  await createBoard(server, id);
  await submitAll(server, id, FIVE);
  return id;
}

const board = async (id: string) => (await server.data(BOARD, { id })).leaderboard;
const ids = async (id: string) => (await board(id)).entries.nodes.map((n: { playerId: string }) => n.playerId).join('');

/** Each bulk removal, as a call on `boardId` that removes `removes` from FIVE (b and c). */
const REMOVALS: { name: string; query: string; field: string; input: (boardId: string) => Record<string, unknown>; removes: string }[] = [
  {
    name: 'removeEntriesByScore', query: REMOVE_BY_SCORE, field: 'removeEntriesByScore', removes: 'bc',
    input: (leaderboardId) => ({ leaderboardId, min: { value: 30 }, max: { value: 50, exclusive: true } }),
  },
  {
    name: 'removeEntries', query: REMOVE_ENTRIES, field: 'removeEntries', removes: 'bc',
    input: (leaderboardId) => ({ leaderboardId, playerIds: ['b', 'c', 'nobody'] }),
  },
];

describe.each(REMOVALS)('$name', ({ query, field, input, removes }) => {
  it('removes the entries, says how many, and the next read (cached before) no longer has them', async () => {
    const id = await boardOfFive();
    expect(await ids(id)).toBe('abcde');
    const result = await server.data(query, { input: input(id) });
    expect(result[field]).toEqual({ removedCount: removes.length, userErrors: [] });
    expect(await ids(id)).toBe('ade');
    expect((await board(id)).totalCount).toBe(3);
  });

  it('tells topChanged and rankChanged subscribers', async () => {
    const id = await boardOfFive();
    const connection = live();
    const top = connection.subscribe(TOP, { board: id });
    const rank = connection.subscribe(RANK, { board: id, player: 'b' });
    expect((await top.nextData()).topChanged.entries.map((e: { playerId: string }) => e.playerId)).toEqual(['a', 'b', 'c']);
    expect((await rank.nextData()).rankChanged).toMatchObject({ entry: { rank: 2 }, cause: 'SNAPSHOT' });
    await server.data(query, { input: input(id) });
    const after = [{ playerId: 'a', rank: 1, score: 50 }, { playerId: 'd', rank: 2, score: 20 }, { playerId: 'e', rank: 3, score: 10 }];
    await top.until(({ topChanged }) => JSON.stringify(topChanged.entries) === JSON.stringify(after));
    expect((await rank.nextData()).rankChanged).toEqual({ entry: null, previousRank: 2, cause: 'REMOVED' });
  });
});

describe('keepTopEntries', () => {
  it('removes every entry below the first `count`, says how many, and reads (cached before) are fresh', async () => {
    const id = await boardOfFive();
    expect(await ids(id)).toBe('abcde');
    expect((await server.data(KEEP_TOP, { input: { leaderboardId: id, count: 2 } })).keepTopEntries).toEqual({ removedCount: 3, userErrors: [] });
    expect(await ids(id)).toBe('ab');
    expect((await server.data(KEEP_TOP, { input: { leaderboardId: id, count: 2 } })).keepTopEntries.removedCount).toBe(0);
  });

  it('tells topChanged and rankChanged subscribers', async () => {
    const id = await boardOfFive();
    const connection = live();
    const top = connection.subscribe(TOP, { board: id });
    const rank = connection.subscribe(RANK, { board: id, player: 'c' });
    await top.nextData();
    expect((await rank.nextData()).rankChanged).toMatchObject({ entry: { rank: 3 }, cause: 'SNAPSHOT' });
    await server.data(KEEP_TOP, { input: { leaderboardId: id, count: 1 } });
    await top.until(({ topChanged }) => topChanged.entries.length === 1 && topChanged.entries[0].playerId === 'a');
    expect((await rank.nextData()).rankChanged).toEqual({ entry: null, previousRank: 3, cause: 'REMOVED' });
  });

  it('refuses a negative count', async () => {
    const id = await boardOfFive();
    const [refused] = await server.userErrors(KEEP_TOP, { input: { leaderboardId: id, count: -1 } });
    expect(refused).toMatchObject({ code: 'BAD_USER_INPUT', field: ['input', 'count'] });
    expect(await ids(id)).toBe('abcde');
  });
});

describe('an oversize bulk removal', () => {
  const SIZE = MAX_REMOVALS_PER_CALL + 1;
  let big: string;
  beforeAll(async () => {
    big = uniqueId('cleanup-big');
    await createBoard(server, big);
    const players = Array.from({ length: SIZE }, (_, i) => ({ leaderboardId: big, playerId: `p${i}`, score: SIZE - i }));
    for (let at = 0; at < SIZE; at += MAX_BATCH_SIZE) {
      await server.data(`mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { ${USER_ERRORS} } }`, {
        inputs: players.slice(at, at + MAX_BATCH_SIZE),
      });
    }
  });

  it('is BAD_USER_INPUT for each mutation and removes nothing; callers repeat with a smaller one', async () => {
    const calls: [string, Record<string, unknown>, string[]][] = [
      [REMOVE_BY_SCORE, { leaderboardId: big }, ['input', 'min']],
      [REMOVE_BY_SCORE, { leaderboardId: big, min: { value: 1 }, max: { value: SIZE } }, ['input', 'min']],
      [KEEP_TOP, { leaderboardId: big, count: 0 }, ['input', 'count']],
      [REMOVE_ENTRIES, { leaderboardId: big, playerIds: Array.from({ length: SIZE }, (_, i) => `p${i}`) }, ['input', 'playerIds']],
    ];
    const before = await ids(big);
    for (const [query, input, field] of calls) {
      const [refused] = await server.userErrors(query, { input });
      expect(refused).toEqual({ code: 'BAD_USER_INPUT', field, message: expect.stringContaining(String(MAX_REMOVALS_PER_CALL)) });
      expect((await board(big)).totalCount).toBe(SIZE);
    }
    expect(await ids(big)).toBe(before);
    // Exactly the maximum goes in one call.
    const kept = await server.data(KEEP_TOP, { input: { leaderboardId: big, count: 1 } });
    expect(kept.keepTopEntries.removedCount).toBe(MAX_REMOVALS_PER_CALL);
    expect(await ids(big)).toBe('p0');
  });
});

describe('bulk removals and updateLeaderboard need the admin role', () => {
  const adminOnly = (id: string): [string, Record<string, unknown>][] => [
    [REMOVE_BY_SCORE, { input: { leaderboardId: id } }],
    [KEEP_TOP, { input: { leaderboardId: id, count: 0 } }],
    [REMOVE_ENTRIES, { input: { leaderboardId: id, playerIds: ['a'] } }],
    [UPDATE, { input: { id, title: 'renamed' } }],
  ];
  const FORBIDDEN = { code: 'FORBIDDEN', details: { requiredRole: 'admin' }, outcome: 'NOT_APPLIED' };

  it('refuses a reader and a writer over HTTP, and changes nothing', async () => {
    const id = await boardOfFive();
    for (const key of [TEST_KEYS.reader, TEST_KEYS.writer]) {
      for (const [query, variables] of adminOnly(id)) {
        const { body } = await server.post(query, variables, { key });
        expect(body.errors).toEqual([expect.objectContaining({ extensions: FORBIDDEN })]);
        expect(Object.values(body.data!)).toEqual([null]);
      }
    }
    expect(await board(id)).toMatchObject({ title: null, totalCount: 5 });
  });

  it('refuses a reader and a writer over WebSocket, and changes nothing', async () => {
    const id = await boardOfFive();
    for (const key of [TEST_KEYS.reader, TEST_KEYS.writer]) {
      const connection = live(key);
      for (const [query, variables] of adminOnly(id)) {
        const message = await connection.subscribe(query, variables).next();
        expect(message.errors).toEqual([expect.objectContaining({ extensions: FORBIDDEN })]);
      }
    }
    expect(await board(id)).toMatchObject({ title: null, totalCount: 5 });
  });

  it('lets the admin key through over WebSocket too', async () => {
    const id = await boardOfFive();
    const message = await live().subscribe(KEEP_TOP, { input: { leaderboardId: id, count: 4 } }).next();
    expect(message).toEqual({ data: { keepTopEntries: { removedCount: 1, userErrors: [] } } });
    expect(await ids(id)).toBe('abcd');
  });
});

describe('updateLeaderboard', () => {
  it('changes the title and update policy; reads (cached before) show them', async () => {
    const id = await boardOfFive();
    expect(await board(id)).toMatchObject({ title: null, updatePolicy: 'BEST' });
    const updated = await server.data(UPDATE, { input: { id, title: 'Spring cup', updatePolicy: 'LATEST' } });
    expect(updated.updateLeaderboard).toEqual({
      leaderboard: { id, title: 'Spring cup', updatePolicy: 'LATEST', sortOrder: 'DESCENDING' }, changed: true, userErrors: [],
    });
    expect(await board(id)).toMatchObject({ title: 'Spring cup', updatePolicy: 'LATEST', totalCount: 5 });
    // Settings given as they are change nothing; a left-out title stays, a null one goes.
    expect((await server.data(UPDATE, { input: { id, updatePolicy: 'LATEST', sortOrder: 'DESCENDING' } })).updateLeaderboard)
      .toMatchObject({ leaderboard: { title: 'Spring cup' }, changed: false });
    expect((await server.data(UPDATE, { input: { id, title: null } })).updateLeaderboard).toMatchObject({ leaderboard: { title: null }, changed: true });
    expect((await board(id)).title).toBeNull();
  });

  it('refuses, naming the field, a setting that cannot change, and changes nothing', async () => {
    const id = await boardOfFive();
    const cases: [Record<string, unknown>, string][] = [
      [{ sortOrder: 'ASCENDING' }, 'sortOrder'],
      [{ capacity: 10 }, 'capacity'],
      [{ denseRanks: false }, 'denseRanks'],
      [{ title: 'x'.repeat(201) }, 'title'],
    ];
    for (const [settings, field] of cases) {
      const { body } = await server.post(UPDATE, { input: { id, title: 'not applied', ...settings } });
      expect(body.data!.updateLeaderboard).toEqual({
        leaderboard: null, changed: false, userErrors: [{ code: 'BAD_USER_INPUT', field: ['input', field], message: expect.any(String) }],
      });
    }
    expect(await board(id)).toMatchObject({ title: null, totalCount: 5 });
    const [missing] = await server.userErrors(UPDATE, { input: { id: uniqueId('no-such-board'), title: 'x' } });
    expect(missing.code).toBe('NOT_FOUND');
  });
});

describe('deletePlayer', () => {
  const PLAYER = 'query ($id: ID!) { player(id: $id) { id displayName } }';
  const UPSERT = `mutation ($id: ID!) { upsertPlayer(input: { id: $id, displayName: "Ada" }) { ${USER_ERRORS} } }`;

  it('deletes the profile, after which player(id) is null', async () => {
    const id = uniqueId('profile');
    await server.data(UPSERT, { id });
    expect((await server.data(PLAYER, { id })).player).toEqual({ id, displayName: 'Ada' });
    expect((await server.data(DELETE_PLAYER, { id })).deletePlayer).toEqual({ deleted: true, userErrors: [] });
    expect((await server.data(PLAYER, { id })).player).toBeNull();
    expect((await server.data(DELETE_PLAYER, { id })).deletePlayer.deleted).toBe(false);
  });

  it('follows the rule of upsertPlayer: a writer may, a reader and a key limited to some boards may not', async () => {
    const id = uniqueId('profile');
    await server.data(UPSERT, { id });
    const [reader] = (await server.post(DELETE_PLAYER, { id }, { key: TEST_KEYS.reader })).body.errors!;
    expect(reader.extensions).toEqual({ code: 'FORBIDDEN', details: { requiredRole: 'writer' }, outcome: 'NOT_APPLIED' });
    const [prefixed] = (await server.post(DELETE_PLAYER, { id }, { key: TEST_KEYS.prefixedWriter })).body.errors!;
    expect(prefixed.extensions).toMatchObject({ code: 'FORBIDDEN', outcome: 'NOT_APPLIED' });
    const overWs = await live(TEST_KEYS.reader).subscribe(DELETE_PLAYER, { id }).next();
    expect(overWs.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    expect((await server.data(PLAYER, { id })).player).not.toBeNull();
    expect((await server.data(DELETE_PLAYER, { id }, { key: TEST_KEYS.writer })).deletePlayer.deleted).toBe(true);
    const [bad] = await server.userErrors(DELETE_PLAYER, { id: 'not an id' });
    expect(bad).toMatchObject({ code: 'BAD_USER_INPUT', field: ['id'] });
  });
});

describe('a bulk removal whose answer is lost with its connection', () => {
  const own = behindCutProxy();

  it.each([...REMOVALS.map(({ name, query, input }) => ({ name, query, input })), {
    name: 'keepTopEntries', query: KEEP_TOP, input: (leaderboardId: string) => ({ leaderboardId, count: 3 }),
  }])('answers $name UNAVAILABLE with outcome UNKNOWN, and it was applied once', async ({ query, input }) => {
    const { proxy, server: cut } = own;
    const id = uniqueId('cleanup-cut');
    await createBoard(cut, id);
    await submitAll(cut, id, FIVE);
    proxy.cutAfterNextCommand();
    const { body } = await cut.post(query, { input: input(id) });
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAVAILABLE', outcome: 'UNKNOWN' }) })]);
    expect((await cut.data(BOARD, { id })).leaderboard.totalCount).toBe(3);
  });
});

describe('on a board with periods', () => {
  const PERIODS = `query ($id: ID!, $yesterday: DateTime!) { leaderboard(id: $id) {
    totalCount a: entry(playerId: "a") { rank }
    today: period(of: { kind: DAILY }) { totalCount a: entry(playerId: "a") { rank } }
    yesterday: period(of: { kind: DAILY, at: $yesterday }) { totalCount a: entry(playerId: "a") { rank } }
  } }`;
  const SUBMIT = `mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { ${USER_ERRORS} } }`;

  /** a and b today and yesterday (imported), so in ALL_TIME, today's and yesterday's rankings. */
  async function boardOfTwoDays(): Promise<{ id: string; yesterday: string }> {
    const id = uniqueId('cleanup-periods');
    await server.data(CREATE_BOARD, {
      input: { id, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 3 }] } },
    });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    for (const [playerId, score] of [['a', 20], ['b', 10]] as const) {
      expect((await server.data(SUBMIT, { input: { leaderboardId: id, playerId, score, reachedAt: yesterday } })).submitScore.userErrors).toEqual([]);
      expect((await server.data(SUBMIT, { input: { leaderboardId: id, playerId, score } })).submitScore.userErrors).toEqual([]);
    }
    return { id, yesterday };
  }
  const periods = async ({ id, yesterday }: { id: string; yesterday: string }) => (await server.data(PERIODS, { id, yesterday })).leaderboard;

  it.each([
    ['removeEntry', 'mutation ($id: ID!) { removeEntry(leaderboardId: $id, playerId: "a") { removed userErrors { code } } }', { removed: true, userErrors: [] }],
    ['removeEntries', `mutation ($id: ID!) { removeEntries(input: { leaderboardId: $id, playerIds: ["a", "nobody"] }) { removedCount ${USER_ERRORS} } }`,
      { removedCount: 1, userErrors: [] }],
  ])('%s removes the player from every period the board keeps, past ones too', async (field, mutation, answer) => {
    const board = await boardOfTwoDays();
    expect(await periods(board)).toEqual({
      totalCount: 2, a: { rank: 1 }, today: { totalCount: 2, a: { rank: 1 } }, yesterday: { totalCount: 2, a: { rank: 1 } },
    });
    expect((await server.data(mutation, { id: board.id }))[field]).toEqual(answer);
    expect(await periods(board)).toEqual({ totalCount: 1, a: null, today: { totalCount: 1, a: null }, yesterday: { totalCount: 1, a: null } });
  });

  it('keepTopEntries and removeEntriesByScore act on the period asked for, and on the default period without one', async () => {
    const board = await boardOfTwoDays();
    const keepToday = await server.data(KEEP_TOP, { input: { leaderboardId: board.id, count: 1, period: { kind: 'DAILY' } } });
    expect(keepToday.keepTopEntries).toEqual({ removedCount: 1, userErrors: [] });
    const yesterdayOnly = { kind: 'DAILY', at: board.yesterday };
    const byScore = await server.data(REMOVE_BY_SCORE, { input: { leaderboardId: board.id, min: { value: 20 }, period: yesterdayOnly } });
    expect(byScore.removeEntriesByScore).toEqual({ removedCount: 1, userErrors: [] });
    expect(await periods(board)).toEqual({ totalCount: 2, a: { rank: 1 }, today: { totalCount: 1, a: { rank: 1 } }, yesterday: { totalCount: 1, a: null } });
    // Without a period: ALL_TIME, the board's default.
    expect((await server.data(KEEP_TOP, { input: { leaderboardId: board.id, count: 0 } })).keepTopEntries.removedCount).toBe(2);
    expect(await periods(board)).toEqual({ totalCount: 0, a: null, today: { totalCount: 1, a: { rank: 1 } }, yesterday: { totalCount: 1, a: null } });
  });

  it('refuses a period kind the board does not keep, and one no longer kept, removing nothing', async () => {
    const board = await boardOfTwoDays();
    const refused = async (query: string, input: Record<string, unknown>) => (await server.post(query, { input })).body.data;
    const notKept = await refused(KEEP_TOP, { leaderboardId: board.id, count: 0, period: { kind: 'WEEKLY' } });
    expect(notKept.keepTopEntries).toEqual({ removedCount: 0, userErrors: [expect.objectContaining({ code: 'BAD_USER_INPUT' })] });
    const gone = await refused(REMOVE_BY_SCORE, { leaderboardId: board.id, period: { kind: 'DAILY', key: '2020-01-01' } });
    expect(gone.removeEntriesByScore).toEqual({ removedCount: 0, userErrors: [expect.objectContaining({ code: 'NOT_FOUND' })] });
    const unknownBoard = await refused(KEEP_TOP, { leaderboardId: uniqueId('nowhere'), count: 0, period: { kind: 'DAILY' } });
    expect(unknownBoard.keepTopEntries).toEqual({ removedCount: 0, userErrors: [expect.objectContaining({ code: 'NOT_FOUND' })] });
    expect(await periods(board)).toEqual({
      totalCount: 2, a: { rank: 1 }, today: { totalCount: 2, a: { rank: 1 } }, yesterday: { totalCount: 2, a: { rank: 1 } },
    });
  });
});
