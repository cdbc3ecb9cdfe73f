/** The ranks something shows: start..end, 1-based; `end` is Infinity when it reaches the last rank. */
export interface Span {
  start: number;
  end: number;
}

interface Slot<T> {
  start: number;
  item: T;
}

/** Buckets split past twice this size, so an insert or delete moves at most that many references. */
const LOAD = 256;

/**
 * Items by the ranks they show, to find the few that a change in ranks lo..hi touches without
 * looking at the others. Finite spans live in a sorted list of small buckets ordered by start; as
 * no span is longer than the longest seen, the items touching lo..hi start within
 * lo - longest + 1..hi. Spans that reach the board's end (which any growth below them changes) are
 * kept apart: only windows at the bottom of a board, or over all of a small one, have them.
 */
export class RankIndex<T> {
  private readonly buckets: Slot<T>[][] = [];
  private readonly spans = new Map<T, Span>();
  private readonly open = new Set<T>();
  private longest = 1;

  get size(): number {
    return this.spans.size;
  }

  /** Puts `item` at `span`, moving it if it was indexed; null takes it out. */
  set(item: T, span: Span | null): void {
    const current = this.spans.get(item);
    if (current && span && current.start === span.start && current.end === span.end) return;
    this.delete(item);
    if (span === null) return;
    this.spans.set(item, span);
    if (span.end === Infinity) {
      this.open.add(item);
      return;
    }
    this.longest = Math.max(this.longest, span.end - span.start + 1);
    if (this.buckets.length === 0) {
      this.buckets.push([{ start: span.start, item }]);
      return;
    }
    const b = Math.min(this.bucketFor(span.start), this.buckets.length - 1);
    const bucket = this.buckets[b];
    bucket.splice(position(bucket, span.start, true), 0, { start: span.start, item });
    if (bucket.length > 2 * LOAD) this.buckets.splice(b + 1, 0, bucket.splice(LOAD));
  }

  delete(item: T): void {
    const span = this.spans.get(item);
    if (!span) return;
    this.spans.delete(item);
    if (this.open.delete(item)) return;
    for (let b = this.bucketFor(span.start); b < this.buckets.length; b++) {
      const bucket = this.buckets[b];
      for (let i = position(bucket, span.start, false); i < bucket.length && bucket[i].start === span.start; i++) {
        if (bucket[i].item !== item) continue;
        bucket.splice(i, 1);
        if (bucket.length === 0) this.buckets.splice(b, 1);
        return;
      }
      if (bucket[bucket.length - 1].start !== span.start) return;
    }
  }

  /** Every item whose span shares a rank with lo..hi (hi may be Infinity). */
  *touching(lo: number, hi: number): Generator<T> {
    for (const item of this.open) if (this.spans.get(item)!.start <= hi) yield item;
    const from = lo - this.longest + 1;
    const first = this.bucketFor(from);
    for (let b = first; b < this.buckets.length; b++) {
      const bucket = this.buckets[b];
      for (let i = b === first ? position(bucket, from, false) : 0; i < bucket.length; i++) {
        const { start, item } = bucket[i];
        if (start > hi) return;
        if (this.spans.get(item)!.end >= lo) yield item;
      }
    }
  }

  /** The first bucket whose last start is >= start (buckets.length when there is none). */
  private bucketFor(start: number): number {
    let lo = 0;
    let hi = this.buckets.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const bucket = this.buckets[mid];
      if (bucket[bucket.length - 1].start < start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Where `start` goes in a sorted bucket: before equal starts, or after them when `after`. */
function position<T>(bucket: Slot<T>[], start: number, after: boolean): number {
  let lo = 0;
  let hi = bucket.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bucket[mid].start < start || (after && bucket[mid].start === start)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
