import DataLoader from 'dataloader';
import type { BoardEvent } from '../../store/events';
import type { BoardConfig, BoardRef } from '../../model';
import type { Leaderboards } from '../leaderboards';
import { MAX_BATCH_SIZE } from '../limits';
import type { Period, PeriodCalendar } from '../periods/calendar';
import { Changes } from './changes';
import { deliver, type FeedItem, SubmittedFeed } from './fanOut';
import { LiveStream } from './liveStream';
import { type LiveEntry, type Move, moveOf } from './moves';
import { type Clock, RefreshScheduler } from './refreshScheduler';
import { type AnyWatch, WatchIndex } from './watchIndex';
import type { Reads, Versioned, Watch } from './watches';

/** Messages a ranking's feed keeps for reads to catch up on; past this it reads every watch again. */
const LOG_LIMIT = 10_000;

/** The longest delay a timer takes (Node's setTimeout caps at 2^31 - 1 ms); a later boundary re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Logged {
  version: number;
  moves: Move[];
}

/**
 * Everything this server follows on one ranking of a board (ALL_TIME, one period, or the current
 * period of a kind): the watches its subscribers share (WatchIndex), the `entrySubmitted`
 * subscribers (SubmittedFeed), and the changes the board's events announced since the last
 * refresh. A watch is read from Redis when it starts, and again only when the ranking's messages
 * may have been missed (a gap in their versions, a resubscription, a line without ranks) or a
 * window has used up the ranks it knows; otherwise each refresh brings the watches the changes
 * touch up to date from the events' moves alone (moves.ts), so Redis work per write does not grow
 * with the subscribers. A read is followed by the moves published after it (by version), so no
 * state is older than the one before it.
 *
 * A feed that follows the current period (`rolls`) moves to the next period at its boundary by
 * itself: a timer on the live Clock, due when the calendar's MomentClock reaches the period's end
 * (or an event of a later period of its kind, when Redis' clock is ahead of this server's). Its
 * watches then start over on the new period, and subscribers get its snapshot.
 */
export class RankingFeed {
  private readonly index = new WatchIndex();
  private readonly feed = new SubmittedFeed();
  private changes = new Changes();
  /** The messages since `followed`, for reads to catch up on. */
  private log: Logged[] = [];
  /** The version of the last message heard; undefined until one is, and after messages were lost. */
  private heard: number | undefined;
  /** Every watch not waiting for a read knows the ranking as of this version at least. */
  private followed = -1;
  /** Watches holding an update back for their subscribers' slower rate. */
  private readonly held = new Set<AnyWatch>();
  private readonly scheduler: RefreshScheduler;
  /** Bumped when the feed moves to another period: reads begun before are not delivered. */
  private epoch = 0;
  private rollTimer: unknown;
  private users = 0;
  private ended = false;

  constructor(
    /** The board's settings as read when its feed opened. */
    private readonly board: BoardConfig,
    private readonly leaderboards: Leaderboards,
    private readonly calendar: PeriodCalendar,
    /** The period followed now; for a rolling feed, the current one. */
    private current: Period,
    /** Whether it follows the current period of its kind (else it stays on `current`). */
    readonly rolls: boolean,
    intervalMs: number,
    private readonly clock: Clock,
    /** A subscriber left (its stream ended); `idle`: it was the last. */
    private readonly left: (idle: boolean) => void,
  ) {
    this.scheduler = new RefreshScheduler(intervalMs, {
      readsWaiting: () => this.index.hasUnread,
      changesWaiting: () => !this.changes.empty,
      heldUntil: () => this.heldUntil(),
      refresh: (withChanges) => this.refresh(withChanges),
    }, clock);
    this.feed.scope = { board, period: current };
    if (rolls) this.armRollover();
  }

  get period(): Period {
    return this.current;
  }

  /** Nobody subscribes to it (yet, or any more). */
  get idle(): boolean {
    return this.users === 0;
  }

  /** Ended (its last subscriber left, or the board was deleted): a new subscriber needs a new one. */
  get stopped(): boolean {
    return this.ended;
  }

  /** A subscriber of the watch under `key` (created on first use). */
  watch<S, P>(key: string, create: () => Watch<S, P>): LiveStream<P> {
    let watch = this.index.get(key) as Watch<S, P> | undefined;
    if (!watch) {
      this.index.add(key, (watch = create()) as AnyWatch);
      watch.scope = { board: this.board, period: this.current };
    }
    const joined = watch;
    this.users++;
    const stream = new LiveStream<P>(1, () => {
      if (this.stopped) return;
      joined.subscribers.delete(stream);
      if (joined.subscribers.size === 0) this.index.drop(key, joined as AnyWatch);
      this.leave();
    });
    if (joined.join(stream, this.index.isUnread(joined as AnyWatch))) {
      this.index.markUnread(joined as AnyWatch);
      this.scheduler.schedule();
    }
    return stream;
  }

  /** A subscriber of every accepted change from now on. */
  joinFeed(): LiveStream<FeedItem> {
    this.users++;
    return this.feed.join(() => {
      if (!this.stopped) this.leave();
    });
  }

  /**
   * One message of the board: its version and this ranking's events in it (none when it changed
   * other rankings only, which still tells that nothing of this one was missed).
   */
  message(version: number | null, events: BoardEvent[]): void {
    const moves: Move[] = [];
    for (const event of events) {
      const move = moveOf(event);
      if (move) moves.push(move);
      else this.lostTrack(); // created anew, or a change whose ranks the line left out
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

  /**
   * An event names a period of this feed's kind: a rolling feed moves to it at once when it is
   * later than its own. Only a live write lands in a period that has not started by this server's
   * clock (imports in the future are refused), so Redis' clock, which decides, passed the boundary first.
   */
  sawPeriod(key: string): void {
    if (!this.rolls || key === this.current.key) return;
    let seen: Period;
    try {
      seen = this.calendar.periodByKey(this.current.kind, key);
    } catch {
      return; // a key this server's calendar does not know (a season added elsewhere): the timer decides
    }
    if (seen.start > this.current.start) this.rollTo(seen);
  }

  resubscribed(): void {
    this.feed.reconnected();
    for (const watch of this.index.all()) watch.resync();
    this.lostTrack();
    this.heard = undefined;
    this.scheduler.schedule();
  }

  /** The board is gone: every subscriber gets a last payload, then the end. */
  end(): void {
    this.stop();
    for (const watch of this.index.all()) watch.end();
    this.feed.end();
  }

  /** Nothing runs from now on. */
  stop(): void {
    this.ended = true;
    this.scheduler.stop();
    if (this.rollTimer !== undefined) this.clock.clearTimeout(this.rollTimer);
    this.rollTimer = undefined;
  }

  private leave(): void {
    this.left(--this.users === 0);
  }

  /** Messages may be missing: every watch is read again, and reads catch up from their own versions. */
  private lostTrack(): void {
    for (const watch of this.index.all()) this.index.markUnread(watch);
    this.log = [];
  }

  /** Sets the timer for the end of the current period, or for the next season's start between seasons. */
  private armRollover(): void {
    const { to } = this.calendar.window(this.current.kind);
    if (to === null) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil((to - this.calendar.now()) / 1000)));
    this.rollTimer = this.clock.setTimeout(this.rollover, delay);
  }

  private readonly rollover = (): void => {
    this.rollTimer = undefined;
    if (this.stopped) return;
    const next = this.calendar.periodAt(this.current.kind);
    // Between seasons the feed stays on the last one until the next starts.
    if (next && next.start > this.current.start) this.rollTo(next);
    else this.armRollover();
  };

  /** The watches start over on `period`: each is read there, and its subscribers get that snapshot. */
  private rollTo(period: Period): void {
    this.current = period;
    this.feed.scope = { board: this.board, period };
    this.epoch++;
    this.changes = new Changes();
    this.held.clear();
    for (const watch of this.index.all()) {
      watch.startOver(period);
      this.index.markUnread(watch);
    }
    this.log = [];
    if (this.rollTimer !== undefined) this.clock.clearTimeout(this.rollTimer);
    this.armRollover();
    this.scheduler.schedule();
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
    const epoch = this.epoch;
    if (withChanges) this.changes = new Changes();
    const unread = this.index.takeUnread();
    const targets = [...unread, ...[...this.index.affected(changes)].filter((watch) => !unread.has(watch))];
    const reads = this.reads();
    const results = await Promise.allSettled(targets.map((watch) => this.settle(watch, unread.has(watch), reads)));
    if (this.stopped) return false;
    // Moved to another period meanwhile: these states are of the one before, and every watch waits for a read.
    if (epoch !== this.epoch) return false;
    const failed = deliver(targets, results, changes, this.index, this.clock.now());
    for (const watch of targets) if (watch.heldUntil !== undefined) this.held.add(watch);
    if (withChanges && upTo !== undefined && upTo > this.followed) {
      // The watches these changes did not touch know the ranking as of `upTo` as they are.
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
    if (!current || !watch.covers(current.state)) throw new Error(`board ${this.board.id}: a read could not be brought up to date`);
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
    const { store } = this.leaderboards;
    const { kind, key } = this.current;
    const ref: BoardRef = kind === 'ALL_TIME' ? this.board.id : { boardId: this.board.id, kind, key };
    const entries = new DataLoader<string, Versioned<LiveEntry | null>>(
      async (ids) => {
        const { entries: found, version } = await store.entriesAt(ref, [...ids]);
        return found.map((state) => ({ state, version }));
      },
      { maxBatchSize: MAX_BATCH_SIZE, cache: false },
    );
    return {
      entry: (playerId) => entries.load(playerId),
      top: async (limit) => {
        const { entries: found, total, version } = await store.page(ref, { limit });
        return { state: { entries: found, total }, version };
      },
      around: async (playerId, radius) => {
        const { window, total, version } = await store.aroundAt(ref, playerId, radius);
        return { state: { window, total }, version };
      },
    };
  }
}

