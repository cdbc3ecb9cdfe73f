import type { EntryResolvers } from '../../generated/graphql';
import { boardNotFound } from '../../errors';
import type { Loaders } from '../loaders';
import { type EntryModel, periodOnBoard } from '../models';
import { encodeNodeId } from '../nodeIds';

export const Entry: EntryResolvers = {
  id: (entry) => encodeNodeId({ type: 'Entry', boardId: entry.boardId, period: entry.period, view: entry.view, playerId: entry.playerId }),
  reachedAt: (entry) => entry.reachedAtMicros,
  sharedRank(entry) {
    // Left out of a read only when no `sharedRank` was selected below it (selection.ts).
    if (entry.sharedRank === undefined) throw new Error(`the entry of ${entry.playerId} was read without its shared rank`);
    return entry.sharedRank;
  },
  async player(entry, _args, { loaders }) {
    const profile = await loaders.player.load(entry.playerId);
    return profile ?? { id: entry.playerId, displayName: null, country: null, avatarUrl: null };
  },
  leaderboard: (entry, _args, { loaders }) => boardOf(entry, loaders),
  // Told by the entry's identity (its id names the same period), so that every read of one entry
  // gives it the same ranking, whichever way it was reached.
  async ranking(entry, _args, { loaders, leaderboards }) {
    if (entry.view) return entry.view;
    const board = await boardOf(entry, loaders);
    return entry.period ? periodOnBoard(board, leaderboards.period(board, entry.period)) : board;
  },
};

async function boardOf(entry: EntryModel, loaders: Loaders) {
  const board = await loaders.board(entry.boardId);
  // Only possible when the board was deleted while this request was being resolved.
  if (!board) throw boardNotFound(entry.boardId);
  return board;
}
