import DataLoader from 'dataloader';
import type { BoardEventMessage } from '../../store/events';
import type { BoardListener, EventBridge } from '../../store/eventBridge';
import type { Entry } from '../../store/types';
import type { Leaderboards } from '../leaderboards';
import { MAX_BATCH_SIZE } from '../limits';
import { Changes } from './changes';
import { deliver, type FeedItem, SubmittedFeed } from './fanOut';
import { LiveStream } from './liveStream';
import { RefreshScheduler } from './refreshScheduler';
import { type AnyWatch, WatchIndex } from './watchIndex';
import type { Reads, Watch } from './watches';

/**
 * Everything this server follows on one board: the watches its subscribers share (WatchIndex),
 * the `entrySubmitted` subscribers (SubmittedFeed), and the changes the board's events announced
 * since the last refresh. When the RefreshScheduler says so, a refresh reads the watches those
 * changes touch all at once (the players in one store call) and delivers what changed. Every
 * state sent comes from a read issued after the event that announced it, and reads of a board run
 * one at a time, so no update is older than the one before it.
 */
export class BoardFeed implements BoardListener {
  private readonly index = new WatchIndex();
  private readonly feed = new SubmittedFeed();
  private changes = new Changes();
  private readonly scheduler: RefreshScheduler;
  private users = 0;
  private stopListening: (() => void) | undefined;
  private ended = false;
  /** Settles once the board's channel is subscribed (UNAVAILABLE when Redis cannot be reached). */
  readonly ready: Promise<void>;

  constructor(
    private readonly boardId: string,
    private readonly leaderboards: Leaderboards,
    bridge: EventBridge,
    intervalMs: number,
    private readonly onClosed: () => void,
  ) {
    this.scheduler = new RefreshScheduler(intervalMs, {
      readsWaiting: () => this.index.hasUnread,
      changesWaiting: () => !this.changes.empty,
      refresh: (withChanges) => this.refresh(withChanges),
    });
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
    let watch = this.index.get(key) as Watch<S, P> | undefined;
    if (!watch) this.index.add(key, (watch = create()) as AnyWatch);
    const joined = watch;
    const stream = new LiveStream<P>(1, () => {
      if (this.closed) return;
      joined.subscribers.delete(stream);
      if (joined.subscribers.size === 0) this.index.drop(key, joined as AnyWatch);
      this.release();
    });
    if (joined.join(stream, this.index.isUnread(joined as AnyWatch))) {
      this.index.markUnread(joined as AnyWatch);
      this.scheduler.schedule();
    }
    return stream;
  }

  /** A subscriber of every accepted change from now on; takes over one acquire. */
  joinFeed(): LiveStream<FeedItem> {
    return this.feed.join(this.left);
  }

  events({ events }: BoardEventMessage): void {
    if (this.closed) return;
    for (const event of events) {
      if (event.kind === 'deleted') return this.deleted();
      this.changes.add(event);
      this.feed.event(event);
    }
    this.scheduler.schedule();
  }

  resubscribed(): void {
    this.feed.reconnected();
    for (const watch of this.index.all()) {
      watch.resync();
      this.index.markUnread(watch);
    }
    this.scheduler.schedule();
  }

  // Streams ended by the board's deletion leave a feed that is already closed.
  private readonly left = (): void => {
    if (!this.closed) this.release();
  };

  private deleted(): void {
    this.close();
    for (const watch of this.index.all()) watch.end();
    this.feed.end();
  }

  private close(): void {
    this.ended = true;
    this.scheduler.stop();
    this.stopListening?.();
    this.onClosed();
  }

  private async refresh(withChanges: boolean): Promise<boolean> {
    const changes = withChanges ? this.changes : new Changes();
    if (withChanges) this.changes = new Changes();
    const targets = [...this.index.affected(changes)];
    const reads = this.reads();
    const results = await Promise.allSettled(targets.map((watch) => watch.read(reads)));
    return !this.closed && deliver(targets, results, changes, this.index);
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
}
