import DataLoader from 'dataloader';
import { type BoardEvent, type BoardEventMessage, scoreEntry } from '../../store/events';
import type { BoardListener, EventBridge } from '../../store/eventBridge';
import type { Entry, SubmitResult } from '../../store/types';
import type { Leaderboards } from '../leaderboards';
import { MAX_BATCH_SIZE } from '../limits';
import { Changes } from './changes';
import { LiveStream } from './liveStream';
import { RankIndex } from './rankIndex';
import { PlayerWatch, type Reads, type Watch } from './watches';

/** After a failed read (Redis unreachable), the next attempt waits this long. */
const RETRY_MS = 1_000;
/** Feed events a slow `entrySubmitted` subscriber may fall behind by before it loses the oldest. */
const FEED_BUFFER = 100;

/** An accepted change as `entrySubmitted` sends it (built from the event: no paging cursor). */
export interface SubmittedEntry extends Omit<SubmitResult, 'entry'> {
  entry: Omit<Entry, 'cursor'>;
}

/**
 * In the `entrySubmitted` feed, where changes may be missing: the server's connection to Redis
 * dropped (what was published meanwhile is gone), or the subscriber fell further behind than the
 * feed keeps. The feed goes on after it; a client re-reads what it shows.
 */
export class MissedEvents {
  constructor(readonly reason: 'reconnected' | 'fell-behind') {}
}

export type FeedItem = SubmittedEntry | MissedEvents;

type AnyWatch = Watch<unknown, unknown>;

/**
 * Everything this server follows on one board: the watches its subscribers share, indexed by the
 * ranks and scores they show, and the changes the board's events announced since the last
 * refresh. A refresh finds the watches those changes touch (range lookups, not a scan), reads them
 * all at once (the players in one store call) and sends what changed. Every state sent comes from
 * a read issued after the event that announced it, and reads of a board run one at a time, so no
 * update is older than the one before it.
 */
export class BoardFeed implements BoardListener {
  private readonly watches = new Map<string, AnyWatch>();
  private readonly points = new RankIndex<AnyWatch>();
  private readonly windows = new RankIndex<AnyWatch>();
  private readonly byPlayer = new Map<string, Set<AnyWatch>>();
  private readonly byScore = new Map<number, Set<AnyWatch>>();
  private readonly scoresOf = new Map<AnyWatch, number[]>();
  private readonly feed = new Set<LiveStream<FeedItem>>();
  /** Watches to read whatever the changes say: new, resynchronised, or whose read failed. */
  private readonly unread = new Set<AnyWatch>();
  private changes = new Changes();
  private lastChangeRefresh = -Infinity;
  private retryAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Infinity;
  private refreshing = false;
  private users = 0;
  private stopListening: (() => void) | undefined;
  private ended = false;
  /** Settles once the board's channel is subscribed (UNAVAILABLE when Redis cannot be reached). */
  readonly ready: Promise<void>;

  constructor(
    private readonly boardId: string,
    private readonly leaderboards: Leaderboards,
    bridge: EventBridge,
    private readonly intervalMs: number,
    private readonly onClosed: () => void,
  ) {
    this.ready = bridge.listen(boardId, this).then((stop) => {
      // Closed while the subscription was being set up: drop it at once.
      if (this.closed) stop();
      else this.stopListening = stop;
    });
  }

  /** Deleted, or left by its last subscriber: a new subscriber needs a new feed. */
  get closed(): boolean {
    return this.ended;
  }

  /** Someone is about to subscribe; each acquire is matched by one release (or a stream's end). */
  acquire(): void {
    this.users++;
  }

  release(): void {
    if (--this.users > 0 || this.closed) return;
    this.close();
  }

  /** A subscriber of the watch under `key` (created on first use); takes over one acquire. */
  watch<S, P>(key: string, create: () => Watch<S, P>): LiveStream<P> {
    let watch = this.watches.get(key) as Watch<S, P> | undefined;
    if (!watch) {
      watch = create();
      this.watches.set(key, watch as AnyWatch);
      if (watch.player !== null) addTo(this.byPlayer, watch.player, watch as AnyWatch);
    }
    const joined = watch;
    const stream = new LiveStream<P>(1, () => {
      if (this.closed) return;
      joined.subscribers.delete(stream);
      if (joined.subscribers.size === 0) this.drop(key, joined as AnyWatch);
      this.release();
    });
    if (joined.join(stream, this.unread.has(joined as AnyWatch))) {
      this.unread.add(joined as AnyWatch);
      this.schedule();
    }
    return stream;
  }

  /** A subscriber of every accepted change from now on; takes over one acquire. */
  follow(): LiveStream<FeedItem> {
    const stream = new LiveStream<FeedItem>(FEED_BUFFER, () => {
      if (this.closed) return;
      this.feed.delete(stream);
      this.release();
    }, () => new MissedEvents('fell-behind'));
    this.feed.add(stream);
    return stream;
  }

  events({ events }: BoardEventMessage): void {
    if (this.closed) return;
    for (const event of events) {
      if (event.kind === 'deleted') return this.deleted();
      this.changes.add(event);
      if (event.kind === 'score' && this.feed.size > 0) {
        const submitted = submittedFrom(event);
        for (const stream of this.feed) stream.push(submitted);
      }
    }
    this.schedule();
  }

  resubscribed(): void {
    // Created here, not shared across boards: live results are kept per payload object.
    const missed = new MissedEvents('reconnected');
    for (const stream of this.feed) stream.push(missed);
    for (const watch of this.watches.values()) {
      watch.resync();
      this.unread.add(watch);
    }
    this.schedule();
  }

  private deleted(): void {
    const watches = [...this.watches.values()];
    const feed = [...this.feed];
    this.close();
    for (const watch of watches) watch.end();
    for (const stream of feed) stream.end();
  }

  private close(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.stopListening?.();
    this.onClosed();
  }

  private drop(key: string, watch: AnyWatch): void {
    this.watches.delete(key);
    this.unread.delete(watch);
    this.indexOf(watch).delete(watch);
    this.setScores(watch, []);
    if (watch.player !== null) removeFrom(this.byPlayer, watch.player, watch);
  }

  /**
   * Reads for new watches go out at once; refreshes for changes at most once per interval, the
   * first of a burst at once. One refresh runs at a time.
   */
  private schedule(): void {
    if (this.closed || this.refreshing) return;
    const now = Date.now();
    let due = Infinity;
    if (this.unread.size > 0) due = Math.max(now, this.retryAt);
    if (!this.changes.empty) due = Math.min(due, Math.max(now, this.lastChangeRefresh + this.intervalMs));
    if (due >= this.timerDue) return;
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Infinity;
      void this.refresh();
    }, due - now);
  }

  private async refresh(): Promise<void> {
    this.refreshing = true;
    let changes = new Changes();
    const now = Date.now();
    if (!this.changes.empty && now >= this.lastChangeRefresh + this.intervalMs) {
      [changes, this.changes] = [this.changes, changes];
      this.lastChangeRefresh = now;
    }
    const targets = [...this.affected(changes)];
    const reads = this.reads();
    const results = await Promise.allSettled(targets.map((watch) => watch.read(reads)));
    this.refreshing = false;
    if (this.closed) return;
    results.forEach((result, i) => {
      const watch = targets[i];
      if (watch.subscribers.size === 0) return; // dropped while it was read
      if (result.status === 'rejected') {
        this.unread.add(watch);
        this.retryAt = Date.now() + RETRY_MS;
        return;
      }
      this.indexOf(watch).set(watch, watch.span(result.value));
      this.setScores(watch, watch.scores(result.value));
      watch.apply(result.value, changes);
    });
    this.schedule();
  }

  /** The watches to read now: those never read or in doubt, and those the changes touch. */
  private affected(changes: Changes): Set<AnyWatch> {
    const found = new Set(this.unread);
    this.unread.clear();
    for (const { start, end } of changes.intervals()) {
      for (const watch of this.points.touching(start, end)) found.add(watch);
      for (const watch of this.windows.touching(start, end)) found.add(watch);
    }
    for (const score of changes.scores) this.byScore.get(score)?.forEach((watch) => found.add(watch));
    for (const player of changes.players.keys()) this.byPlayer.get(player)?.forEach((watch) => found.add(watch));
    return found;
  }

  /** Fresh per refresh: nothing read is reused for a later one. */
  private reads(): Reads {
    const { boardId, leaderboards } = this;
    const entries = new DataLoader<string, Entry | null>((ids) => leaderboards.entries(boardId, [...ids]), {
      maxBatchSize: MAX_BATCH_SIZE,
      cache: false,
    });
    return {
      entry: (playerId) => entries.load(playerId),
      top: (first) => leaderboards.page(boardId, { limit: first }),
      around: (playerId, radius) => leaderboards.around(boardId, playerId, radius),
      size: () => leaderboards.size(boardId),
    };
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

function submittedFrom(event: Extract<BoardEvent, { kind: 'score' }>): SubmittedEntry {
  return {
    entry: scoreEntry(event),
    previousScore: event.previousScore,
    previousRank: event.previousRank,
    changed: true,
    replayed: false,
  };
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
