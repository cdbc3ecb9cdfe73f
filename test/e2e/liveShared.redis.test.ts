// What live subscribers share stays shared safely: every field that can be selected below
// Subscription is run through the server (whose harness freezes shared payloads and results, and
// whose event contexts refuse to say who subscribed), so a resolver that reads the subscriber's
// identity, or code that changes a shared object, makes this test fail.
import {
  getNamedType, type GraphQLArgument, type GraphQLField, type GraphQLInterfaceType, GraphQLObjectType, isInterfaceType, isLeafType, isNonNullType,
  isObjectType, type GraphQLType,
} from 'graphql';
import { UPDATE_INTERVAL_MS } from '../../src/domain/limits';
import { buildSchema } from '../../src/graphql/schema';
import { uniqueId } from '../support/redis';
import { createBoard, submitAll, TestServer } from '../support/harness';
import { connect, type LiveConnection } from '../support/liveClient';

/** Deep enough to reach every type below Subscription; a leaf-only level ends each branch. */
const DEPTH = 4;

/** A value for a required argument: the players and scores the board holds. */
function argumentValue(type: GraphQLType): string {
  const named = getNamedType(type).name;
  if (named === 'Float') return '20';
  if (named === 'Int') return '2';
  return '"a"';
}

/**
 * Required arguments, and sizes (small, so the query stays within the cost limit); a connection
 * reads with `first` or `last`, not both.
 */
const needsValue = (arg: GraphQLArgument) =>
  (isNonNullType(arg.type) && arg.defaultValue === undefined) || (getNamedType(arg.type).name === 'Int' && arg.name !== 'last');

/**
 * Lists as long as a board's settings allow, which the cost limit counts at their longest: the
 * type they hold is reached through another field (`Leaderboard.period`).
 */
const SETTING_SIZED = new Set(['Leaderboard.periods']);
/**
 * Fields whose type a sibling already selects in full, with the same resolvers below it: running
 * them again proves nothing more and would take the document past the parser's token limit.
 */
const SELECTED_BESIDE = new Set(['Leaderboard.nextSeason']);

function selection(type: GraphQLObjectType | GraphQLInterfaceType, depth: number): string {
  const fields = Object.values(type.getFields()).flatMap((field: GraphQLField<unknown, unknown>) => {
    const named = getNamedType(field.type);
    if (!isLeafType(named) && depth === 0) return [];
    if (SETTING_SIZED.has(`${type.name}.${field.name}`) || SELECTED_BESIDE.has(`${type.name}.${field.name}`)) return [];
    const required = field.args.filter(needsValue);
    const args = required.length ? `(${required.map((arg) => `${arg.name}: ${argumentValue(arg.type)}`).join(', ')})` : '';
    if (isLeafType(named)) return [`${field.name}${args}`];
    // An interface's own fields run the resolvers of whatever type answers it (`Entry.ranking`);
    // its leaves are enough, as its lists are the same types reached again and would only make the
    // document longer than the parser's token limit.
    if (isInterfaceType(named)) return [`${field.name}${args} { ${selection(named, 0)} }`];
    return isObjectType(named) ? [`${field.name}${args} { ${selection(named, depth - 1)} }`] : [];
  });
  return fields.length ? fields.join(' ') : '__typename';
}

let server: TestServer;
let socket: LiveConnection;
beforeAll(async () => {
  server = await TestServer.start();
  socket = connect(server.graphqlUrl);
});
afterAll(async () => {
  await socket.close();
  await server.stop();
});

const subscriptionFields = Object.values((buildSchema().getSubscriptionType() as GraphQLObjectType).getFields());

it.each(subscriptionFields.map((field) => [field.name, field] as const))('%s runs every field below it for any subscriber', async (_name, field) => {
  const board = uniqueId('shared');
  await createBoard(server, board);
  await server.data('mutation { upsertPlayer(input: { id: "a", displayName: "A", country: "SE" }) { player { id } } }');
  await submitAll(server, board, [['a', 30], ['b', 20], ['c', 20]]);
  const args = field.args
    .filter(needsValue)
    .map((arg) => `${arg.name}: ${arg.name === 'leaderboardId' ? `"${board}"` : arg.name === 'every' ? UPDATE_INTERVAL_MS : argumentValue(arg.type)}`);
  const query = `subscription { ${field.name}(${args.join(', ')}) { ${selection(getNamedType(field.type) as GraphQLObjectType, DEPTH)} } }`;
  const sub = socket.subscribe(query);
  // A feed sends nothing until a change: make one.
  if (field.name === 'entrySubmitted') {
    await socket.subscribe(`subscription { topChanged(leaderboardId: "${board}") { version } }`).nextData();
    await submitAll(server, board, [['a', 40]]);
  }
  const first = await sub.next();
  expect(first.errors).toBeUndefined();
  // A second event, from a change, through the same shared execution.
  await submitAll(server, board, [['b', 50]]);
  const second = await sub.next();
  expect(second.errors).toBeUndefined();
  sub.stop();
});
