// The shared tie scenarios (../shared/vectors/ties.json, or the copy in test/data), driven
// entirely through the GraphQL API.
import { uniqueId } from '../support/redis';
import { loadTieCases } from '../support/tiesVectors';
import { createBoard, SUBMIT, TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

describe.each(loadTieCases().map((c) => [c.name, c] as const))('tie scenario: %s', (_name, scenario) => {
  it('shows the expected order in pages, per-player lookups and submit results', async () => {
    const boardId = uniqueId('ties');
    await createBoard(server, boardId, scenario.board.sortOrder, scenario.board.updatePolicy);
    for (const op of scenario.ops) {
      const { submitScore } = await server.data(SUBMIT, {
        input: { leaderboardId: boardId, playerId: op.playerId, score: op.score, reachedAt: op.reachedAt },
      });
      expect(submitScore.entry.playerId).toBe(op.playerId);
      if (op.reachedAt !== undefined && submitScore.changed) {
        expect(Date.parse(submitScore.entry.reachedAt)).toBe(Date.parse(op.reachedAt));
      }
    }

    const { leaderboard } = await server.data(`query ($id: ID!) {
      leaderboard(id: $id) { totalCount entries(first: 100) { nodes { playerId score rank sharedRank } } }
    }`, { id: boardId });
    expect(leaderboard.totalCount).toBe(scenario.expect.length);
    expect(leaderboard.entries.nodes).toHaveLength(scenario.expect.length);
    scenario.expect.forEach((want, i) => expect(leaderboard.entries.nodes[i]).toMatchObject(want));

    const { entries } = await server.data(`query ($id: ID!, $players: [ID!]!) {
      entries(leaderboardId: $id, playerIds: $players) { playerId score rank sharedRank }
    }`, { id: boardId, players: [...scenario.expect].reverse().map((want) => want.playerId) });
    [...scenario.expect].reverse().forEach((want, i) => expect(entries[i]).toMatchObject(want));
  });
});
