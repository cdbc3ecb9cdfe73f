import type { EntryResolvers } from '../../generated/graphql';
import { boardNotFound } from '../../errors';
import { encodeNodeId } from '../nodeIds';

export const Entry: EntryResolvers = {
  id: (entry) => encodeNodeId({ type: 'Entry', boardId: entry.boardId, playerId: entry.playerId }),
  reachedAt: (entry) => entry.reachedAtMicros,
  async player(entry, _args, { loaders }) {
    const profile = await loaders.player.load(entry.playerId);
    return profile ?? { id: entry.playerId, displayName: null, country: null, avatarUrl: null };
  },
  async leaderboard(entry, _args, { loaders }) {
    const board = await loaders.board.load(entry.boardId);
    // Only possible when the board was deleted while this request was being resolved.
    if (!board) throw boardNotFound(entry.boardId);
    return board;
  },
};
