import type { NodeResolvers } from '../../generated/graphql';
import type { Context } from '../context';
import { type EntryModel, periodRef, type RankWindowModel, type TopUpdateModel, topOnBoard, windowOnBoard } from '../models';
import { periodModel } from './leaderboard';
import { StandingsError } from '../../errors';
import type { Period } from '../../domain/periods/calendar';
import type { BoardConfig } from '../../store/types';
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
  const period = periodOfKey(board, key, leaderboards);
  if (period === null) return null;
  const ref = periodRef(board.id, period);
  if (key.type === 'TopUpdate') return topOnBoard(ref, key.first, await leaderboards.page(ref, { limit: key.first }), periodModel(board, period, leaderboards));
  if (key.type === 'Entry') return loaders.entries(ref).load(key.playerId);
  if ('playerId' in key) {
    const window = await leaderboards.around(ref, key.playerId, key.radius);
    return window && windowOnBoard(ref, window, key);
  }
  return windowOnBoard(ref, await leaderboards.aroundScore(ref, key.score, key.radius), key);
}

/** The period the id names (none: ALL_TIME); null when that period is no longer (or never) kept. */
function periodOfKey(board: BoardConfig, key: NodeKey, leaderboards: Context['leaderboards']): Period | null {
  try {
    return leaderboards.period(board, key.period ?? { kind: 'ALL_TIME', key: 'all' });
  } catch (err) {
    if (err instanceof StandingsError) return null;
    throw err;
  }
}

export const Node: NodeResolvers = {
  // Told apart by a field only their model has (entries carry no id: it is made when asked for).
  __resolveType: (node) => ('version' in node ? 'TopUpdate' : 'entries' in node ? 'RankWindow' : 'Entry'),
};
