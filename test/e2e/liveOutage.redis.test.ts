// Live subscriptions across a Redis restart, and across server processes.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { DurableRedis, nextReady, testRedisUrl, uniqueId } from '../support/redis';
import { createBoard, submitAll, TestServer } from '../support/harness';
import { connect } from '../support/liveClient';
import { RawLiveSocket } from '../support/rawLive';

const RANK_CHANGED = /* GraphQL */ `
  subscription ($board: ID!, $player: ID!) {
    rankChanged(leaderboardId: $board, playerId: $player) { entry { rank score } previousRank cause }
  }
`;

describe('a Redis restart during a live subscription', () => {
  // Persistent, so the board is still there after the restart.
  let redis: DurableRedis;
  let writer: TestServer;
  let reader: TestServer;
  beforeAll(async () => {
    redis = await DurableRedis.start();
    [writer, reader] = await Promise.all([TestServer.start(redis.url), TestServer.start(redis.url)]);
  });
  afterAll(async () => {
    await Promise.all([writer?.stop(), reader?.stop()]);
    await redis?.close();
  });

  it('resubscribes, sends a fresh snapshot and goes on, without the client reconnecting', async () => {
    const board = uniqueId('restart');
    await createBoard(writer, board);
    await submitAll(writer, board, [['a', 30], ['b', 20]]);
    const connection = connect(reader.graphqlUrl);
    try {
      const feed = connection.subscribe<{ entrySubmitted: { entry: { playerId: string } } }>(
        'subscription ($board: ID!) { entrySubmitted(leaderboardId: $board) { entry { playerId } } }', { board },
      );
      // Its snapshot also tells that the feed, subscribed before it on the same connection, is live.
      const sub = connection.subscribe(RANK_CHANGED, { board, player: 'b' });
      expect((await sub.nextData()).rankChanged).toEqual({ entry: { rank: 2, score: 20 }, previousRank: null, cause: 'SNAPSHOT' });
      await submitAll(writer, board, [['a', 31]]);
      expect((await feed.nextData()).entrySubmitted.entry.playerId).toBe('a');

      const back = Promise.all([nextReady(writer.redis), nextReady(reader.redis)]);
      await redis.restart();
      await back;
      expect((await sub.nextData(10_000)).rankChanged).toEqual({ entry: { rank: 2, score: 20 }, previousRank: null, cause: 'SNAPSHOT' });

      // The feed cannot show where missed events led: it says they may be missing, and goes on.
      expect(await feed.next()).toEqual({
        data: null,
        errors: [expect.objectContaining({ extensions: { code: 'EVENTS_MISSED', details: { reason: 'reconnected' } } })],
      });

      await submitAll(writer, board, [['c', 40]]);
      expect((await sub.nextData()).rankChanged).toEqual({ entry: { rank: 3, score: 20 }, previousRank: 2, cause: 'RANK' });
      expect((await feed.nextData()).entrySubmitted.entry.playerId).toBe('c');
      expect(connection.connections()).toBe(1);
      expect(reader.logger.lines).toContainEqual({ level: 'info', message: 'Live updates resubscribed to 1 of 1 board(s)' });
    } finally {
      await connection.close();
    }
  }, 30_000);
});

describe('what a server says of its Redis', () => {
  let redis: DurableRedis;
  let server: TestServer;
  beforeAll(async () => {
    redis = await DurableRedis.start();
    server = await TestServer.start(redis.url);
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.close();
  });

  it('tells every connection when it loses Redis and when it has it back, without being asked', async () => {
    const raw = await RawLiveSocket.open(server.graphqlUrl);
    const pings = () => raw.messages.filter((message) => message.type === 'ping');
    try {
      expect(raw.messages).toEqual([{ type: 'connection_ack', payload: { redis: 'up' } }]);
      await redis.restart(async () => {
        await raw.until(() => pings().length === 1, 'a ping saying Redis is down');
        // A connection opened meanwhile is told in its connection_ack.
        const late = await RawLiveSocket.open(server.graphqlUrl);
        expect(late.messages).toEqual([{ type: 'connection_ack', payload: { redis: 'down' } }]);
        late.close();
      });
      await raw.until(() => pings().length === 2, 'a ping saying Redis is back');
      expect(pings()).toEqual([{ type: 'ping', payload: { redis: 'down' } }, { type: 'ping', payload: { redis: 'up' } }]);
    } finally {
      raw.close();
    }
  }, 30_000);
});

describe('a server in another process', () => {
  it('delivers writes made through this one', async () => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(__dirname, '..', '..', 'src', 'server', 'main.ts')], {
      env: { PATH: process.env.PATH ?? '', REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'test', ANONYMOUS_READS: 'true' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const writer = await TestServer.start();
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          const ready = /ready at (http:\/\/\S+\/graphql)/.exec((output += chunk.toString()));
          if (ready) resolve(ready[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited (${code}) before it was ready:\n${output}`)));
      });
      const board = uniqueId('process');
      await createBoard(writer, board);
      await submitAll(writer, board, [['a', 10]]);

      const connection = connect(url, null);
      const sub = connection.subscribe(RANK_CHANGED, { board, player: 'a' });
      expect((await sub.nextData(10_000)).rankChanged.cause).toBe('SNAPSHOT');
      await submitAll(writer, board, [['b', 20]]);
      expect((await sub.nextData()).rankChanged).toEqual({ entry: { rank: 2, score: 10 }, previousRank: 1, cause: 'RANK' });
      await connection.close();
    } finally {
      child.kill('SIGKILL');
      await writer.stop();
    }
  }, 60_000);
});
