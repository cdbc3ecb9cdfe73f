// What the spectator page asks the API; test/unit/web/operations.test.ts validates them against the schema.
const ENTRY = 'playerId rank sharedRank score reachedAt player { displayName country }';

export const BOARD = 'query Board($board: ID!) { leaderboard(id: $board) { id title sortOrder } }';
export const TOP = `subscription Top($board: ID!, $first: Int!) { topChanged(leaderboardId: $board, first: $first) { entries { ${ENTRY} } version } }`;
export const AROUND = `subscription Around($board: ID!, $player: ID!, $radius: Int!) { aroundChanged(leaderboardId: $board, playerId: $player, radius: $radius) { entries { ${ENTRY} } } }`;
