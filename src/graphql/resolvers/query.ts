import type { LeaderboardConnectionResolvers, QueryResolvers } from '../../generated/graphql';
import { checkBatchSize } from '../../domain/validation';
import type { BoardConfig, BoardRef } from '../../model';
import { refOnBoard } from '../models';
import { entryFieldsOf } from '../selection';
import { combined } from './combined';
import { type NodeModel, resolveNode } from './node';

export const Query: QueryResolvers = {
  leaderboard: (_root, { id }, { loaders }) => loaders.board(id),
  async leaderboards(_root, { first, after }, { leaderboards, loaders }) {
    const { ids, hasMore } = await leaderboards.listBoards(first, after ?? undefined);
    const boards = await Promise.all(ids.map((id) => loaders.board(id)));
    // A board deleted between listing and reading is simply left out.
    const nodes = boards.filter((board): board is BoardConfig => board !== null);
    return {
      nodes,
      edges: nodes.map((node) => ({ cursor: node.id, node })),
      pageInfo: {
        hasNextPage: hasMore,
        hasPreviousPage: after != null,
        startCursor: nodes[0]?.id ?? null,
        endCursor: nodes[nodes.length - 1]?.id ?? null,
      },
    };
  },
  async entries(_root, { leaderboardId, playerIds, period }, { loaders, leaderboards }, info) {
    if (playerIds.length === 0) return [];
    checkBatchSize(playerIds.length, 'playerIds');
    let board: BoardRef = leaderboardId;
    if (period != null) {
      const config = await loaders.board(leaderboardId);
      if (!config) return playerIds.map(() => null);
      board = refOnBoard(leaderboardId, leaderboards.period(config, period));
    }
    return loaders.entries(board, entryFieldsOf(info)).loadMany(playerIds);
  },
  combined,
  player: (_root, { id }, { loaders }) => loaders.player.load(id),
  node: (_root, { id }, context, info) => resolveNode(id, context, entryFieldsOf(info)),
  nodes(_root, { ids }, context, info) {
    if (ids.length === 0) return [];
    checkBatchSize(ids.length, 'ids');
    const fields = entryFieldsOf(info);
    // Each id's read by itself: one refused (a limit, an outage) is an error of its own item, not
    // of the list. The items may be null (codegen's types want a null outside the promise).
    return ids.map((id) => resolveNode(id, context, fields) as Promise<NodeModel>);
  },
};

/** Counted only when a request selects it: listing a page needs no count of every board. */
export const LeaderboardConnection: LeaderboardConnectionResolvers = {
  totalCount: (_connection, _args, { leaderboards }) => leaderboards.countBoards(),
};
