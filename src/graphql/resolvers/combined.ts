import type { CombinedViewResolvers, QueryResolvers } from '../../generated/graphql';
import { boardNotFound } from '../../errors';
import { periodOnBoard } from '../models';
import { encodeNodeId } from '../nodeIds';

/** `Query.combined`: the view, built or still fresh (the domain checks every source). */
export const combined: QueryResolvers['combined'] = (_root, { sources, aggregate }, { leaderboards, viewBudget }) =>
  leaderboards.combined(sources, aggregate, viewBudget);

/** A view's own fields; its reads are a board's (RankingReads, RangeReads). */
export const CombinedView: CombinedViewResolvers = {
  id: (view) => encodeNodeId({ type: 'CombinedView', view }),
  sources: (view, _args, { loaders, leaderboards }) => Promise.all(view.sources.map(async ({ boardId, kind, key, weight }) => {
    const board = await loaders.board(boardId);
    // Only possible when the board was deleted while this request was being resolved.
    if (!board) throw boardNotFound(boardId);
    return { period: periodOnBoard(board, leaderboards.period(board, { kind, key })), weight };
  })),
};
