// Live subscriptions cost the entries each of their updates may carry, and what one connection, and
// one client over all its connections, may hold together is limited: a subscription past a limit
// is refused with BAD_REQUEST, the socket and the other subscriptions go on, and completing one
// frees its cost.
import { submitAll, TEST_KEYS } from '../support/harness';
import { type RawLiveSocket, useLiveFixture } from '../support/rawLive';

const LIMITS = { perConnection: 30, perClient: 50 };
// The schema's default radius, 5: 11 entries an update.
const WINDOW = 11;
const AROUND = `subscription ($board: ID!, $radius: Int) {
  aroundChanged(leaderboardId: $board, playerId: "p", radius: $radius) { entries { playerId score } }
}`;

// One proxy hop believed, so that each connection names its client address in X-Forwarded-For.
const live = useLiveFixture({ liveCostLimits: LIMITS, trustProxyHops: 1 });
// Addresses from TEST-NET-2 (RFC 5737): each test has its own, so no test counts against another.
let nextAddress = 1;
const address = () => `198.51.100.${nextAddress++}`;
const reader = (from: string) => live.open({ key: TEST_KEYS.reader, headers: { 'x-forwarded-for': from } });

/** Subscribes to a window of `radius` (default 5) and resolves with the first answer: `next` (served) or `error` (refused). */
async function subscribeWindow(socket: RawLiveSocket, id: string, radius?: number) {
  socket.subscribe(id, AROUND, { board: live.board, ...(radius === undefined ? {} : { radius }) });
  await socket.until(() => socket.about(id).length > 0, `an answer to ${id}`);
  return socket.about(id)[0];
}

const refusal = (limit: string, maximum: number, found: number) => ({
  type: 'error',
  payload: [{ extensions: { code: 'BAD_REQUEST', details: { limit, maximum, found } } }],
});

it('refuses a subscription that would take a connection past its cost, keeps the rest going, and frees the cost of a completed one', async () => {
  const socket = await reader(address());
  expect((await subscribeWindow(socket, 'a')).type).toBe('next');
  expect((await subscribeWindow(socket, 'b')).type).toBe('next');

  const refused = await subscribeWindow(socket, 'c');
  expect(refused).toMatchObject(refusal('liveCost', LIMITS.perConnection, 3 * WINDOW));
  // The message names the cost and how to need less.
  expect(refused.payload[0].message).toMatch(/costs 11 .*2 \* radius \+ 1.*smaller radius or first/);
  expect(socket.isOpen).toBe(true);

  // The subscriptions held go on.
  await submitAll(live.server, live.board, [['p', 2]]);
  await socket.until(() => socket.about('a').length > 1 && socket.about('b').length > 1, 'the updates');

  // The server reads a `complete` before the next `subscribe`: the cost it held is free again.
  socket.complete('a');
  expect((await subscribeWindow(socket, 'c2')).type).toBe('next');
  expect(socket.about('c2')[0].payload.data.aroundChanged.entries).toEqual([{ playerId: 'p', score: 2 }]);
  await live.closeAndExpectNothingLeft(socket);
});

it('counts the connections of a reader key from one address together, and another address or a writer key apart', async () => {
  const crowded = address();
  const [first, second, third] = await Promise.all([reader(crowded), reader(crowded), reader(crowded)]);
  for (const socket of [first, second]) {
    expect((await subscribeWindow(socket, 'x')).type).toBe('next');
    expect((await subscribeWindow(socket, 'y')).type).toBe('next');
  }
  // Within its connection's limit, past its client's.
  expect(await subscribeWindow(third, 'x')).toMatchObject(refusal('liveCostPerClient', LIMITS.perClient, 5 * WINDOW));
  expect(third.isOpen).toBe(true);

  // The same key from elsewhere is another client; so is a writer key, counted by the key, from the crowded address.
  const elsewhere = await reader(address());
  const writer = await live.open({ key: TEST_KEYS.writer, headers: { 'x-forwarded-for': crowded } });
  for (const socket of [elsewhere, writer]) {
    expect((await subscribeWindow(socket, 'x')).type).toBe('next');
    expect((await subscribeWindow(socket, 'y')).type).toBe('next');
  }

  // A subscription completed on one connection frees its cost for the others of its client (the
  // pong comes once the server has read the `complete`).
  first.complete('x');
  await first.roundTrip();
  expect((await subscribeWindow(third, 'x2')).type).toBe('next');

  // Closed connections hold nothing: a new one from the crowded address holds what the limit allows.
  await live.closeAndExpectNothingLeft(first, second, third, elsewhere, writer);
  const next = await reader(crowded);
  expect((await subscribeWindow(next, 'x')).type).toBe('next');
  expect((await subscribeWindow(next, 'y')).type).toBe('next');
  await live.closeAndExpectNothingLeft(next);
});

it('counts a size given in a variable as the value it has, as if it were written in the query', async () => {
  const socket = await reader(address());
  const literal = (radius: number) =>
    `subscription ($board: ID!) { aroundChanged(leaderboardId: $board, playerId: "p", radius: ${radius}) { entries { playerId } } }`;
  socket.subscribe('literal', literal(15), { board: live.board });
  await socket.until(() => socket.about('literal').length > 0, 'an answer');
  expect(socket.about('literal')[0]).toMatchObject(refusal('liveCost', LIMITS.perConnection, 31));
  expect(await subscribeWindow(socket, 'variable', 15)).toMatchObject(refusal('liveCost', LIMITS.perConnection, 31));

  expect((await subscribeWindow(socket, 'fits', 14)).type).toBe('next');
  // Up to the limit exactly, then one entry past it, `first` given in a variable.
  expect((await subscribeWindow(socket, 'edge', 0)).type).toBe('next');
  const top = 'subscription ($board: ID!, $first: Int) { topChanged(leaderboardId: $board, first: $first) { entries { playerId } } }';
  socket.subscribe('top', top, { board: live.board, first: 1 });
  await socket.until(() => socket.about('top').length > 0, 'an answer');
  expect(socket.about('top')[0]).toMatchObject(refusal('liveCost', LIMITS.perConnection, 31));
  await live.closeAndExpectNothingLeft(socket);
});
