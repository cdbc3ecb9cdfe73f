import type { EntryResolvers } from '../../generated/graphql';
import { boardNotFound } from '../../errors';
import { encodeNodeId } from '../nodeIds';

export const Entry: EntryResolvers = {
  id: (entry) => encodeNodeId({ type: 'Entry', boardId: entry.boardId, period: entry.period, playerId: entry.playerId }),
  reachedAt: (entry) => entry.reachedAtMicros,
  async player(entry, _args, { loaders }) {
    const profile = await loaders.player.load(entry.playerId);
    return profile ?? { id: entry.playerId, displayName: null, country: null, avatarUrl: null };
  },
  async leaderboard(entry, _args, { loaders, leaderboards }) {
    const board = await loaders.board.load(entry.boardId);
    // Only possible when the board was deleted while this request was being resolved.
    if (!board) throw boardNotFound(entry.boardId);
    // An entry read on a period belongs to the board as scoped to that period.
    return entry.period ? { ...board, period: leaderboards.period(board, entry.period) } : board;
  },
};
