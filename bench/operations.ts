/**
 * The GraphQL operations the service benches send, as a client would: fixed query text (so
 * every server can cache the parsed document) with the player and score in variables.
 */
import { BOARD_ID, playerId, seededRandom } from './fixtures';

export interface Operation {
  name: string;
  query: string;
  /** Variables for one request against a board of `members` players. */
  variables(random: (below: number) => number, members: number): Record<string, unknown>;
}

const onePlayer = (random: (below: number) => number, members: number) => ({
  id: BOARD_ID, playerId: playerId(random(members)),
});

export const submitScore: Operation = {
  name: 'submitScore',
  query: 'mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { entry { playerId score rank } changed } }',
  // An existing player and a new random score: the board keeps its size and the entry moves.
  variables: (random, members) => ({
    input: { leaderboardId: BOARD_ID, playerId: playerId(random(members)), score: random(3001) },
  }),
};

export const entry: Operation = {
  name: 'entry',
  query: 'query ($id: ID!, $playerId: ID!) { leaderboard(id: $id) { entry(playerId: $playerId) { playerId score rank } } }',
  variables: onePlayer,
};

export const entries100: Operation = {
  name: 'entries(100 ids)',
  query: 'query ($id: ID!, $playerIds: [ID!]!) { entries(leaderboardId: $id, playerIds: $playerIds) { playerId score rank } }',
  variables: (random, members) => ({
    id: BOARD_ID, playerIds: Array.from({ length: 100 }, () => playerId(random(members))),
  }),
};

export const top10: Operation = {
  name: 'top 10',
  query: 'query ($id: ID!) { leaderboard(id: $id) { entries(first: 10) { nodes { playerId score rank } } } }',
  variables: () => ({ id: BOARD_ID }),
};

export const around: Operation = {
  name: 'around(radius 5)',
  query: 'query ($id: ID!, $playerId: ID!) { leaderboard(id: $id) { around(playerId: $playerId, radius: 5) { center { rank } entries { playerId score rank } } } }',
  variables: onePlayer,
};

/**
 * Request bodies for `operation`, the same for every contender (fixed seed): a bench cycles
 * through them instead of building JSON while it measures.
 */
export function requestBodies(operation: Operation, members: number, count = 2000): string[] {
  const random = seededRandom(members + operation.name.length);
  return Array.from({ length: count }, () =>
    JSON.stringify({ query: operation.query, variables: operation.variables(random, members) }));
}
