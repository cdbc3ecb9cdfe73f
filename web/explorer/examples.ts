// The operations a new explorer opens with, one tab each. The first, Start, makes the board every
// other tab uses, with the periods and scores they read, so that each works on a fresh
// `npm start` (which puts its admin key in the headers). test/unit/web/operations.test.ts
// validates them against the schema; test/browser/explorer.browser.test.ts runs them in order.
export const EXAMPLE_BOARD = 'sandbox';
export const EXAMPLE_VARIABLES = JSON.stringify({ board: EXAMPLE_BOARD }, null, 2);

// Comments are a sentence a line: the editors wrap what is wider than they are (see main.tsx).
const TABS = [
  `# Start here: run this first (the ▶ button).
# It makes the board the other tabs use, with a daily ranking and a few scores; running it again changes nothing.
# Writes need an admin key in Headers (below): npm start puts its own there.
# Docs: the book icon on the left.
mutation Start($board: ID!) {
  createLeaderboard(input: {
    id: $board, title: "Sandbox"
    sortOrder: DESCENDING, updatePolicy: BEST
    periods: { kinds: [{ kind: ALL_TIME }, { kind: DAILY }] }
  }) {
    leaderboard { id title }
    userErrors { code field message }
  }
  ada: upsertPlayer(input: { id: "ada", displayName: "Ada", country: "GB" }) {
    userErrors { code field message }
  }
  kenji: upsertPlayer(input: { id: "kenji", displayName: "Kenji", country: "JP" }) {
    userErrors { code field message }
  }
  submitScores(inputs: [
    { leaderboardId: $board, playerId: "ada", score: 2412 }
    { leaderboardId: $board, playerId: "kenji", score: 2398 }
    { leaderboardId: $board, playerId: "amara", score: 2398 }
    { leaderboardId: $board, playerId: "lucas", score: 2371 }
  ]) {
    results { entry { rank sharedRank playerId score } }
    userErrors { code field message }
  }
}`,
  `# The top 10 (run Start first).
# Equal scores rank by who reached them first; sharedRank counts them as tied.
query Board($board: ID!) {
  leaderboard(id: $board) {
    title
    entries(first: 10) {
      nodes {
        rank sharedRank score playerId
        player { displayName }
      }
    }
  }
}`,
  `# Needs a writer key (the admin key will do).
# Under updatePolicy BEST only a better score changes the entry.
mutation Submit($board: ID!) {
  submitScore(input: { leaderboardId: $board, playerId: "zofia", score: 2405 }) {
    entry { playerId rank sharedRank score reachedAt }
    changed
    userErrors { code field message }
  }
}`,
  `# Time windows: today's top (Start made the board keep DAILY as well as ALL_TIME), and a ranking combined from boards, here from one.
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
  `# Over a WebSocket on the same URL: the top now, then every change.
# Submit in another tab to see it.
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
