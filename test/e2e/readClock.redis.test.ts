// One clock for reads (issue 34): "the current period" of a read is decided by Redis' clock, like
// a write's, even when the API server's own clock is off. The server here runs with a local
// clock set so that it is already past the next hour boundary while Redis is before it: a
// server that read its own clock would answer the next hour's (empty) period.
import { redisTimeMicros } from '../../src/store/redisTime';
import { uniqueId } from '../support/redis';
import { CREATE_BOARD, TestServer } from '../support/harness';

const HOUR = 3_600_000_000;
const READ = `query ($id: ID!) {
  leaderboard(id: $id) { period(of: { kind: HOURLY }) { key totalCount entry(playerId: "p") { score rank } } }
  entries(leaderboardId: $id, playerIds: ["p"], period: { kind: HOURLY }) { score }
}`;

/** The server's clock this far ahead of (or behind) Redis' puts it in another hour than Redis. */
async function skewAcrossHour(direction: 1 | -1): Promise<number> {
  const server = await TestServer.start();
  const redisNow = await redisTimeMicros(server.redis);
  await server.stop();
  // A boundary at least a minute away, so that Redis does not cross it while the test runs.
  const boundary = direction === 1 ? Math.ceil((redisNow + 60_000_000) / HOUR) * HOUR : Math.floor((redisNow - 60_000_000) / HOUR) * HOUR;
  return boundary - redisNow + direction * 5_000_000;
}

it.each([['ahead of', 1], ['behind', -1]] as const)('a read agrees with the write beside it when the server\'s clock is %s Redis\'', async (_, direction) => {
  const skew = await skewAcrossHour(direction);
  const server = await TestServer.start(undefined, { localClock: () => Date.now() * 1000 + skew });
  try {
    const id = uniqueId('read-clock');
    await server.data(CREATE_BOARD, {
      input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { timeZone: 'UTC', kinds: [{ kind: 'ALL_TIME' }, { kind: 'HOURLY', retention: 3 }] } },
    });
    const written = await server.data(
      'mutation ($id: ID!) { submitScore(input: { leaderboardId: $id, playerId: "p", score: 42 }) { entry { score } } }', { id },
    );
    expect(written.submitScore.entry.score).toBe(42);
    const redisHour = new Date(Math.floor(await redisTimeMicros(server.redis) / 1000)).toISOString().slice(0, 13);
    expect(await server.data(READ, { id })).toEqual({
      leaderboard: { period: { key: redisHour, totalCount: 1, entry: { score: 42, rank: 1 } } },
      entries: [{ score: 42 }],
    });
  } finally {
    await server.stop();
  }
});
