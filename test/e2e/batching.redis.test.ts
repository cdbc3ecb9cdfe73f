// Counts the commands Redis receives for one request, on a Redis of this test's own (MONITOR
// would see every other test's traffic on the shared one).
import Redis from 'ioredis';
import type { ManagedRedis } from '../../src/dev/managedRedis';
import { boardKeys, PLAYER_PROFILES_KEY } from '../../src/store/keys';
import { startDedicatedRedis } from '../support/redis';
import { createBoard, type GraphQLResponse, TestServer } from '../support/harness';

let redis: ManagedRedis;
let admin: Redis;
let server: TestServer;
const BOARD = 'batching';
const OTHER = 'batching-other';
const players = Array.from({ length: 100 }, (_, i) => `player-${i}`);

beforeAll(async () => {
  redis = await startDedicatedRedis();
  admin = new Redis(redis.url);
  server = await TestServer.start(redis.url);
  for (const id of [BOARD, OTHER]) {
    await createBoard(server, id);
    await server.data(`mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { results { changed } } }`, {
      inputs: players.map((playerId, i) => ({ leaderboardId: id, playerId, score: i })),
    });
  }
  for (const playerId of players.slice(0, 50)) {
    await server.data('mutation ($id: ID!) { upsertPlayer(input: { id: $id, displayName: "named" }) { player { id } } }', { id: playerId });
  }
});
afterAll(async () => {
  await server?.stop();
  admin?.disconnect();
  await redis?.stop();
});

/**
 * The commands clients sent while `action` ran, as "name key" (commands run inside scripts are
 * left out: they are not round trips). A marker command sent afterwards tells when MONITOR has
 * reported everything before it.
 */
async function commandsDuring(action: () => Promise<unknown>, onCommand?: (args: string[]) => void): Promise<string[]> {
  const monitor = await admin.monitor();
  const marker = `marker-${process.hrtime.bigint()}`;
  const commands: string[] = [];
  const seenAll = new Promise<void>((resolve) => {
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (args[0].toLowerCase() === 'echo' && args[1] === marker) return resolve();
      if (source === 'lua') return;
      commands.push(`${args[0].toLowerCase()} ${args[0].toLowerCase() === 'evalsha' ? args[3] : args[1]}`);
      onCommand?.(args);
    });
  });
  try {
    await action();
    await admin.echo(marker);
    await seenAll;
  } finally {
    monitor.disconnect();
  }
  return commands;
}

// Every board script names the board's config key first.
const cfg = (id: string) => boardKeys(id).config;

async function warmUp() {
  // Scripts are loaded (EVAL after NOSCRIPT) on first use, and a board's settings are kept in
  // memory (src/domain/readCache.ts) once the first read that found it has subscribed to its
  // events; count only the steady state, reached when a read no longer asks Redis for them.
  const deadline = Date.now() + 5_000;
  for (const id of [BOARD, OTHER]) {
    const read = () => server.data(`{ leaderboard(id: "${id}") { entry(playerId: "player-1") { rank } entries(first: 1) { totalCount } } }`);
    while ((await commandsDuring(read)).includes(`hmget ${cfg(id)}`)) {
      if (Date.now() > deadline) throw new Error(`the settings of ${id} are still read from Redis`);
    }
  }
}

describe('one Redis round trip per board for entry lookups', () => {
  beforeAll(warmUp);

  it('50 aliased entry fields (some for absent players) make one entries call', async () => {
    const fields = Array.from({ length: 50 }, (_, i) => `e${i}: entry(playerId: "${i % 10 === 0 ? `ghost-${i}` : players[i]}") { rank score }`);
    let data: { leaderboard: Record<string, { rank: number } | null> } | undefined;
    const commands = await commandsDuring(async () => {
      data = await server.data(`{ leaderboard(id: "${BOARD}") { ${fields.join('\n')} } }`);
    });
    expect(commands).toEqual([`evalsha ${cfg(BOARD)}`]);
    expect(data!.leaderboard.e0).toBeNull();
    expect(data!.leaderboard.e1).toEqual({ rank: 99, score: 1 });
  });

  it('100 ids in Query.entries make one call', async () => {
    let entries: unknown[] = [];
    const commands = await commandsDuring(async () => {
      ({ entries } = await server.data(`query ($ids: [ID!]!) { entries(leaderboardId: "${BOARD}", playerIds: $ids) { rank } }`, {
        ids: players,
      }));
    });
    expect(commands).toEqual([`evalsha ${cfg(BOARD)}`]);
    expect(entries).toHaveLength(100);
    expect(entries[0]).toEqual({ rank: 100 });
  });

  it('lookups from every part of a query join one call per board, and their profiles one more', async () => {
    const commands = await commandsDuring(() =>
      server.data(`{
        entries(leaderboardId: "${BOARD}", playerIds: ["player-1", "player-2", "player-3"]) { rank player { displayName } }
        more: entries(leaderboardId: "${BOARD}", playerIds: ["player-3", "player-4"]) { rank }
        a: leaderboard(id: "${BOARD}") { x: entry(playerId: "player-5") { rank } y: entry(playerId: "player-6") { rank } }
        b: leaderboard(id: "${BOARD}") { z: entry(playerId: "player-7") { rank player { displayName } } }
        other: leaderboard(id: "${OTHER}") { entry(playerId: "player-1") { rank } }
      }`),
    );
    expect([...commands].sort()).toEqual([
      `evalsha ${cfg(BOARD)}`,
      `evalsha ${cfg(OTHER)}`,
      `hmget ${PLAYER_PROFILES_KEY}`,
    ].sort());
  });

  it('a page of 100 entries with profiles costs one round trip for the profiles', async () => {
    let nodes: { player: { id: string; displayName: string | null } }[] = [];
    const commands = await commandsDuring(async () => {
      ({ leaderboard: { entries: { nodes } } } = await server.data(
        `{ leaderboard(id: "${BOARD}") { entries(first: 100) { nodes { player { id displayName } } } } }`,
      ));
    });
    expect(commands).toEqual([`evalsha ${cfg(BOARD)}`, `hmget ${PLAYER_PROFILES_KEY}`]);
    expect(nodes).toHaveLength(100);
    expect(nodes.find((node) => node.player.id === 'player-7')?.player.displayName).toBe('named');
    expect(nodes.find((node) => node.player.id === 'player-77')?.player.displayName).toBeNull();
  });

  it('lookups under a board read from Redis wait for it and join the lookups of the same board elsewhere in the query', async () => {
    const cold = `batching-cold-${process.hrtime.bigint()}`;
    await createBoard(server, cold);
    await server.data('mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { results { changed } } }', {
      inputs: [{ leaderboardId: cold, playerId: 'player-1', score: 5 }, { leaderboardId: cold, playerId: 'player-3', score: 4 }],
    });
    let data: Record<string, unknown> | undefined;
    const commands = await commandsDuring(async () => {
      data = await server.data(`{
        known: leaderboard(id: "${BOARD}") { entry(playerId: "player-2") { rank } }
        cold: leaderboard(id: "${cold}") { entry(playerId: "player-1") { rank } }
        entries(leaderboardId: "${cold}", playerIds: ["player-3", "player-4"]) { score }
      }`);
    });
    // The cold board's settings are read once; then one entries call per board. (The read cache
    // starts following the cold board on its own connection, not as part of the request.)
    expect(commands.filter((command) => !command.startsWith('ssubscribe ')).sort()).toEqual([`evalsha ${cfg(BOARD)}`, `evalsha ${cfg(cold)}`, `hmget ${cfg(cold)}`].sort());
    expect(data).toEqual({ known: { entry: { rank: 98 } }, cold: { entry: { rank: 1 } }, entries: [{ score: 4 }, null] });
  });

  it('a batch reads each player once however many lookups name them, and a malformed id fails only its own field', async () => {
    // entries.lua's keys are the config, the ranking and one bucket per player.
    const playersRead: number[] = [];
    let body: GraphQLResponse = {};
    const commands = await commandsDuring(async () => {
      ({ body } = await server.post(`{
        entries(leaderboardId: "${BOARD}", playerIds: ["player-1", "player-2", "player-1"]) { rank }
        bad: entries(leaderboardId: "${BOARD}", playerIds: ["player-3", "not an id!"]) { rank }
        leaderboard(id: "${BOARD}") { a: entry(playerId: "player-2") { rank } b: entry(playerId: "player-4") { rank } }
      }`));
    }, (args) => args[0].toLowerCase() === 'evalsha' && playersRead.push(Number(args[2]) - 2));
    expect(commands).toEqual([`evalsha ${cfg(BOARD)}`]);
    expect(playersRead).toEqual([3]);
    expect(body.data).toEqual({
      entries: [{ rank: 99 }, { rank: 98 }, { rank: 99 }],
      bad: null,
      leaderboard: { a: { rank: 98 }, b: { rank: 96 } },
    });
    expect(body.errors?.map((error) => [error.path, error.extensions.code])).toEqual([[['bad'], 'BAD_USER_INPUT']]);
  });

  it('loaders are per request: a second request reads Redis again', async () => {
    const query = `{ leaderboard(id: "${BOARD}") { entry(playerId: "player-9") { rank } } }`;
    const first = await commandsDuring(() => server.data(query));
    const second = await commandsDuring(() => server.data(query));
    expect(second).toEqual(first);
    expect(second).toEqual([`evalsha ${cfg(BOARD)}`]);
  });
});
