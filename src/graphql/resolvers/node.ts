import type { NodeResolvers } from '../../generated/graphql';
import type { Context } from '../context';
import { type EntryModel, type RankWindowModel, type TopUpdateModel, topOnBoard, windowOnBoard } from '../models';
import { decodeNodeId } from '../nodeIds';

type NodeModel = EntryModel | RankWindowModel | TopUpdateModel;

/**
 * The object a Node id names, read now; null when the id is not one of ours or the object is
 * gone (no such board, no score). Reads go through the request's loaders like any other field.
 */
export async function resolveNode(id: string, { leaderboards, loaders }: Context): Promise<NodeModel | null> {
  const key = decodeNodeId(id);
  if (!key) return null;
  if (key.type === 'Entry') return loaders.entries(key.boardId).load(key.playerId);
  // Windows and tops of a board that does not exist read as empty: they are no objects either.
  if (!(await loaders.board.load(key.boardId))) return null;
  if (key.type === 'TopUpdate') return topOnBoard(key.boardId, key.first, await leaderboards.page(key.boardId, { limit: key.first }));
  if ('playerId' in key) {
    const window = await leaderboards.around(key.boardId, key.playerId, key.radius);
    return window && windowOnBoard(key.boardId, window, key);
  }
  return windowOnBoard(key.boardId, await leaderboards.aroundScore(key.boardId, key.score, key.radius), key);
}

export const Node: NodeResolvers = {
  // Told apart by a field only their model has (entries carry no id: it is made when asked for).
  __resolveType: (node) => ('version' in node ? 'TopUpdate' : 'entries' in node ? 'RankWindow' : 'Entry'),
};
