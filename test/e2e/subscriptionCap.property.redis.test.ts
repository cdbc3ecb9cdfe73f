import fc from 'fast-check';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../src/server/websocket';
import { type RawLiveSocket, useLiveFixture } from '../support/rawLive';

/**
 * Random sequences of subscribe, complete and close over one to three sockets, sent without
 * waiting for answers (ids reused, completed before or after their set-up, subscribed twice,
 * sockets closed mid set-up): no connection ever holds more than the cap, and once the sockets
 * are gone nothing is left, by the server's count or by the board's Redis subscription.
 */
const QUERY = 'subscription ($board: ID!) { rankChanged(leaderboardId: $board, playerId: "p") { cause } }';
// Few ids, so they are reused, completed and subscribed twice all the time.
const IDS = ['a', 'b', 'c'];
const MAX_SOCKETS = 3;

const socket = fc.nat(MAX_SOCKETS - 1);
const id = fc.constantFrom(...IDS);
const command = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), socket, id }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('complete' as const), socket, id }) },
  // What the client sent: the same id subscribed and completed, over and over.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rounds' as const), socket, id, count: fc.integer({ min: 1, max: 50 }) }) },
  // Fresh ids, up to past the cap.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), socket, count: fc.integer({ min: 1, max: 2 * MAX_SUBSCRIPTIONS_PER_CONNECTION }) }) },
  // The server has read everything sent so far on the socket (set-ups may still be running).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('roundTrip' as const), socket }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), socket }) },
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

const live = useLiveFixture();

async function run(sockets: RawLiveSocket[], commands: Command[]): Promise<void> {
  let fresh = 0;
  for (const step of commands) {
    const target = sockets[step.socket % sockets.length];
    switch (step.kind) {
      case 'subscribe':
        target.subscribe(step.id, QUERY, { board: live.board });
        break;
      case 'complete':
        target.complete(step.id);
        break;
      case 'rounds':
        for (let i = 0; i < step.count; i++) {
          target.subscribe(step.id, QUERY, { board: live.board });
          target.complete(step.id);
        }
        break;
      case 'burst':
        for (let i = 0; i < step.count; i++) target.subscribe(`fresh-${fresh++}`, QUERY, { board: live.board });
        break;
      case 'roundTrip':
        await target.roundTrip();
        break;
      case 'close':
        target.close();
        break;
    }
  }
}

it('never holds more than the cap per connection, and holds nothing once the sockets are gone', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: MAX_SOCKETS }),
      fc.array(command, { maxLength: 30 }),
      async (count, commands) => {
        live.restartGauge();
        const sockets = await Promise.all(Array.from({ length: count }, () => live.open()));
        await run(sockets, commands);
        await live.closeAndExpectNothingLeft(...sockets);
        // The gauge counts every connection: each may hold the cap, none more.
        expect(live.highestGauge()).toBeLessThanOrEqual(count * MAX_SUBSCRIPTIONS_PER_CONNECTION);
      },
    ),
    { numRuns: 40 },
  );
});
