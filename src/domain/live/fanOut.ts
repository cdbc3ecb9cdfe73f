import { type BoardEvent, scoreEntry } from '../../store/events';
import type { Entry, SubmitResult } from '../../model';
import type { Changes } from './changes';
import { LiveStream } from './liveStream';
import type { AnyWatch, WatchIndex } from './watchIndex';
import type { LiveScope, Versioned } from './watches';

/** Feed events a slow `entrySubmitted` subscriber may fall behind by before it loses the oldest. */
export const FEED_BUFFER = 100;

/** An accepted change as `entrySubmitted` sends it (built from the event: no paging cursor). */
export interface SubmittedEntry extends Pick<SubmitResult, 'previousScore' | 'previousRank'> {
  entry: Omit<Entry, 'cursor'>;
  scope: LiveScope;
}

/**
 * In the `entrySubmitted` feed, where changes may be missing: the server's connection to Redis
 * dropped (what was published meanwhile is gone), or the subscriber fell further behind than the
 * feed keeps. The feed goes on after it; a client re-reads what it shows.
 */
export class MissedEvents {
  constructor(readonly reason: MissedReason) {}
}

/**
 * Why changes may be missing: the server reconnected to Redis, the subscriber fell behind, or a
 * change of the period came without ranks (its kind's live mark had lapsed, keys.ts st:{b}:watched).
 */
export type MissedReason = 'reconnected' | 'fell-behind' | 'unranked';

export type FeedItem = SubmittedEntry | MissedEvents;

// Each gap gets its own marker: live results are kept per payload object.
const fellBehind = () => new MissedEvents('fell-behind');

/** The subscribers of one board's `entrySubmitted`: every accepted change, in order, and where some may be missing. */
export class SubmittedFeed {
  private readonly streams = new Set<LiveStream<FeedItem>>();
  /** What its entries are of; set by its ranking's feed, and again when that rolls over. */
  scope!: LiveScope;

  /** A new subscriber, from the next event on; `left` runs once it has ended, however. */
  join(left: () => void): LiveStream<FeedItem> {
    const stream = new LiveStream<FeedItem>(
      FEED_BUFFER,
      () => {
        this.streams.delete(stream);
        left();
      },
      fellBehind,
    );
    this.streams.add(stream);
    return stream;
  }

  /** Sends an accepted score, built once for all subscribers; other events are not in the feed. */
  event(event: BoardEvent): void {
    if (this.streams.size === 0) return;
    if (event.kind === 'unranked') {
      const missed = new MissedEvents('unranked');
      for (const stream of this.streams) stream.push(missed);
      return;
    }
    if (event.kind !== 'score') return;
    const submitted = submittedFrom(event, this.scope);
    for (const stream of this.streams) stream.push(submitted);
  }

  /** The board's channel was subscribed again: what was published meanwhile is gone. */
  reconnected(): void {
    // Created here, not shared across boards: live results are kept per payload object.
    const missed = new MissedEvents('reconnected');
    for (const stream of this.streams) stream.push(missed);
  }

  /** The board is gone: each subscriber gets what waits for it, then the end. */
  end(): void {
    for (const stream of this.streams) stream.end();
  }
}

/**
 * Hands each watch its new state (`results[i]` for the i-th of `watches`): the index files it
 * under what it now knows, and its subscribers get the update. A watch whose read failed waits to
 * be read again; true when one did. A watch dropped while it was read is left alone.
 */
export function deliver(
  watches: AnyWatch[], results: PromiseSettledResult<Versioned<unknown>>[], changes: Changes, index: WatchIndex, now: number,
): boolean {
  let failed = false;
  for (let i = 0; i < watches.length; i++) {
    const watch = watches[i];
    const result = results[i];
    if (watch.subscribers.size === 0) continue;
    if (result.status === 'rejected') {
      index.markUnread(watch);
      failed = true;
      continue;
    }
    index.place(watch, result.value.state);
    watch.apply(result.value.state, changes, now);
    watch.version = result.value.version;
  }
  return failed;
}

function submittedFrom(event: Extract<BoardEvent, { kind: 'score' }>, scope: LiveScope): SubmittedEntry {
  return {
    entry: scoreEntry(event),
    previousScore: event.previousScore,
    previousRank: event.previousRank,
    scope,
  };
}
