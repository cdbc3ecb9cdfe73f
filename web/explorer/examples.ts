// The operations a new explorer opens with, one tab each, on the board the README's examples use
// (test/unit/web/operations.test.ts validates them against the schema).
export const EXAMPLE_VARIABLES = JSON.stringify({ board: 'blitz' }, null, 2);

const TABS = [
  `# Standings: fair, live leaderboards.
# Docs: the book icon on the left. A key goes in
# Headers: {"Authorization": "Bearer <key>"}
query Board($board: ID!) {
  leaderboard(id: $board) {
    id
    title
    sortOrder
    entries(first: 10) {
      nodes { rank sharedRank playerId score reachedAt player { displayName country } }
    }
  }
}`,
  `# Needs an admin key. The same call again with
# the same settings returns the board.
mutation CreateBoard($board: ID!) {
  createLeaderboard(input: { id: $board, title: "Blitz", sortOrder: DESCENDING, updatePolicy: BEST }) {
    leaderboard { id title }
    userErrors { code field message }
  }
}`,
  `# Needs a writer key. Equal scores rank by who reached them first.
mutation Submit($board: ID!) {
  submitScore(input: { leaderboardId: $board, playerId: "5512", score: 2140 }) {
    entry { playerId rank sharedRank score reachedAt }
    userErrors { code field message }
  }
}`,
  `# Time windows, on a board created with
# periods: { kinds: [{ kind: ALL_TIME }, { kind: DAILY }] }:
# today's top, and a ranking combined from boards.
query Windows($board: ID!) {
  leaderboard(id: $board) {
    today: period(of: { kind: DAILY }) {
      key start end
      entries(first: 5) { nodes { rank playerId score } }
    }
  }
  best: combined(aggregate: MAX, sources: [{ leaderboardId: $board }]) {
    entries(first: 5) { nodes { rank playerId score } }
  }
}`,
  `# Over a WebSocket on the same URL: the top now,
# then every change. Submit in another tab to see it.
subscription Top($board: ID!) {
  topChanged(leaderboardId: $board, first: 5) {
    entries { rank sharedRank playerId score }
    version
  }
}`,
];

export function exampleTabs(headers: string) {
  return TABS.map((query) => ({ query, variables: EXAMPLE_VARIABLES, headers }));
}
