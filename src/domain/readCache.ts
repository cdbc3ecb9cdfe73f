import type { BoardListener, EventBridge } from '../store/eventBridge';

/**
 * Entries kept at most, over all boards: a kept page counts its entries, any other kept value
 * one, and each followed board one for itself. Past it the least recently read boards are
 * dropped, then the oldest reads of the board being read.
 */
const MAX_ENTRIES = 100_000;
/** By default, a board not read for this long (up to twice as long) gives its subscription back. */
const IDLE_MS = 60_000;
/** At most this stale: a board's place in the order of last reads (see `touch`). */
const TOUCH_MS = 1_000;

interface Read {
  /** In flight or done; shared by every request that asks the same. */
  value: Promise<unknown>;
  /** What it counts against MAX_ENTRIES: nothing until it has answered. */
  entries: number;
  /** True once `value` has answered and its answer is kept in `answer`, for `peek`. */
  answered: boolean;
  answer?: unknown;
}

interface CachedBoard extends BoardListener {
  /** Reads by what they asked. */
  reads: Map<string, Read>;
  /** The entries its reads count. */
  entries: number;
  /** True while the board's event channel is subscribed: only then is anything kept. */
  synced: boolean;
  readAt: number;
  unsubscribe?: () => void;
}

/**
 * Hot reads of busy boards (their settings, their size, their top pages) served from memory and
 * never staler than a live update. A board is followed from the first read that finds it (see
 * `keepFresh`); its reads are kept only while this process holds the board's event subscription
 * (src/store/eventBridge.ts), and every change published on it (every script that changes a
 * board publishes), a dropped connection or a write through this process forgets them. A read
 * that was in flight when they were forgotten still answers the requests that were waiting for
 * it (it started before the change), but is not kept.
 */
export class ReadCache {
  private readonly boards = new Map<string, CachedBoard>();
  private readonly sweeper: NodeJS.Timeout;
  /** TOUCH_MS, or a tenth of the idle time when that is shorter. */
  private readonly touchMs: number;
  private kept = 0;

  constructor(
    private readonly bridge: EventBridge,
    private readonly idleMs = IDLE_MS,
    private readonly maxEntries = MAX_ENTRIES,
  ) {
    this.sweeper = setInterval(() => this.dropIdle(), idleMs).unref();
    this.touchMs = Math.min(TOUCH_MS, idleMs / 10);
  }

  /** The entries kept now, counted as MAX_ENTRIES counts them. */
  get entries(): number {
    return this.kept;
  }

  /**
   * `load()`'s answer, shared with every other caller asking `key` of the board until the board
   * changes; for a board not followed (see `keepFresh`), just `load()`'s answer.
   */
  read<T>(boardId: string, key: string, load: () => Promise<T>): Promise<T> {
    const board = this.boards.get(boardId);
    if (!board) return load();
    this.touch(boardId, board);
    const kept = board.reads.get(key);
    if (kept) return kept.value as Promise<T>;
    const loaded = load();
    if (!board.synced) return loaded;
    const read: Read = { value: loaded, entries: 0, answered: false };
    board.reads.set(key, read);
    const forget = () => board.reads.get(key) === read && this.forgetRead(board, key);
    loaded.then((value) => {
      // A missing board is asked again next time: one created through another instance is then
      // seen by the next read, not only once its event arrives.
      if (value === null) return forget();
      if (board.reads.get(key) !== read) return;
      read.answered = true;
      read.answer = value;
      read.entries = entriesOf(value);
      board.entries += read.entries;
      this.kept += read.entries;
      this.shrink(board);
    }, forget);
    return loaded;
  }

  /**
   * What `read` would answer for `key` of the board, when that is kept and has answered; undefined
   * otherwise (then `read`). For callers that can go on at once with a value they have, where a
   * kept promise would still cost them a turn of the promise jobs.
   */
  peek<T>(boardId: string, key: string): T | undefined {
    const board = this.boards.get(boardId);
    const read = board?.reads.get(key);
    if (!read?.answered) return undefined;
    this.touch(boardId, board!);
    return read.answer as T;
  }

  /** The board changed through this process: later reads must see it, before its event comes back. */
  forget(boardId: string): void {
    const board = this.boards.get(boardId);
    if (board) this.clear(board);
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const board of this.boards.values()) board.unsubscribe?.();
    this.boards.clear();
    this.kept = 0;
  }

  /**
   * Starts keeping the board's reads: called once a board is known to exist, so reads of ids that
   * name no board never cost a subscription.
   */
  keepFresh(boardId: string): void {
    if (this.boards.has(boardId)) return;
    const board = this.subscribe(boardId);
    this.kept++;
    this.touch(boardId, board);
    this.shrink(board);
  }

  /**
   * Map order is the order of last reads, to within `touchMs`: the first board is the least
   * recently read. Moving a hot board to the end on each of its reads cost 2% of a top-10 read's
   * CPU (bench:profile), and the order needs no finer grain than a tenth of the idle time.
   */
  private touch(boardId: string, board: CachedBoard): void {
    const now = Date.now();
    if (now - board.readAt < this.touchMs) return;
    this.boards.delete(boardId);
    board.readAt = now;
    this.boards.set(boardId, board);
  }

  /** Drops the least recently read boards but `current`, then `current`'s oldest reads, until the entries kept fit. */
  private shrink(current: CachedBoard): void {
    for (const [boardId, board] of this.boards) {
      if (this.kept <= this.maxEntries) return;
      if (board !== current) this.drop(boardId);
    }
    for (const key of current.reads.keys()) {
      if (this.kept <= this.maxEntries) return;
      this.forgetRead(current, key);
    }
  }

  private forgetRead(board: CachedBoard, key: string): void {
    const read = board.reads.get(key)!;
    board.reads.delete(key);
    board.entries -= read.entries;
    this.kept -= read.entries;
  }

  private clear(board: CachedBoard): void {
    board.reads.clear();
    this.kept -= board.entries;
    board.entries = 0;
  }

  private subscribe(boardId: string): CachedBoard {
    const board: CachedBoard = {
      reads: new Map(),
      entries: 0,
      synced: false,
      readAt: 0,
      events: () => this.clear(board),
      resubscribed: () => {
        this.clear(board);
        board.synced = true;
      },
      lost: () => {
        board.synced = false;
        this.clear(board);
      },
    };
    this.bridge.listen(boardId, board).then(
      (unsubscribe) => {
        if (this.boards.get(boardId) !== board) return unsubscribe();
        board.unsubscribe = unsubscribe;
        board.synced = this.bridge.connected;
      },
      // Without a subscription nothing is kept; the next read after this one tries again.
      () => this.boards.get(boardId) === board && this.drop(boardId),
    );
    return board;
  }

  private drop(boardId: string): void {
    const board = this.boards.get(boardId);
    if (!board) return;
    this.clear(board);
    this.kept--;
    board.unsubscribe?.();
    this.boards.delete(boardId);
  }

  private dropIdle(): void {
    const idleSince = Date.now() - this.idleMs;
    for (const [boardId, board] of this.boards) if (board.readAt < idleSince) this.drop(boardId);
  }
}

/** What a kept value counts against MAX_ENTRIES: a page its entries, anything else one. */
function entriesOf(value: unknown): number {
  const entries = (value as { entries?: unknown }).entries;
  return Array.isArray(entries) ? Math.max(1, entries.length) : 1;
}
