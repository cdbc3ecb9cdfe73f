import type { BoardConfig, RankWindow } from '../../model';
import type { Period } from '../periods/calendar';
import { Changes, type OwnChange } from './changes';
import type { LiveStream } from './liveStream';
import { entryAfter, type LiveEntry, type Move, type Run, runAfter } from './moves';
import type { Span } from './rankIndex';

type Cause = 'snapshot' | OwnChange | 'rank' | 'deleted';

/** Which ranking a payload shows: the board (its settings as read when the feed opened) and the period. */
export interface LiveScope {
  board: BoardConfig;
  period: Period;
}

export interface RankChange {
  entry: LiveEntry | null;
  previousRank: number | null;
  previousScore: number | null;
  cause: Cause;
  scope: LiveScope;
}

export interface TopUpdate {
  entries: LiveEntry[];
  /** The board's change counter when the entries were current. */
  version: number;
  scope: LiveScope;
}

/** A window as `aroundChanged` sends it: as `Leaderboard.around` reads it, without paging cursors. */
export interface LiveWindow extends Omit<RankWindow, 'center' | 'entries'> {
  center: LiveEntry | null;
  entries: LiveEntry[];
  scope: LiveScope;
}

/** What a read gave, with the board's change counter at that read: the events after it are followed. */
export interface Versioned<T> {
  state: T;
  version: number;
}

/** The reads of one refresh; lookups of single players are batched into one store call. */
export interface Reads {
  entry(playerId: string): Promise<Versioned<LiveEntry | null>>;
  /** The first `limit` entries, and the board's size. */
  top(limit: number): Promise<Versioned<{ entries: LiveEntry[]; total: number }>>;
  /** The player's window of `radius` (null when the player has no entry), and the board's size. */
  around(playerId: string, radius: number): Promise<Versioned<{ window: RankWindow | null; total: number }>>;
}

/**
 * Beyond what a window shows, it knows this many more ranks on each side (at most), so that
 * entries moving in and out of view come from what it knows; it is read again only once
 * the moves have used them up.
 */
export const MARGIN = 10;

/**
 * One piece of a board that subscribers follow (a player, the top N, a window), shared by all
 * subscribers of the same arguments on this server: its state is kept once per refresh and each
 * payload is built once, whatever the number of subscribers. `S` is what the watch knows of the
 * board (read once when it starts, then kept current by the board's moves), `P` what is sent.
 */
export abstract class Watch<S, P> {
  /** What the watch knows; undefined until the first read. */
  state: S | undefined;
  /** The board's change counter that `state` reflects. */
  version = -1;
  /** Subscribers, each with whether it still waits for a snapshot. */
  readonly subscribers = new Map<LiveStream<P>, boolean>();
  /** When an update held back for the slower rate is due; undefined when none is held. */
  heldUntil: number | undefined;
  /** What its payloads are of; set by its feed when it creates the watch, and when the feed rolls over. */
  scope!: LiveScope;
  private snapshotOfState: P | undefined;
  /** The state of the last update sent, and when it went out. */
  private sent: S | undefined;
  private sentAt = -Infinity;

  /** `everyMs`: updates caused by other players go out at most once in this time (0: whenever they come). */
  constructor(readonly everyMs = 0) {}

  /** The player whose own changes always concern this watch, whatever the ranks say. */
  abstract readonly player: string | null;
  abstract read(reads: Reads): Promise<Versioned<S>>;
  /** The state after `move` (the board's change `version`); undefined when the state cannot follow it and must be read again. */
  abstract follow(state: S, move: Move, version: number): S | undefined;
  /** Whether the state knows all that subscribers are shown (moves can use up what a window knows). */
  abstract covers(state: S): boolean;
  /** The ranks the state knows: any move touching them changes it. Null when it knows none. */
  abstract span(state: S): Span | null;
  /** The scores the state knows: a tie with one of them can change a shared rank. */
  abstract scores(state: S): number[];
  protected abstract same(a: S, b: S): boolean;
  protected abstract snapshot(state: S): P;
  protected abstract update(previous: S, next: S, changes: Changes): P;
  /** The last payload, when the board is deleted. */
  protected abstract gone(): P;

  /** A subscriber joins; true when it needs a read first (no state yet, or the state is in doubt). */
  join(stream: LiveStream<P>, stateInDoubt: boolean): boolean {
    const fresh = this.state !== undefined && !stateInDoubt;
    this.subscribers.set(stream, !fresh);
    if (fresh) stream.push(this.snapshotPayload(this.state!));
    return !fresh;
  }

  /** Every subscriber's next message is a snapshot (messages may have been missed). */
  resync(): void {
    for (const stream of this.subscribers.keys()) this.subscribers.set(stream, true);
  }

  /** Its feed moved to another period: nothing known carries over, and the next message is that period's snapshot. */
  startOver(period: Period): void {
    this.scope = { board: this.scope.board, period };
    this.state = undefined;
    this.snapshotOfState = undefined;
    this.heldUntil = undefined;
    this.resync();
  }

  /**
   * Takes a fresh state: snapshots to those waiting for one, the update to the others if it
   * differs from the last one sent. An update caused only by other players within `everyMs` of
   * the last is held back until `heldUntil`; the player's own change goes out at once.
   */
  apply(next: S, changes: Changes, now: number): void {
    this.state = next;
    this.snapshotOfState = undefined;
    const previous = this.sent;
    const changed = previous === undefined || !this.same(previous, next);
    const own = this.player !== null && changes.players.has(this.player);
    const send = changed && (own || now >= this.sentAt + this.everyMs);
    this.heldUntil = changed && !send ? this.sentAt + this.everyMs : undefined;
    let update: P | undefined;
    for (const [stream, waiting] of this.subscribers) {
      if (waiting) {
        this.subscribers.set(stream, false);
        stream.push(this.snapshotPayload(next));
      } else if (send) {
        stream.push((update ??= this.update(previous!, next, changes)));
      }
    }
    if (send) {
      this.sent = next;
      this.sentAt = now;
    }
  }

  /** Sends the update held back, now that its time has come. */
  sendHeld(now: number): void {
    if (this.state !== undefined) this.apply(this.state, new Changes(), now);
  }

  /** The board is gone: a last payload, then the end. */
  end(): void {
    const last = this.gone();
    for (const stream of this.subscribers.keys()) {
      stream.push(last);
      stream.end();
    }
  }

  private snapshotPayload(state: S): P {
    return (this.snapshotOfState ??= this.snapshot(state));
  }
}

export class PlayerWatch extends Watch<LiveEntry | null, RankChange> {
  constructor(
    readonly player: string,
    everyMs = 0,
  ) {
    super(everyMs);
  }

  read(reads: Reads) {
    return reads.entry(this.player);
  }

  follow(entry: LiveEntry | null, move: Move) {
    return entryAfter(this.player, entry, move);
  }

  covers() {
    return true;
  }

  span(entry: LiveEntry | null) {
    return entry && { start: entry.rank, end: entry.rank };
  }

  scores(entry: LiveEntry | null) {
    return entry ? [entry.score] : [];
  }

  protected same(a: LiveEntry | null, b: LiveEntry | null) {
    return a === null || b === null ? a === b : sameEntry(a, b);
  }

  protected snapshot(entry: LiveEntry | null): RankChange {
    return { entry, previousRank: null, previousScore: null, cause: 'snapshot', scope: this.scope };
  }

  protected update(previous: LiveEntry | null, entry: LiveEntry | null, changes: Changes): RankChange {
    const cause = changes.players.get(this.player) ?? 'rank';
    return { entry, previousRank: previous?.rank ?? null, previousScore: previous?.score ?? null, cause, scope: this.scope };
  }

  protected gone(): RankChange {
    return { entry: null, previousRank: this.state?.rank ?? null, previousScore: this.state?.score ?? null, cause: 'deleted', scope: this.scope };
  }
}

/** The first ranks of a board, MARGIN more than shown (fewer on a small board), and the board's counter. */
export interface TopState {
  entries: LiveEntry[];
  total: number;
  version: number;
}

export class TopWatch extends Watch<TopState, TopUpdate> {
  readonly player = null;

  constructor(readonly first: number) {
    super();
  }

  private get known(): number {
    return this.first + MARGIN;
  }

  async read(reads: Reads): Promise<Versioned<TopState>> {
    const { state, version } = await reads.top(this.known);
    return { state: { ...state, version }, version };
  }

  follow(state: TopState, move: Move, version: number): TopState | undefined {
    const run = runAfter({ start: 1, entries: state.entries }, move);
    return run ? { entries: run.entries.slice(0, this.known), total: move.total, version } : undefined;
  }

  covers({ entries, total }: TopState) {
    return entries.length >= Math.min(this.first, total);
  }

  /** Every rank it knows or could: a new player lands at a rank within them on a smaller board. */
  span() {
    return { start: 1, end: this.known };
  }

  scores({ entries }: TopState) {
    return entries.map((entry) => entry.score);
  }

  protected same(a: TopState, b: TopState) {
    return sameEntries(this.shown(a), this.shown(b));
  }

  protected snapshot(state: TopState): TopUpdate {
    return { entries: this.shown(state), version: state.version, scope: this.scope };
  }

  protected update(_previous: TopState, next: TopState): TopUpdate {
    return this.snapshot(next);
  }

  protected gone(): TopUpdate {
    // What a read of a board that does not exist says.
    return { entries: [], version: 0, scope: this.scope };
  }

  private shown({ entries }: TopState): LiveEntry[] {
    return entries.length > this.first ? entries.slice(0, this.first) : entries;
  }
}

/** Ranks around the player, up to MARGIN more each side than the window shows; null while the player has no entry. */
export interface AroundState {
  run: Run | null;
  total: number;
}

export class AroundWatch extends Watch<AroundState, LiveWindow> {
  constructor(
    readonly player: string,
    readonly radius: number,
    everyMs = 0,
  ) {
    super(everyMs);
  }

  private get known(): number {
    return this.radius + MARGIN;
  }

  async read(reads: Reads): Promise<Versioned<AroundState>> {
    const { state: { window, total }, version } = await reads.around(this.player, this.known);
    return { state: { run: window && { start: window.entries[0].rank, entries: window.entries }, total }, version };
  }

  follow({ run }: AroundState, move: Move): AroundState | undefined {
    const { total } = move;
    if (move.playerId === this.player && move.to === null) return { run: null, total };
    if (run === null) return move.playerId === this.player ? undefined : { run, total };
    const next = runAfter(run, move);
    if (!next) return undefined;
    // The player's own move may leave what is known around the new rank unknown.
    const center = next.entries.findIndex((entry) => entry.playerId === this.player);
    if (center < 0) return undefined;
    const from = Math.max(0, center - 2 * this.known);
    return { run: { start: next.start + from, entries: next.entries.slice(from, center + 2 * this.known + 1) }, total };
  }

  covers(state: AroundState) {
    return state.run === null || this.window(state) !== null;
  }

  span({ run, total }: AroundState) {
    if (run === null || run.entries.length === 0) return null;
    const last = run.start + run.entries.length - 1;
    // What it knows at the bottom of the board moves down with every new player below it.
    return { start: run.start, end: last >= total ? Infinity : last };
  }

  scores({ run }: AroundState) {
    return run ? run.entries.map((entry) => entry.score) : [];
  }

  protected same(a: AroundState, b: AroundState) {
    return sameEntries(this.window(a)?.entries ?? [], this.window(b)?.entries ?? []);
  }

  protected snapshot(state: AroundState): LiveWindow {
    return this.window(state) ?? { center: null, entries: [], total: state.total, scope: this.scope };
  }

  protected update(_previous: AroundState, next: AroundState): LiveWindow {
    return this.snapshot(next);
  }

  protected gone(): LiveWindow {
    return { center: null, entries: [], total: 0, scope: this.scope };
  }

  /**
   * The window `Leaderboard.around` reads: the player and `radius` entries each side, filled out
   * from the other side at the ends of the board; null when the state does not know all of it.
   */
  private window({ run, total }: AroundState): LiveWindow | null {
    if (run === null) return null;
    const at = run.entries.findIndex((entry) => entry.playerId === this.player);
    if (at < 0) return null;
    const rank = run.start + at;
    const start = Math.max(1, Math.min(rank - this.radius, total - 2 * this.radius));
    const end = Math.min(total, start + 2 * this.radius);
    if (start < run.start || end > run.start + run.entries.length - 1) return null;
    return { center: run.entries[at], entries: run.entries.slice(start - run.start, end - run.start + 1), total, scope: this.scope };
  }
}

/** What a subscriber sees of an entry, apart from what only board growth moves (percentile, total). */
const sameEntry = (a: LiveEntry, b: LiveEntry) =>
  a.playerId === b.playerId && a.rank === b.rank && a.score === b.score && a.sharedRank === b.sharedRank;

const sameEntries = (a: LiveEntry[], b: LiveEntry[]) => a.length === b.length && a.every((entry, i) => sameEntry(entry, b[i]));
