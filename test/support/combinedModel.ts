import type { Aggregate, SortOrder } from '../../src/model';
import type { ModelEntry } from './referenceModel';

/** One ranking of a combined view in the reference: its entries (any order) and weight. */
export interface ModelSource {
  entries: readonly ModelEntry[];
  weight: number;
}

/** (moment, import sequence): the order a board breaks ties by, earlier first. */
const earlier = (a: ModelEntry, b: ModelEntry) =>
  a.reachedAtMicros !== b.reachedAtMicros ? a.reachedAtMicros < b.reachedAtMicros : a.importSeq < b.importSeq;

/**
 * A combined view in its plainest form: per player, the weighted scores put together as
 * ZUNIONSTORE's AGGREGATE does; the tie key is, for MAX and MIN, the earliest (moment, sequence)
 * with which the winning value was reached, for SUM the latest of the player's; then ranked as a
 * board ranks (score in the sort order, moment, sequence).
 */
export function combineModel(sources: readonly ModelSource[], aggregate: Aggregate, sortOrder: SortOrder): ModelEntry[] {
  const players = new Map<string, ModelEntry>();
  for (const { entries, weight } of sources) {
    for (const entry of entries) {
      const value = entry.score * weight;
      const held = players.get(entry.playerId);
      const own = { ...entry, score: value };
      if (!held) players.set(entry.playerId, own);
      else if (aggregate === 'SUM') players.set(entry.playerId, earlier(held, entry) ? { ...own, score: held.score + value } : { ...held, score: held.score + value });
      else if (aggregate === 'MAX' ? value > held.score : value < held.score) players.set(entry.playerId, own);
      else if (value === held.score && earlier(entry, held)) players.set(entry.playerId, own);
    }
  }
  const dir = sortOrder === 'DESCENDING' ? -1 : 1;
  return [...players.values()].sort(
    (a, b) => dir * a.score - dir * b.score || a.reachedAtMicros - b.reachedAtMicros || a.importSeq - b.importSeq,
  );
}
