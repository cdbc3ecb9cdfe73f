import { getOperationAST, getVariableValues, parse, validate } from 'graphql';
import { MAX_PAGE_SIZE, MAX_RADIUS } from '../../../src/domain/limits';
import { subscriptionCost } from '../../../src/graphql/liveCost';
import { buildSchema } from '../../../src/graphql/schema';

const schema = buildSchema();

/** The cost of the document's one operation (valid) with `variables`, coerced as the WebSocket server coerces them. */
function costOf(query: string, variables: Record<string, unknown> = {}): number {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const operation = getOperationAST(document)!;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) throw new Error(coerced.errors.map((error) => error.message).join('; '));
  return subscriptionCost(schema, { document, operation }, coerced.coerced);
}

it('counts the entries each update may carry, by field', () => {
  expect(costOf('subscription { aroundChanged(leaderboardId: "b", playerId: "p", radius: 500) { entries { rank } } }')).toBe(1001);
  expect(costOf('subscription { aroundChanged(leaderboardId: "b", playerId: "p", radius: 0) { entries { rank } } }')).toBe(1);
  expect(costOf('subscription { topChanged(leaderboardId: "b", first: 250) { version } }')).toBe(250);
  expect(costOf('subscription { rankChanged(leaderboardId: "b", playerId: "p") { cause } }')).toBe(1);
  expect(costOf('subscription { entrySubmitted(leaderboardId: "b") { previousRank } }')).toBe(1);
});

it('counts the schema defaults of arguments left out', () => {
  expect(costOf('subscription { aroundChanged(leaderboardId: "b", playerId: "p") { entries { rank } } }')).toBe(11);
  expect(costOf('subscription { topChanged(leaderboardId: "b") { version } }')).toBe(10);
});

it('counts a variable as the value it has, as a literal, and a variable left out as its default', () => {
  const around = 'subscription ($r: Int) { aroundChanged(leaderboardId: "b", playerId: "p", radius: $r) { entries { rank } } }';
  expect(costOf(around, { r: 40 })).toBe(81);
  expect(costOf(around)).toBe(11);
  expect(costOf('subscription ($r: Int = 7) { aroundChanged(leaderboardId: "b", playerId: "p", radius: $r) { entries { rank } } }')).toBe(15);
  expect(costOf('subscription ($n: Int!) { topChanged(leaderboardId: "b", first: $n) { version } }', { n: 300 })).toBe(300);
});

it('finds the field through fragments, aliases, @include and @skip, as graphql-js does', () => {
  const spread = `subscription { ...Window }
    fragment Window on Subscription { w: aroundChanged(leaderboardId: "b", playerId: "p", radius: 20) { entries { rank } } }`;
  expect(costOf(spread)).toBe(41);
  expect(costOf('subscription { ... on Subscription { topChanged(leaderboardId: "b", first: 30) { version } } }')).toBe(30);
  expect(costOf('subscription { topChanged(leaderboardId: "b", first: 30) @include(if: true) { version } }')).toBe(30);
  // Nothing selected: subscribing fails on its own, and holds nothing.
  expect(costOf('subscription { topChanged(leaderboardId: "b", first: 30) @skip(if: true) { version } }')).toBe(0);
});

it('counts sizes out of range (which the live layer refuses) as the largest allowed', () => {
  expect(costOf('subscription { aroundChanged(leaderboardId: "b", playerId: "p", radius: 100000) { entries { rank } } }')).toBe(2 * MAX_RADIUS + 1);
  expect(costOf('subscription { aroundChanged(leaderboardId: "b", playerId: "p", radius: -3) { entries { rank } } }')).toBe(1);
  expect(costOf('subscription ($n: Int) { topChanged(leaderboardId: "b", first: $n) { version } }', { n: 5000 })).toBe(MAX_PAGE_SIZE);
  expect(costOf('subscription ($n: Int) { topChanged(leaderboardId: "b", first: $n) { version } }', { n: null })).toBe(0);
});
