import type { NodeResolvers } from '../../generated/graphql';
import type { Context } from '../context';
import { type EntryModel, type RankWindowModel, type TopUpdateModel, topOnBoard, windowOnBoard } from '../models';
import { StandingsError } from '../../errors';
import type { BoardConfig, BoardRef } from '../../store/types';
import { decodeNodeId, type NodeKey } from '../nodeIds';

type NodeModel = EntryModel | RankWindowModel | TopUpdateModel;

/**
 * The object a Node id names, read now; null when the id is not one of ours or the object is
 * gone (no such board, no score). Reads go through the request's loaders like any other field.
 */
export async function resolveNode(id: string, { leaderboards, loaders }: Context): Promise<NodeModel | null> {
  const key = decodeNodeId(id);
  if (!key) return null;
  const board = await loaders.board.load(key.boardId);
  // Objects of a board that does not exist read as nothing.
  if (!board) return null;
  if (key.type === 'TopUpdate') return topOnBoard(key.boardId, key.first, await leaderboards.page(key.boardId, { limit: key.first }));
  const ref = periodRef(board, key, leaderboards);
  if (ref === null) return null;
  if (key.type === 'Entry') return loaders.entries(ref).load(key.playerId);
  if ('playerId' in key) {
    const window = await leaderboards.around(ref, key.playerId, key.radius);
    return window && windowOnBoard(ref, window, key);
  }
  return windowOnBoard(ref, await leaderboards.aroundScore(ref, key.score, key.radius), key);
}

/** What the object's reads take: the board, or the period it names; null when that period is no longer (or never) kept. */
function periodRef(board: BoardConfig, key: Exclude<NodeKey, { type: 'TopUpdate' }>, leaderboards: Context['leaderboards']): BoardRef | null {
  if (!key.period) return board.id;
  try {
    const { kind, key: name } = leaderboards.period(board, key.period);
    return { boardId: board.id, kind, key: name };
  } catch (err) {
    if (err instanceof StandingsError) return null;
    throw err;
  }
}

export const Node: NodeResolvers = {
  // Told apart by a field only their model has (entries carry no id: it is made when asked for).
  __resolveType: (node) => ('version' in node ? 'TopUpdate' : 'entries' in node ? 'RankWindow' : 'Entry'),
};
