import { StandingsError, WriteOutcome } from '../errors';

/** Unexpected errors of writes: masked as internal, yet the client must still learn it may have been applied. */
const unknownOutcomes = new WeakSet<object>();

/**
 * Records what became of a write whose mutation field ended with `err`: what the store knows it
 * carries already (UNAVAILABLE), a refusal or a failed check wrote nothing, and anything
 * unexpected may have happened half-way.
 */
export function noteWriteOutcome(err: unknown): void {
  if (err instanceof StandingsError) err.outcome ??= WriteOutcome.NOT_APPLIED;
  else if (typeof err === 'object' && err !== null) unknownOutcomes.add(err);
}

/** The outcome formatError puts in `extensions.outcome`; undefined for errors of reads. */
export function writeOutcomeOf(error: unknown): WriteOutcome | undefined {
  if (error instanceof StandingsError) return error.outcome;
  return typeof error === 'object' && error !== null && unknownOutcomes.has(error) ? WriteOutcome.UNKNOWN : undefined;
}
