// Redis behind Sentinels (REDIS_SENTINELS): the master is killed -9 while writes flow; the
// sentinels promote a replica, and the service goes on serving on it by itself. With
// REDIS_MIN_REPLICAS=1 no acknowledged write is lost, even when the replicas had fallen behind;
// without it, the writes only the dead master had are gone although they were acknowledged.
import { connect, type LiveConnection } from '../support/liveClient';
import { createBoard, submitAll, TestServer } from '../support/harness';
import { writeThroughFailover } from '../support/failover';
import { type SentinelGroup, sentinelFailover, startSentinelGroup } from '../support/sentinel';
import { uniqueId } from '../support/redis';

// Each test starts its own group and waits for a real failover (a second to judge the master down, then an election).
jest.setTimeout(120_000);

let group: SentinelGroup | undefined;
let server: TestServer | undefined;
let live: LiveConnection | undefined;
afterEach(async () => {
  await live?.close();
  await server?.stop();
  await group?.stop();
  [group, server, live] = [undefined, undefined, undefined];
});

const RANK_CHANGED = /* GraphQL */ `
  subscription ($board: ID!, $player: ID!) { rankChanged(leaderboardId: $board, playerId: $player) { entry { rank score } cause } }
`;

it('with REDIS_MIN_REPLICAS=1, keeps serving through a failover, loses no acknowledged write, and resumes live updates with a snapshot', async () => {
  group = await startSentinelGroup();
  server = await TestServer.start(group.config, { replication: { minReplicas: 1, timeoutMs: 200 }, commandTimeoutMs: 1_000 });
  const watched = uniqueId('watched');
  await createBoard(server, watched);
  await submitAll(server, watched, [['a', 30], ['b', 20]]);
  live = connect(server.graphqlUrl);
  const subscription = live.subscribe(RANK_CHANGED, { board: watched, player: 'b' });
  expect((await subscription.nextData()).rankChanged).toEqual({ entry: { rank: 2, score: 20 }, cause: 'SNAPSHOT' });

  const audit = await writeThroughFailover(server, sentinelFailover(group), {
    stallReplicas: true,
    afterFailover: async () => {
      await subscription.until((data) => data.rankChanged.cause === 'SNAPSHOT', 30_000);
      await submitAll(server!, watched, [['c', 40]]);
      expect((await subscription.until((data) => data.rankChanged.cause !== 'SNAPSHOT')).rankChanged).toEqual({ entry: { rank: 3, score: 20 }, cause: 'RANK' });
    },
  });
  expect(audit.lost).toBe(0);
  expect(audit.acknowledged).toBeGreaterThanOrEqual(100);
  // The writes the replicas could not confirm were answered as such.
  expect(audit.unknown).toBeGreaterThan(0);
});

it('without REDIS_MIN_REPLICAS, loses the acknowledged writes the replicas never received', async () => {
  group = await startSentinelGroup();
  server = await TestServer.start(group.config);
  const audit = await writeThroughFailover(server, sentinelFailover(group), { stallReplicas: true });
  expect(audit.lost).toBeGreaterThan(0);
  expect(audit.unknown).toBeLessThanOrEqual(audit.acknowledged);
});
