// Fault injection: writes from several clients, with and without idempotency keys, while the
// command connection is killed, Redis is killed -9 and restarted, or Redis is paused. Afterwards
// the board is read back and every submission accounted for (see writeLedger.ts): nothing
// acknowledged is lost, nothing is applied twice, nothing answered NOT_APPLIED was applied.
import * as net from 'node:net';
import Redis from 'ioredis';
import type { ManagedRedis } from '../../src/dev/managedRedis';
import { boardKeys } from '../../src/store/keys';
import { behindCutProxy } from '../support/cutProxy';
import { DurableRedis, nextReady, startDedicatedRedis, uniqueId } from '../support/redis';
import { type Audit, runWriter, WriteLedger } from '../support/writeLedger';
import { createBoard, onOwnRedis, SUBMIT, TEST_KEYS, TestServer } from '../support/harness';

const WRITERS = 8;
const PLAYERS_PER_WRITER = 10;
/** As a client backs off after a failure: without it, writers would use up their submissions in the first outage. */
const BACKOFF_MS = 10;

/** Runs the writers to the end while `fault` does its worst, then reads every player's total. */
async function writeThrough(server: TestServer, fault: (ledger: WriteLedger) => Promise<void>): Promise<Audit> {
  const boardId = uniqueId('faults');
  await createBoard(server, boardId, 'DESCENDING', 'INCREMENT');
  const ledger = new WriteLedger();
  const writers = Array.from({ length: WRITERS }, (_, w) =>
    runWriter(ledger, {
      graphqlUrl: server.graphqlUrl, key: TEST_KEYS.writer, boardId, name: `w${w}`, players: PLAYERS_PER_WRITER,
      idempotent: w % 2 === 0, backoffMs: BACKOFF_MS,
    }),
  );
  await Promise.all([fault(ledger), ...writers]);
  return ledger.audit(await totals(server, boardId, ledger.players));
}

/** Every player's score, read once the server answers again. */
async function totals(server: TestServer, boardId: string, players: string[]): Promise<Map<string, number>> {
  for (let attempt = 0; ; attempt++) {
    const { body } = await server.post('query ($id: ID!, $ids: [ID!]!) { entries(leaderboardId: $id, playerIds: $ids) { playerId score } }', {
      id: boardId, ids: players,
    });
    if (body.data) return new Map(body.data.entries.filter(Boolean).map((e: { playerId: string; score: number }) => [e.playerId, e.score]));
    if (attempt > 100) throw new Error(`the board cannot be read back: ${JSON.stringify(body.errors)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function expectExactlyOnce(audit: Audit): void {
  expect(audit.submissions).toBe(WRITERS * PLAYERS_PER_WRITER * 20);
  expect({ lost: audit.lost, doubled: audit.doubled, appliedAfterNotApplied: audit.appliedAfterNotApplied, replayedFirstAttempts: audit.replayedFirstAttempts })
    .toEqual({ lost: 0, doubled: 0, appliedAfterNotApplied: 0, replayedFirstAttempts: 0 });
}

describe('a command that ran in Redis and whose answer was lost with its connection', () => {
  const cut = behindCutProxy();

  const score = async (boardId: string, playerId: string) =>
    (await cut.server.data('query ($b: ID!, $p: ID!) { leaderboard(id: $b) { entry(playerId: $p) { score } } }', { b: boardId, p: playerId }))
      .leaderboard.entry?.score;

  it('is a write applied once and answered UNKNOWN; the same idempotency key then says it was done', async () => {
    const boardId = uniqueId('cut');
    await createBoard(cut.server, boardId, 'DESCENDING', 'INCREMENT');
    await cut.server.data(SUBMIT, { input: { leaderboardId: boardId, playerId: 'p', score: 1 } });

    cut.proxy.cutAfterNextCommand();
    const [lost] = await cut.server.errors(SUBMIT, { input: { leaderboardId: boardId, playerId: 'p', score: 10 } });
    expect(lost.extensions).toMatchObject({ code: 'UNAVAILABLE', outcome: 'UNKNOWN' });
    expect(await score(boardId, 'p')).toBe(11);

    cut.proxy.cutAfterNextCommand();
    const keyed = { leaderboardId: boardId, playerId: 'q', score: 10, idempotencyKey: 'q-1' };
    const [unknown] = await cut.server.errors(SUBMIT, { input: keyed });
    expect(unknown.extensions).toMatchObject({ code: 'UNAVAILABLE', outcome: 'UNKNOWN' });
    const retried = await cut.server.data(SUBMIT, { input: keyed });
    expect(retried.submitScore).toMatchObject({ replayed: true, entry: { score: 10 } });
    expect(await score(boardId, 'q')).toBe(10);
  });

  it('is a read answered all the same, from a new connection', async () => {
    cut.proxy.cutAfterNextCommand();
    expect(await cut.server.data('{ player(id: "nobody") { id } }')).toEqual({ player: null });
  });
});

describe('the command connection killed while writes and reads flow (Redis stays up)', () => {
  let redis: ManagedRedis;
  let server: TestServer;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startDedicatedRedis();
    server = await TestServer.start(redis.url);
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    await server?.stop();
    admin?.disconnect();
    await redis?.stop();
  });

  it('applies every write at most once, tells the client which may have run, and fails no read', async () => {
    let reconnections = 0;
    server.redis.on('ready', () => reconnections++);
    let writing = true;
    const readFailures: unknown[] = [];
    const reader = async () => {
      while (writing) {
        const { body } = await server.post('{ player(id: "nobody") { id } }');
        if (body.errors) readFailures.push(body.errors);
      }
    };
    const readers = [reader(), reader()];
    const audit = await writeThrough(server, async (ledger) => {
      for (const after of [100, 300, 500, 700, 900]) {
        await ledger.until(() => ledger.count() >= after);
        const back = nextReady(server.redis);
        await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
        await back;
      }
    });
    writing = false;
    await Promise.all(readers);
    expect(reconnections).toBeGreaterThanOrEqual(5);
    expectExactlyOnce(audit);
    // Only what was in flight at a kill is in doubt, and nothing was refused: Redis stayed up.
    expect(audit.unknown).toBeLessThanOrEqual(5 * WRITERS);
    expect(readFailures).toEqual([]);
  }, 60_000);

  it('serves a read sent just as Redis closed the idle connection (an idle timeout)', async () => {
    for (let i = 0; i < 5; i++) {
      await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      const { body } = await server.post('{ player(id: "nobody") { id } }');
      expect(body).toEqual({ data: { player: null } });
    }
  });
});

describe('Redis killed with SIGKILL and restarted twice while writes flow', () => {
  const own = onOwnRedis(() => DurableRedis.start(), (redis) => redis.close());

  it('applies every write at most once, loses no acknowledged one, and says which were not applied', async () => {
    const { redis, server } = own;
    const audit = await writeThrough(server, async (ledger) => {
      for (const after of [200, 800]) {
        await ledger.until(() => ledger.count() >= after);
        const refusedBefore = ledger.count('NOT_APPLIED');
        process.kill(redis.pid, 'SIGKILL');
        // Down long enough for writes to be refused while it is.
        await ledger.until(() => ledger.count('NOT_APPLIED') >= refusedBefore + WRITERS);
        const back = nextReady(server.redis);
        await redis.restart();
        await back;
      }
    });
    expectExactlyOnce(audit);
    expect(audit.notApplied).toBeGreaterThanOrEqual(2 * WRITERS);
  }, 60_000);
});

describe('Redis paused (SIGSTOP) past the command timeout while writes flow', () => {
  const own = onOwnRedis(() => startDedicatedRedis(), (redis) => redis.stop(), { commandTimeoutMs: 300 });

  it('answers UNKNOWN for what was sent, refuses the rest at once as NOT_APPLIED, and applies nothing twice', async () => {
    const { redis, server } = own;
    const audit = await writeThrough(server, async (ledger) => {
      await ledger.until(() => ledger.count() >= 200);
      const [unknownBefore, refusedBefore] = [ledger.count('UNKNOWN'), ledger.count('NOT_APPLIED')];
      process.kill(redis.pid, 'SIGSTOP');
      try {
        // Those in flight time out; after the first timeout, later writes are refused without being sent.
        await ledger.until(() => ledger.count('UNKNOWN') > unknownBefore && ledger.count('NOT_APPLIED') >= refusedBefore + WRITERS);
      } finally {
        process.kill(redis.pid, 'SIGCONT');
      }
    });
    expectExactlyOnce(audit);
    expect(audit.unknown).toBeGreaterThan(0);
    expect(audit.notApplied).toBeGreaterThanOrEqual(WRITERS);
  }, 60_000);
});

describe('stopping (SIGTERM) while a client keeps its connection alive', () => {
  const own = onOwnRedis(() => startDedicatedRedis(), (redis) => redis.stop(), { commandTimeoutMs: 10_000 });

  it('answers the request in flight with Connection: close and runs none sent after it on that connection', async () => {
    const { redis, server } = own;
    const boardId = uniqueId('stop');
    await createBoard(server, boardId, 'DESCENDING', 'INCREMENT');
    const post = (playerId: string) => {
      const body = JSON.stringify({ query: SUBMIT, variables: { input: { leaderboardId: boardId, playerId, score: 1 } } });
      return `POST /graphql HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\nauthorization: Bearer ${TEST_KEYS.writer}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const socket = net.connect(new URL(server.baseUrl).port as unknown as number, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += data.toString()));
    const closed = new Promise((resolve) => socket.on('close', resolve));

    const inFlight = new Promise((resolve) => server.server.httpServer.once('request', resolve));
    process.kill(redis.pid, 'SIGSTOP');
    socket.write(post('in-flight'));
    await inFlight;
    const stopping = server.server.stop();
    // Sent on the same connection after the stop began, while the first is still running.
    socket.write(post('after-stop'));
    process.kill(redis.pid, 'SIGCONT');
    await Promise.all([stopping, closed]);

    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(responses[0]).toMatch(/\r\nconnection: close\r\n/i);
    // The second is either refused unrun, or never read because the connection closed first.
    for (const refused of responses.slice(1)) {
      expect(refused).toMatch(/^HTTP\/1\.1 503 /);
      expect(refused).toContain('"outcome":"NOT_APPLIED"');
    }
    const admin = new Redis(redis.url);
    try {
      expect(await admin.zcard(boardKeys(boardId).ranking)).toBe(1);
    } finally {
      admin.disconnect();
    }
  });
});
