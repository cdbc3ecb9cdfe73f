import type { MutationResolvers } from '../../generated/graphql';

/**
 * Issue 14's clean-up mutations (schema/cleanup.graphql), guarded and reported as the others in
 * mutation.ts are. The domain forgets its cached reads of the board; the request's loaders are
 * forgotten here, so that a read later in the same request sees the change.
 */
export const CleanupMutation: MutationResolvers = {
  async removeEntriesByScore(_root, { input }, { leaderboards, loaders }) {
    const removedCount = await leaderboards.removeByScore(input);
    loaders.forgetBoard(input.leaderboardId);
    return { removedCount, userErrors: [] };
  },
  async keepTopEntries(_root, { input }, { leaderboards, loaders }) {
    const removedCount = await leaderboards.keepTop(input);
    loaders.forgetBoard(input.leaderboardId);
    return { removedCount, userErrors: [] };
  },
  async removeEntries(_root, { input }, { leaderboards, loaders }) {
    const removedCount = await leaderboards.removeEntries(input);
    loaders.forgetBoard(input.leaderboardId);
    return { removedCount, userErrors: [] };
  },
  async updateLeaderboard(_root, { input }, { leaderboards, loaders }) {
    const { board, changed } = await leaderboards.updateBoard({
      ...input,
      updatePolicy: input.updatePolicy ?? undefined,
      sortOrder: input.sortOrder ?? undefined,
      capacity: input.capacity ?? undefined,
      denseRanks: input.denseRanks ?? undefined,
    });
    loaders.forgetBoard(board.id);
    return { leaderboard: board, changed, userErrors: [] };
  },
  async deletePlayer(_root, { id }, { players, loaders }) {
    const deleted = await players.delete(id);
    loaders.player.clear(id);
    return { deleted, userErrors: [] };
  },
};
