// A board that looks like a real one (names, countries, ties) for the pages to show, and the one
// write the page tests make through the API.
import type { CreateBoardRequest } from '../../src/domain/leaderboards';
import type { TestServer } from '../support/harness';

export const PLAYERS: [id: string, displayName: string | null, country: string | null, score: number][] = [
  ['p01', 'Märta Lindqvist', 'SE', 2412],
  ['p02', 'Kenji Watanabe', 'JP', 2398],
  ['p03', 'Amara Okafor', 'NG', 2398],
  ['p04', 'Lucas Ferreira', 'BR', 2371],
  ['p05', 'Zofia Nowak', 'PL', 2350],
  ['p06', null, null, 2350],
  ['p07', 'Élodie Martin', 'FR', 2350],
  ['p08', 'Arjun Mehta', 'IN', 2322],
  ['p09', 'Sofía Castro', 'AR', 2301],
  ['p10', 'Noah Schmidt', 'DE', 2290],
  ['p11', 'Liam O’Brien', 'IE', 2275],
  ['p12', 'Hana Kim', 'KR', 2260],
];

/** Creates the board with PLAYERS on it (profiles included), through the domain. */
export async function seedBoard(
  server: TestServer, boardId: string, title = 'Blitz · Round 7', periods?: CreateBoardRequest['periods'],
): Promise<void> {
  const { leaderboards, players } = server.server.services;
  await leaderboards.createBoard({ id: boardId, title, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods });
  for (const [id, displayName, country, score] of PLAYERS) {
    if (displayName) await players.upsert({ id, displayName, country });
    await submit(server, boardId, id, score);
  }
}

export async function submit(server: TestServer, boardId: string, playerId: string, score: number): Promise<number> {
  const data = await server.data('mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { entry { rank } } }', {
    input: { leaderboardId: boardId, playerId, score },
  });
  return data.submitScore.entry.rank;
}
