import type { Changes } from './changes';
import { RankIndex } from './rankIndex';
import { PlayerWatch, type Watch } from './watches';

export type AnyWatch = Watch<unknown, unknown>;

/**
 * A board's watches, by their key and by what they show: their player, the ranks and the scores
 * of their last read. The watches a change touches are found by range and key lookups, not a
 * scan, so a write costs work for the watches it can have changed only.
 */
export class WatchIndex {
  private readonly byKey = new Map<string, AnyWatch>();
  private readonly points = new RankIndex<AnyWatch>();
  private readonly windows = new RankIndex<AnyWatch>();
  private readonly byPlayer = new Map<string, Set<AnyWatch>>();
  private readonly byScore = new Map<number, Set<AnyWatch>>();
  private readonly scoresOf = new Map<AnyWatch, number[]>();
  /** Watches to read whatever the changes say: new, resynchronised, or whose read failed. */
  private readonly unread = new Set<AnyWatch>();

  get(key: string): AnyWatch | undefined {
    return this.byKey.get(key);
  }

  /** A watch new under `key`; it shows nothing until `place`. */
  add(key: string, watch: AnyWatch): void {
    this.byKey.set(key, watch);
    if (watch.player !== null) addTo(this.byPlayer, watch.player, watch);
  }

  /** Takes the watch under `key` out of every index. */
  drop(key: string, watch: AnyWatch): void {
    this.byKey.delete(key);
    this.unread.delete(watch);
    this.indexOf(watch).delete(watch);
    this.setScores(watch, []);
    if (watch.player !== null) removeFrom(this.byPlayer, watch.player, watch);
  }

  all(): IterableIterator<AnyWatch> {
    return this.byKey.values();
  }

  get hasUnread(): boolean {
    return this.unread.size > 0;
  }

  isUnread(watch: AnyWatch): boolean {
    return this.unread.has(watch);
  }

  markUnread(watch: AnyWatch): void {
    this.unread.add(watch);
  }

  /** Files the watch under the ranks and scores its latest state knows. */
  place(watch: AnyWatch, state: unknown): void {
    this.indexOf(watch).set(watch, watch.span(state));
    this.setScores(watch, watch.scores(state));
  }

  /** The watches to read now; they are no longer unread after this. */
  takeUnread(): Set<AnyWatch> {
    const taken = new Set(this.unread);
    this.unread.clear();
    return taken;
  }

  /** The watches the changes touch: those whose state knows a rank, a score or the player they concern. */
  affected(changes: Changes): Set<AnyWatch> {
    const found = new Set<AnyWatch>();
    for (const { start, end } of changes.intervals()) {
      for (const watch of this.points.touching(start, end)) found.add(watch);
      for (const watch of this.windows.touching(start, end)) found.add(watch);
    }
    for (const score of changes.scores) this.byScore.get(score)?.forEach((watch) => found.add(watch));
    for (const player of changes.players.keys()) this.byPlayer.get(player)?.forEach((watch) => found.add(watch));
    return found;
  }

  /** Single players in one index, windows in another, so a player lookup never scans window lengths. */
  private indexOf(watch: AnyWatch): RankIndex<AnyWatch> {
    return watch instanceof PlayerWatch ? this.points : this.windows;
  }

  private setScores(watch: AnyWatch, scores: number[]): void {
    const previous = this.scoresOf.get(watch) ?? [];
    const distinct = [...new Set(scores)];
    // Most refreshes move entries without changing their scores.
    if (previous.length === distinct.length && previous.every((score, i) => score === distinct[i])) return;
    for (const score of previous) removeFrom(this.byScore, score, watch);
    for (const score of distinct) addTo(this.byScore, score, watch);
    if (distinct.length > 0) this.scoresOf.set(watch, distinct);
    else this.scoresOf.delete(watch);
  }
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set?.delete(value) && set.size === 0) map.delete(key);
}
