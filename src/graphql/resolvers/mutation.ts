import type { MutationResolvers, SubmitScoreInput } from '../../generated/graphql';
import type { BoardSubmission } from '../../domain/leaderboards';
import type { SubmitResult } from '../../store/types';
import type { Context } from '../context';
import { onBoard, type SubmitScorePayloadModel } from '../models';

export const Mutation: MutationResolvers = {
  async createLeaderboard(_root, { input }, { leaderboards, loaders }) {
    const { board } = await leaderboards.createBoard({ ...input, capacity: input.capacity ?? undefined });
    loaders.forgetBoard(board.id);
    return board;
  },
  async submitScore(_root, { input }, context) {
    const [payload] = await submit([input], context);
    return payload;
  },
  submitScores: (_root, { inputs }, context) => submit(inputs, context),
  async removeEntry(_root, { leaderboardId, playerId }, { leaderboards, loaders }) {
    const removed = await leaderboards.remove(leaderboardId, playerId);
    loaders.forgetBoard(leaderboardId);
    return removed;
  },
  async deleteLeaderboard(_root, { id }, { leaderboards, loaders }) {
    const deleted = await leaderboards.deleteBoard(id);
    loaders.forgetBoard(id);
    return deleted;
  },
  async upsertPlayer(_root, { input }, { players, loaders }) {
    const profile = await players.upsert(input);
    loaders.player.clear(profile.id);
    return profile;
  },
};

async function submit(inputs: SubmitScoreInput[], { leaderboards, loaders }: Context): Promise<SubmitScorePayloadModel[]> {
  const results = await leaderboards.submit(inputs.map(toSubmission));
  for (const boardId of new Set(inputs.map((input) => input.leaderboardId))) loaders.forgetBoard(boardId);
  return results.map((result, i) => toPayload(inputs[i].leaderboardId, result));
}

function toSubmission(input: SubmitScoreInput): BoardSubmission {
  return {
    boardId: input.leaderboardId,
    playerId: input.playerId,
    score: input.score,
    reachedAtMicros: input.reachedAt ?? undefined,
    idempotencyKey: input.idempotencyKey ?? undefined,
  };
}

const toPayload = (boardId: string, result: SubmitResult): SubmitScorePayloadModel => ({
  ...result,
  entry: onBoard(boardId, result.entry),
});
