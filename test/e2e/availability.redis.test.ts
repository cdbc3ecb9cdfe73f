// UNAVAILABLE, readiness, recovery and durability, against Redis servers this file starts and stops itself.
import { once } from 'node:events';
import WebSocket from 'ws';
import { freePort } from '../../src/dev/managedRedis';
import { createRedisClient, waitUntilReady } from '../../src/server/redis';
import { DurableRedis, nextReady, startDedicatedRedis, uniqueId } from '../support/redis';
import { createBoard, MemoryLogger, onOwnRedis, SUBMIT, TestServer } from '../support/harness';

/** A port nothing listens on: the OS hands it out, and it is closed again at once. */
const deadPort = freePort;

const status = async (server: TestServer, path: string) => (await fetch(`${server.baseUrl}${path}`)).status;

describe('with no Redis listening', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start(`redis://127.0.0.1:${await deadPort()}`, { waitForRedis: false });
  });
  afterAll(() => server.stop());

  it('answers reads and writes with UNAVAILABLE at once, and stays up', async () => {
    const started = Date.now();
    const [read] = await server.errors('{ leaderboard(id: "b") { id totalCount } }');
    const [write] = await server.errors(SUBMIT, { input: { leaderboardId: 'b', playerId: 'p', score: 1 } });
    const [profile] = await server.errors('{ player(id: "p") { id } }');
    expect([read, write, profile].map((error) => error.extensions.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE']);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await status(server, '/healthz')).toBe(200);
    expect(await status(server, '/readyz')).toBe(503);
  });
});

describe('with no Redis listening and rate limits on', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start(`redis://127.0.0.1:${await deadPort()}`, { waitForRedis: false, rateLimits: { perKey: 1, perIp: 1, windowMs: 60_000 } });
  });
  afterAll(() => server.stop());

  it('admits WebSocket upgrades it cannot count, as it admits requests', async () => {
    for (let i = 0; i < 2; i++) {
      const socket = new WebSocket(server.graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
      await once(socket, 'open');
      socket.close();
      await once(socket, 'close');
    }
  });
});

describe('when Redis goes away and comes back', () => {
  const own = onOwnRedis(() => startDedicatedRedis(), (redis) => redis.stop());

  it('is UNAVAILABLE while it is down and recovers by itself', async () => {
    const { redis, server } = own;
    const id = uniqueId('outage');
    await createBoard(server, id);
    expect(await status(server, '/readyz')).toBe(200);

    const lost = once(server.redis, 'reconnecting');
    await redis.stop();
    await lost;
    const [error] = await server.errors(SUBMIT, { input: { leaderboardId: id, playerId: 'p', score: 1 } });
    expect(error.extensions.code).toBe('UNAVAILABLE');
    expect(await status(server, '/readyz')).toBe(503);
    expect(await status(server, '/healthz')).toBe(200);
    expect(server.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/^Lost the connection to Redis/) });

    // A new, empty server on the same port: the client finds it without anyone's help.
    const ready = nextReady(server.redis);
    own.redis = await startDedicatedRedis({ persistence: 'none', port: redis.port });
    await ready;
    expect(await status(server, '/readyz')).toBe(200);
    await createBoard(server, id);
    const { submitScore } = await server.data(SUBMIT, { input: { leaderboardId: id, playerId: 'p', score: 1 } });
    expect(submitScore.entry.rank).toBe(1);
    expect(server.logger.lines).toContainEqual({ level: 'info', message: expect.stringMatching(/reachable again/) });
  });
});

describe('when Redis is killed with SIGKILL and restarted on the same data (appendfsync always)', () => {
  const own = onOwnRedis(() => DurableRedis.start(), (redis) => redis.close());

  it('keeps every acknowledged write, and the service reconnects by itself', async () => {
    const { redis, server } = own;
    const id = uniqueId('durable');
    await createBoard(server, id);
    // Writers keep submitting until their writes fail; Redis dies under them, mid-stream.
    const acknowledged = new Map<string, number>();
    let refused = 0;
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        const playerId = `w${w}-${i}`;
        const { body } = await server.post(SUBMIT, { input: { leaderboardId: id, playerId, score: i } });
        if (!body.data?.submitScore) {
          expect(body.errors?.[0].extensions.code).toBe('UNAVAILABLE');
          refused++;
          return;
        }
        acknowledged.set(playerId, i);
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    while (acknowledged.size < 300) await new Promise((resolve) => setImmediate(resolve));
    process.kill(redis.pid, 'SIGKILL');
    await Promise.all(writers);
    expect(refused).toBe(8);

    const ready = nextReady(server.redis);
    await redis.restart();
    await ready;
    expect(await status(server, '/readyz')).toBe(200);
    const players = [...acknowledged.keys()];
    const found: { playerId: string; score: number }[] = [];
    for (let from = 0; from < players.length; from += 1000) {
      const { entries } = await server.data('query ($id: ID!, $ids: [ID!]!) { entries(leaderboardId: $id, playerIds: $ids) { playerId score } }', {
        id, ids: players.slice(from, from + 1000),
      });
      found.push(...entries);
    }
    expect(found).toEqual(players.map((playerId) => ({ playerId, score: acknowledged.get(playerId) })));
  });
});

describe('start-up wait', () => {
  it('gives up after the bounded wait with a message that says what to do', async () => {
    const url = `redis://:secret@127.0.0.1:${await deadPort()}`;
    const client = createRedisClient(url, new MemoryLogger());
    try {
      const started = Date.now();
      const waiting = waitUntilReady(client, url, 300);
      await expect(waiting).rejects.toThrow(/did not answer PING within 300 ms \(.*ECONNREFUSED.*\).*REDIS_URL/);
      await expect(waiting).rejects.toThrow(/redis:\/\/:\*\*\*@127\.0\.0\.1/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      client.disconnect();
    }
  });
});
