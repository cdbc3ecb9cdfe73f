// What the spectator page asks the API; test/unit/web/operations.test.ts validates them against the schema.
const ENTRY = 'playerId rank sharedRank score reachedAt player { displayName country }';

export const BOARD = 'query Board($board: ID!) { leaderboard(id: $board) { id title sortOrder periods { kind key } } }';
export const TOP = `subscription Top($board: ID!, $first: Int!, $period: PeriodInput) { topChanged(leaderboardId: $board, first: $first, period: $period) { period { kind key start end } entries { ${ENTRY} } version } }`;
export const AROUND = `subscription Around($board: ID!, $player: ID!, $radius: Int!, $period: PeriodInput) { aroundChanged(leaderboardId: $board, playerId: $player, radius: $radius, period: $period) { entries { ${ENTRY} } } }`;
export const SUBMITTED = `subscription Submitted($board: ID!, $period: PeriodInput) { entrySubmitted(leaderboardId: $board, period: $period) { entry { ${ENTRY} } previousScore previousRank } }`;
