import type { BoardEvent } from '../../store/events';
import type { Span } from './rankIndex';

export type OwnChange = 'score' | 'removed';

/**
 * What a board's events since the last refresh say may have changed, in the ranks of the moment
 * each event happened. A move from rank p to r shifts the entries in min..max; a new entry at r
 * shifts r..end; a removal at p shifts p..end. These intervals hold an affected entry's rank both
 * before and after the event, so they find it whichever of the two the last read saw. Equal
 * scores make the other case: an entry whose score equals one that was left or reached can change
 * its shared rank without moving.
 */
export class Changes {
  private readonly ranges: Span[] = [];
  readonly scores = new Set<number>();
  /** Players whose own entry changed, and how (the last change wins). */
  readonly players = new Map<string, OwnChange>();

  get empty(): boolean {
    return this.ranges.length === 0 && this.players.size === 0;
  }

  add(event: BoardEvent): void {
    if (event.kind === 'score') {
      const { rank, previousRank } = event;
      this.ranges.push(
        previousRank === null
          ? { start: rank, end: Infinity }
          : { start: Math.min(rank, previousRank), end: Math.max(rank, previousRank) },
      );
      this.scores.add(event.score);
      if (event.previousScore !== null) this.scores.add(event.previousScore);
      this.players.set(event.playerId, 'score');
    } else if (event.kind === 'unranked') {
      // No ranks to place it by: the ranking's feed reads every watch again (a gap).
      this.players.set(event.playerId, 'score');
    } else if (event.kind === 'removed') {
      this.ranges.push({ start: event.previousRank, end: Infinity });
      this.scores.add(event.previousScore);
      this.players.set(event.playerId, 'removed');
    }
  }

  /** The changed ranks as few disjoint intervals, in order. */
  intervals(): Span[] {
    const merged: Span[] = [];
    for (const { start, end } of [...this.ranges].sort((a, b) => a.start - b.start)) {
      const last = merged[merged.length - 1];
      if (last && start <= last.end + 1) last.end = Math.max(last.end, end);
      else merged.push({ start, end });
    }
    return merged;
  }
}
