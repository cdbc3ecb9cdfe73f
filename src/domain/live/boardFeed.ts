import DataLoader from 'dataloader';
import type { BoardEventMessage } from '../../store/events';
import type { BoardListener, EventBridge } from '../../store/eventBridge';
import type { Leaderboards } from '../leaderboards';
import { MAX_BATCH_SIZE } from '../limits';
import { Changes } from './changes';
import { deliver, type FeedItem, SubmittedFeed } from './fanOut';
import { LiveStream } from './liveStream';
import { type LiveEntry, type Move, moveOf } from './moves';
import { type Clock, RefreshScheduler, systemClock } from './refreshScheduler';
import { type AnyWatch, WatchIndex } from './watchIndex';
import type { Reads, Versioned, Watch } from './watches';

/** Messages a board's feed keeps for reads to catch up on; past this it reads every watch again. */
const LOG_LIMIT = 10_000;

interface Logged {
  version: number;
  moves: Move[];
}

/**
 * Everything this server follows on one board: the watches its subscribers share (WatchIndex),
 * the `entrySubmitted` subscribers (SubmittedFeed), and the changes the board's events announced
 * since the last refresh. A watch is read from Redis when it starts, and again only when the
 * board's messages may have been missed (a gap in their versions, a resubscription) or a window
 * has used up the ranks it knows; otherwise each refresh brings the watches the changes touch up
 * to date from the events' moves alone (moves.ts), so Redis work per write does not grow with
 * the subscribers. A read is followed by the moves published after it (by version), so no state
 * is older than the one before it.
 */
export class BoardFeed implements BoardListener {
  private readonly index = new WatchIndex();
  private readonly feed = new SubmittedFeed();
  private changes = new Changes();
  /** The messages since `followed`, for reads to catch up on. */
  private log: Logged[] = [];
  /** The version of the last message heard; undefined until one is, and after messages were lost. */
  private heard: number | undefined;
  /** Every watch not waiting for a read knows the board as of this version at least. */
  private followed = -1;
  /** Watches holding an update back for their subscribers' slower rate. */
  private readonly held = new Set<AnyWatch>();
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
    private readonly clock: Clock = systemClock,
  ) {
    this.scheduler = new RefreshScheduler(intervalMs, {
      readsWaiting: () => this.index.hasUnread,
      changesWaiting: () => !this.changes.empty,
      heldUntil: () => this.heldUntil(),
      refresh: (withChanges) => this.refresh(withChanges),
    }, clock);
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

  events({ version, events }: BoardEventMessage): void {
    if (this.closed) return;
    const moves: Move[] = [];
    for (const event of events) {
      if (event.kind === 'deleted') return this.deleted();
      const move = moveOf(event);
      if (move) moves.push(move);
      else this.lostTrack(); // created anew: what the watches knew is gone
      this.changes.add(event);
      this.feed.event(event);
    }
    if (version !== null) {
      if (this.heard !== undefined && version !== this.heard + 1) this.lostTrack();
      this.heard = version;
      this.log.push({ version, moves });
      if (this.log.length > LOG_LIMIT) this.lostTrack();
    }
    this.scheduler.schedule();
  }

  resubscribed(): void {
    this.feed.reconnected();
    for (const watch of this.index.all()) watch.resync();
    this.lostTrack();
    this.heard = undefined;
    this.scheduler.schedule();
  }

  /** Messages may be missing: every watch is read again, and reads catch up from their own versions. */
  private lostTrack(): void {
    for (const watch of this.index.all()) this.index.markUnread(watch);
    this.log = [];
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

  private heldUntil(): number {
    let due = Infinity;
    for (const watch of this.held) due = Math.min(due, watch.heldUntil ?? Infinity);
    return due;
  }

  private async refresh(withChanges: boolean): Promise<boolean> {
    this.sendHeld();
    const changes = withChanges ? this.changes : new Changes();
    const upTo = this.heard;
    if (withChanges) this.changes = new Changes();
    const unread = this.index.takeUnread();
    const targets = [...unread, ...[...this.index.affected(changes)].filter((watch) => !unread.has(watch))];
    const reads = this.reads();
    const results = await Promise.allSettled(targets.map((watch) => this.settle(watch, unread.has(watch), reads)));
    if (this.closed) return false;
    const failed = deliver(targets, results, changes, this.index, this.clock.now());
    for (const watch of targets) if (watch.heldUntil !== undefined) this.held.add(watch);
    if (withChanges && upTo !== undefined && upTo > this.followed) {
      // The watches these changes did not touch know the board as of `upTo` as they are.
      this.followed = upTo;
      this.log = this.log.filter((logged) => logged.version > upTo);
    }
    return failed;
  }

  /** Sends the updates held back whose time has come; forgets watches nobody follows any more. */
  private sendHeld(): void {
    const now = this.clock.now();
    for (const watch of this.held) {
      if (watch.subscribers.size > 0 && watch.heldUntil !== undefined && watch.heldUntil > now) continue;
      this.held.delete(watch);
      if (watch.subscribers.size > 0) watch.sendHeld(now);
    }
  }

  /**
   * The watch's state now: what it knows, brought up to date by the moves heard since, or a read
   * when it must be read or what it knows no longer covers what it shows.
   */
  private async settle<S>(watch: Watch<S, unknown>, mustRead: boolean, reads: Reads): Promise<Versioned<S>> {
    if (!mustRead && watch.state !== undefined) {
      const current = this.catchUp(watch, { state: watch.state, version: Math.max(watch.version, this.followed) });
      if (current && watch.covers(current.state)) return current;
    }
    const current = this.catchUp(watch, await watch.read(reads));
    if (!current || !watch.covers(current.state)) throw new Error(`board ${this.boardId}: a read could not be brought up to date`);
    return current;
  }

  /** `known` after the moves logged since its version; null when they are not all logged or it cannot follow one. */
  private catchUp<S>(watch: Watch<S, unknown>, known: Versioned<S>): Versioned<S> | null {
    let { state, version } = known;
    if (this.heard === undefined || version >= this.heard) return known;
    if (this.log.length === 0 || this.log[0].version > version + 1) return null;
    for (const logged of this.log) {
      if (logged.version <= version) continue;
      for (const move of logged.moves) {
        const next = watch.follow(state, move, logged.version);
        if (next === undefined) return null;
        state = next;
      }
      version = logged.version;
    }
    return { state, version };
  }

  /** Fresh per refresh: nothing read is reused for a later one. */
  private reads(): Reads {
    const { boardId } = this;
    const { store } = this.leaderboards;
    const entries = new DataLoader<string, Versioned<LiveEntry | null>>(
      async (ids) => {
        const { entries: found, version } = await store.entriesAt(boardId, [...ids]);
        return found.map((state) => ({ state, version }));
      },
      { maxBatchSize: MAX_BATCH_SIZE, cache: false },
    );
    return {
      entry: (playerId) => entries.load(playerId),
      top: async (limit) => {
        const { entries: found, total, version } = await store.page(boardId, { limit });
        return { state: { entries: found, total }, version };
      },
      around: async (playerId, radius) => {
        const { window, total, version } = await store.aroundAt(boardId, playerId, radius);
        return { state: { window, total }, version };
      },
    };
  }
}
