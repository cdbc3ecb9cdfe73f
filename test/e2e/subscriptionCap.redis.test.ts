// The per-connection cap on subscriptions holds whatever a client sends: reused ids, bursts of
// subscribe and complete, closing mid set-up; and nothing outlives its `complete` or its socket.
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../src/server/websocket';
import { submitAll } from '../support/harness';
import { useLiveFixture } from '../support/rawLive';

const RANK_CHANGED =
  'subscription ($board: ID!, $player: ID!) { rankChanged(leaderboardId: $board, playerId: $player) { entry { playerId score } cause } }';

const live = useLiveFixture();
const ofP = () => ({ board: live.board, player: 'p' });

it('never holds more than the cap with one id subscribed and completed in bursts, and frees every place', async () => {
  const socket = await live.open();
  live.restartGauge();
  for (let burst = 0; burst < 20; burst++) {
    for (let round = 0; round < 250; round++) {
      socket.subscribe('x', RANK_CHANGED, ofP());
      socket.complete('x');
    }
    await socket.roundTrip();
  }
  // Set-ups still running when their `complete` came end as soon as they finish.
  await live.expectNoneActive();
  expect(socket.isOpen).toBe(true);

  // Every place is free again: the cap's worth of new subscriptions are served, one more is not.
  const ids = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION + 1 }, (_, i) => `held-${i}`);
  for (const id of ids) socket.subscribe(id, RANK_CHANGED, ofP());
  const over = ids.pop()!;
  await socket.until(() => ids.every((id) => socket.about(id).length > 0) && socket.about(over).length > 0, 'answers');
  expect(ids.map((id) => socket.about(id)[0].type)).toEqual(ids.map(() => 'next'));
  expect(socket.about(over)[0]).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'BAD_REQUEST' } }] });

  await live.closeAndExpectNothingLeft(socket);
  expect(live.highestGauge()).toBe(MAX_SUBSCRIPTIONS_PER_CONNECTION);
});

it('lets nothing outlive a socket closed in the middle of set-ups, whatever their ids', async () => {
  const socket = await live.open();
  live.restartGauge();
  for (let round = 0; round < 500; round++) {
    socket.subscribe('x', RANK_CHANGED, ofP());
    socket.complete('x');
    socket.subscribe('x', RANK_CHANGED, ofP());
    socket.complete('x');
    // Ids subscribed again while they still run: graphql-ws closes the socket (4409) mid-burst.
    socket.subscribe(`y-${round % 150}`, RANK_CHANGED, ofP());
  }
  socket.subscribe('x', RANK_CHANGED, ofP());
  await live.closeAndExpectNothingLeft(socket);
  expect(live.highestGauge()).toBeLessThanOrEqual(MAX_SUBSCRIPTIONS_PER_CONNECTION);
});

it('serves an id reused right after its complete, while the first set-up is still running', async () => {
  const socket = await live.open();
  socket.subscribe('x', RANK_CHANGED, ofP());
  socket.complete('x');
  socket.subscribe('x', RANK_CHANGED, { board: live.board, player: 'q' });
  await socket.until(() => socket.about('x').length > 0, 'the snapshot');
  await submitAll(live.server, live.board, [['q', 5]]);
  await socket.until(() => socket.about('x').length > 1, 'the update');
  // Only the second subscription's messages: the first one's set-up took nothing over.
  expect(socket.about('x')).toEqual([
    { id: 'x', type: 'next', payload: { data: { rankChanged: { entry: null, cause: 'SNAPSHOT' } } } },
    { id: 'x', type: 'next', payload: { data: { rankChanged: { entry: { playerId: 'q', score: 5 }, cause: 'SCORE' } } } },
  ]);
  await live.closeAndExpectNothingLeft(socket);
});
