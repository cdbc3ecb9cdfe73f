import { checkBoardAccess, checkRole, checkSharedAccess, type Role } from '../domain/access';
import type { MutationResolvers, ResolverFn } from '../generated/graphql';
import type { Context } from './context';
import { refusalOf } from './userErrors';
import { noteWriteOutcome } from './writeOutcomes';

type Field = keyof Required<MutationResolvers>;
type ArgsOf<F extends Field> = Parameters<Extract<NonNullable<MutationResolvers[F]>, ResolverFn<any, any, any, any>>>[1];

interface Rule<F extends Field> {
  role: Role;
  /** The boards the call changes, checked against a key's board prefix. */
  boards?: (args: ArgsOf<F>) => string[];
  /** What the call changes that every board shows: a key limited to some boards may not (see checkSharedAccess). */
  shared?: string;
}

/**
 * Who may call each mutation, in one place: a new mutation does not compile until it has a rule.
 * Reads need no rule: every request that gets this far is at least a reader (an unknown key, or
 * none while anonymous reads are off, is refused before any field runs).
 */
const MUTATION_RULES: { [F in Field]: Rule<F> } = {
  createLeaderboard: { role: 'admin', boards: ({ input }) => [input.id] },
  deleteLeaderboard: { role: 'admin', boards: ({ id }) => [id] },
  submitScore: { role: 'writer', boards: ({ input }) => [input.leaderboardId] },
  submitScores: { role: 'writer', boards: ({ inputs }) => inputs.map((input) => input.leaderboardId) },
  removeEntry: { role: 'writer', boards: ({ leaderboardId }) => [leaderboardId] },
  upsertPlayer: { role: 'writer', shared: 'player profiles' },
  removeEntriesByScore: { role: 'admin', boards: ({ input }) => [input.leaderboardId] },
  keepTopEntries: { role: 'admin', boards: ({ input }) => [input.leaderboardId] },
  removeEntries: { role: 'admin', boards: ({ input }) => [input.leaderboardId] },
  updateLeaderboard: { role: 'admin', boards: ({ input }) => [input.id] },
  addSeasons: { role: 'admin', boards: ({ input }) => [input.leaderboardId] },
  deletePlayer: { role: 'writer', shared: 'player profiles' },
};

/**
 * The mutations, each checking its rule against the request's key before it runs. An expected
 * failure that wrote nothing becomes the payload's `userErrors` (see refusalOf), so that the other
 * fields of the request keep their results; any other error stays the field's error, saying what
 * became of the write (see noteWriteOutcome).
 */
export function guardMutations(mutations: MutationResolvers): MutationResolvers {
  const guarded: Record<string, ResolverFn<unknown, unknown, Context, any>> = {};
  for (const [field, resolve] of Object.entries(mutations) as [Field, ResolverFn<unknown, unknown, Context, any>][]) {
    const rule = MUTATION_RULES[field] as Rule<Field>;
    guarded[field] = async (parent, args, context, info) => {
      try {
        checkRole(context.principal, rule.role, field);
        if (rule.shared) checkSharedAccess(context.principal, rule.shared, field);
        const boards = rule.boards?.(args) ?? [];
        boards.forEach((boardId, i) => checkBoardAccess(context.principal, boardId, boards.length > 1 ? i : undefined));
        return await resolve(parent, args, context, info);
      } catch (err) {
        noteWriteOutcome(err);
        const refused = refusalOf(err, field, args, context.observeUserError);
        if (refused) return refused;
        throw err;
      }
    };
  }
  return guarded as MutationResolvers;
}
