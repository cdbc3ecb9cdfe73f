// Who may do what: API keys and roles, board prefixes, anonymous reads, over HTTP and WebSocket.
import { once } from 'node:events';
import WebSocket from 'ws';
import { uniqueId } from '../support/redis';
import { createBoard, CREATE_BOARD, SUBMIT, TEST_KEYS, TestServer } from '../support/harness';
import { connect } from '../support/liveClient';

let server: TestServer;
let open: TestServer;
const boardId = uniqueId('access');
const tenantBoard = uniqueId('tenant-a.board');
beforeAll(async () => {
  [server, open] = await Promise.all([TestServer.start(), TestServer.start(undefined, { anonymousReads: true })]);
  await createBoard(server, boardId);
  await createBoard(server, tenantBoard);
});
afterAll(() => Promise.all([server.stop(), open.stop()]));

const READ = `{ leaderboard(id: "${boardId}") { id totalCount } }`;
const submit = (leaderboardId: string, playerId = 'p', score = 1) => ({ input: { leaderboardId, playerId, score } });
const size = async () => (await server.data(READ)).leaderboard.totalCount as number;

describe('over HTTP', () => {
  it.each([
    ['no key', null, /API key is required/],
    ['an unknown key', 'not-a-configured-key-0000', /Unknown API key/],
  ])('refuses a request with %s as a whole: 401, UNAUTHENTICATED, nothing runs', async (_case, key, message) => {
    const before = await size();
    for (const [query, variables] of [[READ], [SUBMIT, submit(boardId)]] as const) {
      const { status, body, headers } = await server.post(query, variables, { key });
      expect(status).toBe(401);
      expect(headers.get('www-authenticate')).toBe('Bearer');
      expect(body.data).toBeUndefined();
      expect(body.errors).toEqual([{ message: expect.stringMatching(message), extensions: { code: 'UNAUTHENTICATED', details: {} } }]);
    }
    expect(await size()).toBe(before);
  });

  it('refuses an Authorization header that is not a bearer key', async () => {
    for (const value of [`Basic ${TEST_KEYS.admin}`, 'Bearer', `Bearer ${TEST_KEYS.admin} extra`]) {
      const { status, body } = await server.post(READ, undefined, { key: null, headers: { authorization: value } });
      expect([status, body.errors?.[0].extensions.code]).toEqual([401, 'UNAUTHENTICATED']);
    }
    // The scheme is case-insensitive (RFC 9110).
    const { body } = await server.post(READ, undefined, { key: null, headers: { authorization: `bearer ${TEST_KEYS.reader}` } });
    expect(body.data.leaderboard.id).toBe(boardId);
  });

  it('lets a reader read, and nothing else', async () => {
    const reader = { key: TEST_KEYS.reader };
    expect((await server.data(READ, undefined, reader)).leaderboard.id).toBe(boardId);
    const before = await size();
    const writes: [string, Record<string, unknown>, string][] = [
      [SUBMIT, submit(boardId), 'writer'],
      [`mutation { removeEntry(leaderboardId: "${boardId}", playerId: "p") { removed } }`, {}, 'writer'],
      ['mutation { upsertPlayer(input: { id: "p" }) { player { id } } }', {}, 'writer'],
      [CREATE_BOARD, { input: { id: uniqueId('reader-board'), sortOrder: 'DESCENDING', updatePolicy: 'BEST' } }, 'admin'],
      [`mutation { deleteLeaderboard(id: "${boardId}") { deleted } }`, {}, 'admin'],
    ];
    for (const [query, variables, role] of writes) {
      const { status, body } = await server.post(query, variables, reader);
      expect(status).toBe(200);
      expect(body.errors).toEqual([
        expect.objectContaining({ extensions: { code: 'FORBIDDEN', details: { requiredRole: role }, outcome: 'NOT_APPLIED' } }),
      ]);
    }
    expect(await size()).toBe(before);
  });

  it('lets a writer read and write scores and profiles, but not create or delete boards', async () => {
    const writer = { key: TEST_KEYS.writer };
    const player = uniqueId('w');
    expect((await server.data(SUBMIT, submit(boardId, player, 5), writer)).submitScore.entry.playerId).toBe(player);
    expect((await server.data('mutation ($id: ID!) { upsertPlayer(input: { id: $id }) { player { id } } }', { id: player }, writer)).upsertPlayer.player.id).toBe(player);
    expect((await server.data(`mutation { removeEntry(leaderboardId: "${boardId}", playerId: "${player}") { removed } }`, {}, writer)).removeEntry.removed).toBe(true);
    expect((await server.data(READ, undefined, writer)).leaderboard.id).toBe(boardId);

    const [created] = await server.errors(CREATE_BOARD, { input: { id: uniqueId('w-board'), sortOrder: 'DESCENDING', updatePolicy: 'BEST' } }, writer);
    const [deleted] = await server.errors(`mutation { deleteLeaderboard(id: "${boardId}") { deleted } }`, {}, writer);
    expect([created.extensions.code, deleted.extensions.code]).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect((await server.data(READ)).leaderboard).not.toBeNull();
  });

  it('lets an admin do everything', async () => {
    const id = uniqueId('admin-board');
    await createBoard(server, id);
    expect((await server.data(SUBMIT, submit(id))).submitScore.entry.rank).toBe(1);
    expect((await server.data(`mutation { deleteLeaderboard(id: "${id}") { deleted } }`)).deleteLeaderboard.deleted).toBe(true);
  });

  it('keeps a key with a board prefix to the boards it names', async () => {
    const tenant = { key: TEST_KEYS.prefixedWriter };
    expect((await server.data(SUBMIT, submit(tenantBoard, 'p', 3), tenant)).submitScore.entry.score).toBe(3);

    const before = await size();
    const [outside] = await server.errors(SUBMIT, submit(boardId), tenant);
    expect(outside.extensions).toEqual({ code: 'FORBIDDEN', details: { leaderboardId: boardId }, outcome: 'NOT_APPLIED' });
    // A batch is refused whole when any item is outside, naming the item.
    const [mixed] = await server.errors(
      'mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { results { changed } } }',
      { inputs: [submit(tenantBoard, 'q', 9).input, submit(boardId, 'q', 9).input] },
      tenant,
    );
    expect(mixed.extensions).toEqual({ code: 'FORBIDDEN', details: { leaderboardId: boardId, index: 1 }, outcome: 'NOT_APPLIED' });
    expect(await size()).toBe(before);
    expect((await server.data(`{ leaderboard(id: "${tenantBoard}") { entry(playerId: "q") { score } } }`)).leaderboard.entry).toBeNull();
    // Reads are not limited to the prefix.
    expect((await server.data(READ, undefined, tenant)).leaderboard.id).toBe(boardId);
  });

  it('keeps profiles, which every board shows, from keys limited to some boards', async () => {
    const UPSERT = 'mutation ($id: ID!, $name: String) { upsertPlayer(input: { id: $id, displayName: $name }) { player { displayName } } }';
    const PROFILE = 'query ($id: ID!) { player(id: $id) { displayName } }';
    const player = uniqueId('shared');
    expect((await server.data(UPSERT, { id: player, name: 'Own name' }, { key: TEST_KEYS.writer })).upsertPlayer.player.displayName).toBe('Own name');

    const [refused] = await server.errors(UPSERT, { id: player, name: 'Taken over' }, { key: TEST_KEYS.prefixedWriter });
    expect(refused.message).toMatch(/shared by every board: only writer keys without a board prefix, and admin keys/);
    expect(refused.extensions).toMatchObject({ code: 'FORBIDDEN', details: { boardPrefix: 'tenant-a.' } });
    expect((await server.data(PROFILE, { id: player })).player.displayName).toBe('Own name');

    expect((await server.data(UPSERT, { id: player, name: 'By an admin' })).upsertPlayer.player.displayName).toBe('By an admin');
  });

  it('with anonymous reads on, reads without a key but still refuses writes and unknown keys', async () => {
    expect((await open.data(READ, undefined, { key: null })).leaderboard.id).toBe(boardId);
    const [write] = await open.errors(SUBMIT, submit(boardId), { key: null });
    expect(write.extensions).toEqual({ code: 'FORBIDDEN', details: { requiredRole: 'writer' }, outcome: 'NOT_APPLIED' });
    expect((await open.post(READ, undefined, { key: 'not-a-configured-key-0000' })).status).toBe(401);
  });
});

/** Opens a graphql-ws connection with these connectionParams; resolves with the close code, or 'open' once acknowledged. */
async function handshake(
  url: string, payload: Record<string, unknown> | undefined, headers: Record<string, string> = {},
): Promise<number | 'open'> {
  return (await handshakeWithReason(url, payload, headers)).outcome;
}

async function handshakeWithReason(
  url: string, payload: Record<string, unknown> | undefined, headers: Record<string, string> = {},
): Promise<{ outcome: number | 'open'; reason?: string }> {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload }));
  const outcome = await Promise.race([
    once(socket, 'close').then(([code, reason]) => ({ outcome: code as number, reason: String(reason) })),
    once(socket, 'message').then(([data]) => ({ outcome: JSON.parse(String(data)).type === 'connection_ack' ? ('open' as const) : -1 })),
  ]);
  socket.close();
  return outcome;
}

describe('over WebSocket', () => {
  it('closes the socket with 4403 Forbidden for no key or an unknown key', async () => {
    expect(await handshake(server.graphqlUrl, undefined)).toBe(4403);
    expect(await handshake(server.graphqlUrl, { authorization: 'Bearer not-a-configured-key-0000' })).toBe(4403);
    expect(await handshake(server.graphqlUrl, { authorization: TEST_KEYS.reader })).toBe(4403); // no scheme
    expect(await handshake(open.graphqlUrl, { authorization: 'Bearer not-a-configured-key-0000' })).toBe(4403);
  });

  it('says in the close reason why, with the code HTTP would give', async () => {
    expect(await handshakeWithReason(server.graphqlUrl, undefined)).toEqual({
      outcome: 4403, reason: expect.stringMatching(/^UNAUTHENTICATED: An API key is required/),
    });
    expect(await handshakeWithReason(server.graphqlUrl, { authorization: 'Bearer not-a-configured-key-0000' }))
      .toEqual({ outcome: 4403, reason: 'UNAUTHENTICATED: Unknown API key' });
  });

  it('finds the key wherever clients put it', async () => {
    const bearer = `Bearer ${TEST_KEYS.reader}`;
    expect(await handshake(server.graphqlUrl, { Authorization: bearer })).toBe('open');
    expect(await handshake(server.graphqlUrl, { headers: { Authorization: bearer } })).toBe('open');
    expect(await handshake(server.graphqlUrl, { headers: { authorization: bearer } })).toBe('open');
    expect(await handshake(server.graphqlUrl, undefined, { authorization: bearer })).toBe('open');
    // A wrong key is refused wherever it is, also where anonymous reads would let no key in.
    expect(await handshake(open.graphqlUrl, { headers: { Authorization: 'Bearer not-a-configured-key-0000' } })).toBe(4403);
    expect(await handshake(open.graphqlUrl, undefined, { authorization: 'Bearer not-a-configured-key-0000' })).toBe(4403);
  });

  it('admits a reader key, and no key at all where anonymous reads are on', async () => {
    expect(await handshake(server.graphqlUrl, { authorization: `Bearer ${TEST_KEYS.reader}` })).toBe('open');
    expect(await handshake(open.graphqlUrl, undefined)).toBe('open');

    const live = connect(server.graphqlUrl, TEST_KEYS.reader);
    try {
      const top = live.subscribe(`subscription { topChanged(leaderboardId: "${boardId}", first: 3) { version } }`);
      expect((await top.nextData()).topChanged.version).toEqual(expect.any(String));
    } finally {
      await live.close();
    }
  });
});
