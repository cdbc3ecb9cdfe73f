import { StandingsError, WriteOutcome } from '../errors';
import type { MutationResolvers, ResolverFn } from '../generated/graphql';
import type { Context } from './context';

/** Unexpected errors of writes: masked as internal, yet the client must still learn it may have been applied. */
const unknownOutcomes = new WeakSet<object>();

/**
 * Every error a mutation field ends with says what became of the write (see WriteOutcome):
 * what the store knows it carries already (UNAVAILABLE), a refusal or a failed check wrote
 * nothing, and anything unexpected may have happened half-way.
 */
export function withWriteOutcomes(mutations: MutationResolvers): MutationResolvers {
  const wrapped: Record<string, ResolverFn<unknown, unknown, Context, any>> = {};
  for (const [field, resolve] of Object.entries(mutations) as [string, ResolverFn<unknown, unknown, Context, any>][]) {
    wrapped[field] = async (parent, args, context, info) => {
      try {
        return await resolve(parent, args, context, info);
      } catch (err) {
        if (err instanceof StandingsError) err.outcome ??= WriteOutcome.NOT_APPLIED;
        else if (typeof err === 'object' && err !== null) unknownOutcomes.add(err);
        throw err;
      }
    };
  }
  return wrapped as MutationResolvers;
}

/** The outcome formatError puts in `extensions.outcome`; undefined for errors of reads. */
export function writeOutcomeOf(error: unknown): WriteOutcome | undefined {
  if (error instanceof StandingsError) return error.outcome;
  return typeof error === 'object' && error !== null && unknownOutcomes.has(error) ? WriteOutcome.UNKNOWN : undefined;
}
