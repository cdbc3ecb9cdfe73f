import type { NodeResolvers } from '../../generated/graphql';
import type { Context } from '../context';
import {
  type CombinedViewModel, type EntryModel, type PeriodModel, type PeriodName, type RankWindowModel, type TopUpdateModel, isPeriod, isView, periodOnBoard,
  refOnBoard, topOnBoard, windowOnBoard,
} from '../models';
import { ErrorCode, StandingsError } from '../../errors';
import type { Aggregate, BoardConfig, EntryFields, RankingRef } from '../../model';
import type { Period } from '../../domain/periods/calendar';
import { decodeNodeId, type NodeKey, type ViewName } from '../nodeIds';

export type NodeModel = EntryModel | RankWindowModel | TopUpdateModel | PeriodModel | CombinedViewModel;

/**
 * The object a Node id names, read now; null when the id is not one of ours or the object is
 * gone (no such board, no score, a period no longer kept). Reads go through the request's loaders
 * like any other field; an entry's with the `fields` its selection needs.
 */
export async function resolveNode(id: string, context: Context, fields: EntryFields): Promise<NodeModel | null> {
  const key = decodeNodeId(id);
  if (!key) return null;
  if (key.type === 'CombinedView') return openView(key.view, context);
  if ((key.type === 'Entry' || key.type === 'RankWindow') && key.view) {
    const view = await openView(key.view, context);
    return view && readOn({ view }, key, context, fields);
  }
  const { leaderboards, loaders } = context;
  const board = await loaders.board(key.boardId);
  // Objects of a board that does not exist read as nothing.
  if (!board) return null;
  if (key.type === 'Period') {
    const period = await keptPeriod(board, key.period, leaderboards);
    return period && periodOnBoard(board, period);
  }
  // Ids without a period were made by ALL_TIME reads.
  const period = await keptPeriod(board, key.period ?? { kind: 'ALL_TIME', key: 'all' }, leaderboards);
  if (period === null) return null;
  const ref = refOnBoard(board.id, period);
  if (key.type === 'TopUpdate') return topOnBoard(ref, key.first, await leaderboards.page(ref, { limit: key.first }), periodOnBoard(board, period));
  return readOn(ref, key, context, fields);
}

/** The entry or window an id names, read on a board's period or a view. */
async function readOn(
  ref: RankingRef, key: Extract<NodeKey, { type: 'Entry' | 'RankWindow' }>, { leaderboards, loaders }: Context, fields: EntryFields,
): Promise<EntryModel | RankWindowModel | null> {
  if (key.type === 'Entry') return loaders.entries(ref, fields).load(key.playerId);
  if ('playerId' in key) {
    const window = await leaderboards.around(ref, key.playerId, key.radius);
    return window && windowOnBoard(ref, window, key);
  }
  return windowOnBoard(ref, await leaderboards.aroundScore(ref, key.score, key.radius), key);
}

/** The view an id names, opened (built if it is not fresh); null when it cannot be (a board gone, a period no longer kept). */
function openView({ aggregate, sources }: ViewName, { leaderboards, viewBudget }: Context): Promise<CombinedViewModel | null> {
  return orNull(() => leaderboards.combined(
    sources.map(({ boardId, kind, key, weight }) => ({ leaderboardId: boardId, period: { kind, key }, weight })), aggregate as Aggregate, viewBudget,
  ));
}

/** The period an id names; null when it is no longer (or never) kept. */
function keptPeriod(board: BoardConfig, name: PeriodName, leaderboards: Context['leaderboards']): Promise<Period | null> {
  return orNull(() => leaderboards.period(board, name));
}

/** Why the domain refuses to read what an id names when that object is not there (rather than the request refused, or Redis down). */
const GONE: ReadonlySet<string> = new Set([ErrorCode.NOT_FOUND, ErrorCode.BAD_USER_INPUT]);

/**
 * What `read` gives, or null when the object an id names is not there. Refusals of the request
 * itself (a limit, RATE_LIMITED) and outages are errors of the field, as for any other read.
 */
async function orNull<T>(read: () => T | Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof StandingsError && GONE.has(err.code)) return null;
    throw err;
  }
}

export const Node: NodeResolvers = {
  // Told apart by a field only their model has (entries carry no id: it is made when asked for).
  __resolveType: (node) =>
    (isView(node) ? 'CombinedView' : isPeriod(node) ? 'Period' : 'version' in node ? 'TopUpdate' : 'entries' in node ? 'RankWindow' : 'Entry'),
};
