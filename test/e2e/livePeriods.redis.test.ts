// Subscriptions on periods end to end (issue 13): a real graphql-ws client on a server whose
// clocks the test drives (the submit script's test-only "now", Node's MomentClock and the live
// Clock are one SteppedClock), so Tokyo's midnight comes when the test says, with no waiting.
import { UPDATE_INTERVAL_MS } from '../../src/domain/limits';
import { CREATE_BOARD, TestServer } from '../support/harness';
import { SteppedClock } from '../support/fakeClock';
import { connect, type LiveConnection, type LiveSubscription } from '../support/liveClient';
import { uniqueId } from '../support/redis';

/** 2026-12-01T23:59:58 in Tokyo (UTC+9). */
const START = Date.UTC(2026, 11, 1, 14, 59, 58);
const clock = new SteppedClock(START);
let server: TestServer;
let connection: LiveConnection;
beforeAll(async () => {
  server = await TestServer.start(undefined, { now: () => clock.nowMicros(), liveClock: clock, cacheReads: false });
  connection = connect(server.graphqlUrl);
});
const subscriptions: LiveSubscription<any>[] = [];
/** Subscriptions end with their test, so that no feed of an earlier test keeps timers on the clock. */
afterEach(() => subscriptions.splice(0).forEach((subscription) => subscription.stop()));
afterAll(async () => {
  await connection.close();
  await server.stop();
});

const TOP = /* GraphQL */ `
  subscription ($board: ID!, $period: PeriodInput) {
    topChanged(leaderboardId: $board, first: 3, period: $period) { id period { kind key start end } entries { playerId rank score } }
  }
`;
const RANK = /* GraphQL */ `
  subscription ($board: ID!, $period: PeriodInput) {
    rankChanged(leaderboardId: $board, playerId: "a", period: $period) { entry { id playerId rank } cause }
  }
`;
const FEED = /* GraphQL */ `
  subscription ($board: ID!, $period: PeriodInput) {
    entrySubmitted(leaderboardId: $board, period: $period) { entry { playerId score rank } }
  }
`;
const SUBMIT = /* GraphQL */ `
  mutation ($board: ID!, $player: ID!, $score: Float!) {
    submitScore(input: { leaderboardId: $board, playerId: $player, score: $score }) { entry { rank } userErrors { code } }
  }
`;

async function dailyBoard(timeZone: string): Promise<string> {
  const id = uniqueId('daily');
  await server.data(CREATE_BOARD, {
    input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { timeZone, kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] } },
  });
  return id;
}

function subscribe(query: string, variables: Record<string, unknown>) {
  const subscription = connection.subscribe(query, variables);
  subscriptions.push(subscription);
  return subscription;
}

const submit = (board: string, player: string, score: number) => server.data(SUBMIT, { board, player, score });
const players = (top: any) => top.topChanged.entries.map((entry: any) => [entry.playerId, entry.rank]);

it("sends a subscriber of the current day the new day's empty snapshot at Tokyo's midnight, with no write, and keeps a past day's", async () => {
  const board = await dailyBoard('Asia/Tokyo');
  await submit(board, 'a', 10);
  await submit(board, 'b', 20);
  const today = subscribe(TOP, { board, period: { kind: 'DAILY' } });
  const yesterday = subscribe(TOP, { board, period: { kind: 'DAILY', key: '2026-12-01' } });
  const allTime = subscribe(TOP, { board });
  for (const top of [today, yesterday]) {
    const snapshot = await top.nextData();
    expect(snapshot.topChanged.period).toMatchObject({ kind: 'DAILY', key: '2026-12-01', end: '2026-12-01T15:00:00.000000Z' });
    expect(players(snapshot)).toEqual([['b', 1], ['a', 2]]);
  }
  expect((await allTime.nextData()).topChanged.period).toMatchObject({ kind: 'ALL_TIME', key: 'all' });

  // Live moves of a period come from its events: a write moves the current day's top.
  await submit(board, 'a', 30);
  clock.advance(UPDATE_INTERVAL_MS);
  expect(players(await today.until((top) => top.topChanged.entries[0].playerId === 'a'))).toEqual([['a', 1], ['b', 2]]);
  await yesterday.until((top) => top.topChanged.entries[0].playerId === 'a');
  await allTime.until((top) => top.topChanged.entries[0].playerId === 'a');

  clock.advance(START + 2_000 - clock.now()); // midnight in Tokyo
  const rolled = await today.nextData();
  expect(rolled.topChanged.period).toMatchObject({ kind: 'DAILY', key: '2026-12-02', start: '2026-12-01T15:00:00.000000Z' });
  expect(players(rolled)).toEqual([]);
  expect(rolled.topChanged.id).not.toBe((await yesterday.messages[0].data).topChanged.id); // another object to a client cache

  // A write after midnight lands in the new day, which the rolled subscription shows.
  await submit(board, 'c', 5);
  clock.advance(UPDATE_INTERVAL_MS);
  const next = await today.nextData();
  expect(next.topChanged.period.key).toBe('2026-12-02');
  expect(players(next)).toEqual([['c', 1]]);
  // The past day and ALL_TIME did not roll: the day saw nothing new, ALL_TIME only the new player.
  expect(yesterday.unread).toBe(0);
  expect(players(await allTime.until((top) => top.topChanged.entries.length === 3))).toEqual([['a', 1], ['b', 2], ['c', 3]]);
});

it('rolls rankChanged and entrySubmitted over with the day: a snapshot without the player, then the new day\'s changes', async () => {
  // Shanghai (UTC+8) starts its day an hour after Tokyo.
  const board = await dailyBoard('Asia/Shanghai');
  clock.advance(Date.UTC(2026, 11, 1, 15, 59, 59) - clock.now());
  await submit(board, 'a', 10);
  const rank = subscribe(RANK, { board, period: { kind: 'DAILY' } });
  const feed = subscribe(FEED, { board, period: { kind: 'DAILY' } });
  const snapshot = await rank.nextData();
  expect(snapshot.rankChanged).toMatchObject({ entry: { playerId: 'a', rank: 1 }, cause: 'SNAPSHOT' });
  clock.advance(1_000);
  expect((await rank.nextData()).rankChanged).toEqual({ entry: null, cause: 'SNAPSHOT' });
  await submit(board, 'a', 7);
  clock.advance(UPDATE_INTERVAL_MS);
  const own = (await rank.nextData()).rankChanged;
  expect(own).toMatchObject({ entry: { playerId: 'a', rank: 1 }, cause: 'SCORE' });
  expect(own.entry.id).not.toBe(snapshot.rankChanged.entry.id); // the new day's entry is another object
  expect((await feed.nextData()).entrySubmitted.entry).toEqual({ playerId: 'a', score: 7, rank: 1 });
});

it('refuses a kind the board does not keep (BAD_USER_INPUT) and an expired period (NOT_FOUND) as errors of the subscription', async () => {
  const board = await dailyBoard('Asia/Tokyo');
  const weekly = subscribe(TOP, { board, period: { kind: 'WEEKLY' } });
  const expired = subscribe(TOP, { board, period: { kind: 'DAILY', key: '2026-01-01' } });
  expect((await weekly.next()).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect((await expired.next()).errors?.[0].extensions?.code).toBe('NOT_FOUND');
});
