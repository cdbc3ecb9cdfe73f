import type { MutationResolvers, SubmitScoreInput } from '../../generated/graphql';
import type { BoardSubmission } from '../../domain/leaderboards';
import type { SubmitResult } from '../../model';
import { onBoard, type SubmitScoreResultModel } from '../models';

/**
 * Each mutation answers its payload with empty `userErrors`: the guard (src/graphql/mutationGuard.ts)
 * turns an expected failure into the payload that reports it (src/graphql/userErrors.ts).
 */
export const Mutation: MutationResolvers = {
  async createLeaderboard(_root, { input }, { leaderboards, loaders }) {
    const { board } = await leaderboards.createBoard({ ...input, capacity: input.capacity ?? undefined, denseRanks: input.denseRanks ?? undefined });
    loaders.forgetBoard(board.id);
    return { leaderboard: board, userErrors: [] };
  },
  async submitScore(_root, { input }, { leaderboards, loaders }) {
    const result = await leaderboards.submitOne(toSubmission(input));
    loaders.forgetBoard(input.leaderboardId);
    return { ...toResult(input.leaderboardId, result), userErrors: [] };
  },
  async submitScores(_root, { inputs }, { leaderboards, loaders }) {
    const results = await leaderboards.submit(inputs.map(toSubmission));
    for (const boardId of new Set(inputs.map((input) => input.leaderboardId))) loaders.forgetBoard(boardId);
    return { results: results.map((result, i) => toResult(inputs[i].leaderboardId, result)), userErrors: [] };
  },
  async removeEntry(_root, { leaderboardId, playerId }, { leaderboards, loaders }) {
    const removed = await leaderboards.remove(leaderboardId, playerId);
    loaders.forgetBoard(leaderboardId);
    return { removed, userErrors: [] };
  },
  async deleteLeaderboard(_root, { id }, { leaderboards, loaders }) {
    const deleted = await leaderboards.deleteBoard(id);
    loaders.forgetBoard(id);
    return { deleted, userErrors: [] };
  },
  async addSeasons(_root, { input }, { leaderboards, loaders }) {
    const { board, changed } = await leaderboards.addSeasons(input);
    loaders.forgetBoard(board.id);
    return { leaderboard: board, changed, userErrors: [] };
  },
  async upsertPlayer(_root, { input }, { players, loaders }) {
    const player = await players.upsert(input);
    loaders.player.clear(player.id);
    return { player, userErrors: [] };
  },
};

function toSubmission(input: SubmitScoreInput): BoardSubmission {
  return {
    boardId: input.leaderboardId,
    playerId: input.playerId,
    score: input.score,
    reachedAtMicros: input.reachedAt ?? undefined,
    idempotencyKey: input.idempotencyKey ?? undefined,
  };
}

const toResult = (boardId: string, result: SubmitResult): SubmitScoreResultModel => ({
  ...result,
  entry: onBoard(result.period ? { boardId, ...result.period } : boardId, result.entry),
});
