import type { Entry, Page, RankWindow } from '../../store/types';
import type { Changes, OwnChange } from './changes';
import type { LiveStream } from './liveStream';
import type { Span } from './rankIndex';

type Cause = 'snapshot' | OwnChange | 'rank' | 'deleted';

export interface RankChange {
  entry: Entry | null;
  previousRank: number | null;
  previousScore: number | null;
  cause: Cause;
}

export interface TopUpdate {
  entries: Entry[];
  /** The board's change counter when read. */
  version: number;
}

/** The reads of one refresh; lookups of single players are batched into one store call. */
export interface Reads {
  entry(playerId: string): Promise<Entry | null>;
  top(first: number): Promise<Page>;
  around(playerId: string, radius: number): Promise<RankWindow | null>;
  size(): Promise<number>;
}

/**
 * One piece of a board that subscribers follow (a player, the top N, a window), shared by all
 * subscribers of the same arguments on this server: it is read once per refresh and each payload
 * is built once, whatever the number of subscribers. `S` is what is read, `P` what is sent.
 */
export abstract class Watch<S, P> {
  /** The last state read; undefined until the first read. */
  state: S | undefined;
  /** Subscribers, each with whether it still waits for a snapshot. */
  readonly subscribers = new Map<LiveStream<P>, boolean>();
  private snapshotOfState: P | undefined;

  /** The player whose own changes always concern this watch, whatever the ranks say. */
  abstract readonly player: string | null;
  abstract read(reads: Reads): Promise<S>;
  /** The ranks the state shows; null when it shows none. */
  abstract span(state: S): Span | null;
  /** The scores the state shows: a tie with one of them can change a shared rank. */
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

  /** Takes a fresh state: snapshots to those waiting for one, the update to the others if it changed. */
  apply(next: S, changes: Changes): void {
    const previous = this.state;
    this.state = next;
    const changed = previous === undefined || !this.same(previous, next);
    this.snapshotOfState = undefined;
    let update: P | undefined;
    for (const [stream, waiting] of this.subscribers) {
      if (waiting) {
        this.subscribers.set(stream, false);
        stream.push(this.snapshotPayload(next));
      } else if (changed) {
        stream.push((update ??= this.update(previous!, next, changes)));
      }
    }
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

export class PlayerWatch extends Watch<Entry | null, RankChange> {
  constructor(readonly player: string) {
    super();
  }

  read(reads: Reads) {
    return reads.entry(this.player);
  }

  span(entry: Entry | null) {
    return entry && { start: entry.rank, end: entry.rank };
  }

  scores(entry: Entry | null) {
    return entry ? [entry.score] : [];
  }

  protected same(a: Entry | null, b: Entry | null) {
    return a === null || b === null ? a === b : sameEntry(a, b);
  }

  protected snapshot(entry: Entry | null): RankChange {
    return { entry, previousRank: null, previousScore: null, cause: 'snapshot' };
  }

  protected update(previous: Entry | null, entry: Entry | null, changes: Changes): RankChange {
    const cause = changes.players.get(this.player) ?? 'rank';
    return { entry, previousRank: previous?.rank ?? null, previousScore: previous?.score ?? null, cause };
  }

  protected gone(): RankChange {
    return { entry: null, previousRank: this.state?.rank ?? null, previousScore: this.state?.score ?? null, cause: 'deleted' };
  }
}

/** A run of entries, sent as read: a new one goes out when the entries shown change. */
abstract class WindowWatch<S extends { entries: Entry[] }> extends Watch<S, S> {
  scores({ entries }: S) {
    return entries.map((entry) => entry.score);
  }

  protected same(a: S, b: S) {
    return sameEntries(a.entries, b.entries);
  }

  protected snapshot(state: S) {
    return state;
  }

  protected update(_previous: S, next: S) {
    return next;
  }
}

export class TopWatch extends WindowWatch<TopUpdate> {
  readonly player = null;

  constructor(readonly first: number) {
    super();
  }

  async read(reads: Reads): Promise<TopUpdate> {
    const { entries, version } = await reads.top(this.first);
    return { entries, version };
  }

  /** Ranks 1..first even on a smaller board: a new player there lands at a rank <= first. */
  span() {
    return { start: 1, end: this.first };
  }

  protected gone(): TopUpdate {
    // What a read of a board that does not exist says.
    return { entries: [], version: 0 };
  }
}

export class AroundWatch extends WindowWatch<RankWindow> {
  constructor(
    readonly player: string,
    readonly radius: number,
  ) {
    super();
  }

  async read(reads: Reads): Promise<RankWindow> {
    const window = await reads.around(this.player, this.radius);
    return window ?? { center: null, entries: [], total: await reads.size() };
  }

  span({ entries, total }: RankWindow) {
    if (entries.length === 0) return null;
    const last = entries[entries.length - 1].rank;
    // A window at the bottom of the board moves down with every new player below it.
    return { start: entries[0].rank, end: last === total ? Infinity : last };
  }

  protected gone(): RankWindow {
    return { center: null, entries: [], total: 0 };
  }
}

/** What a subscriber sees of an entry, apart from what only board growth moves (percentile, total). */
const sameEntry = (a: Entry, b: Entry) =>
  a.playerId === b.playerId && a.rank === b.rank && a.score === b.score && a.sharedRank === b.sharedRank;

const sameEntries = (a: Entry[], b: Entry[]) => a.length === b.length && a.every((entry, i) => sameEntry(entry, b[i]));
