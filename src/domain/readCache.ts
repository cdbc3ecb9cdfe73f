import type { BoardListener, EventBridge } from '../store/eventBridge';

/** Boards whose reads are kept at once; the least recently read one goes first. */
const MAX_BOARDS = 1_000;
/** Reads kept per board (settings, size, a few top pages); past it the board starts afresh. */
const MAX_READS_PER_BOARD = 32;
/** By default, a board not read for this long (up to twice as long) gives its subscription back. */
const IDLE_MS = 60_000;
/** At most this stale: a board's place in the order of last reads (see `touch`). */
const TOUCH_MS = 1_000;

interface CachedBoard extends BoardListener {
  /** Reads in flight or done, by what they asked; shared by every request that asks the same. */
  reads: Map<string, Promise<unknown>>;
  /** True while the board's event channel is subscribed: only then is anything kept. */
  synced: boolean;
  readAt: number;
  unsubscribe?: () => void;
}

/**
 * Hot reads of busy boards (their settings, their size, their top pages) served from memory and
 * never staler than a live update. A board is followed from the first read that finds it (see
 * `follow`); its reads are kept only while this process holds the board's event subscription
 * (src/store/eventBridge.ts), and every change published on it, a dropped connection or a write
 * through this process forgets them. A read that was in flight when they were forgotten still
 * answers the requests that were waiting for it (it started before the change), but is not kept.
 */
export class ReadCache {
  private readonly boards = new Map<string, CachedBoard>();
  private readonly sweeper: NodeJS.Timeout;
  /** TOUCH_MS, or a tenth of the idle time when that is shorter. */
  private readonly touchMs: number;

  constructor(
    private readonly bridge: EventBridge,
    private readonly idleMs = IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.dropIdle(), idleMs).unref();
    this.touchMs = Math.min(TOUCH_MS, idleMs / 10);
  }

  /**
   * `load()`'s answer, shared with every other caller asking `key` of the board until the board
   * changes; for a board not followed (see `follow`), just `load()`'s answer.
   */
  read<T>(boardId: string, key: string, load: () => Promise<T>): Promise<T> {
    const board = this.boards.get(boardId);
    if (!board) return load();
    this.touch(boardId, board);
    const kept = board.reads.get(key);
    if (kept) return kept as Promise<T>;
    const loaded = load();
    if (!board.synced) return loaded;
    if (board.reads.size >= MAX_READS_PER_BOARD) board.reads.clear();
    board.reads.set(key, loaded);
    const forget = () => {
      if (board.reads.get(key) === loaded) board.reads.delete(key);
    };
    // Failures and missing boards are asked again next time: a board may be created meanwhile.
    loaded.then((value) => value === null && forget(), forget);
    return loaded;
  }

  /** The board changed through this process: later reads must see it, before its event comes back. */
  forget(boardId: string): void {
    this.boards.get(boardId)?.reads.clear();
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const board of this.boards.values()) board.unsubscribe?.();
    this.boards.clear();
  }

  /**
   * Starts keeping the board's reads: called once a board is known to exist, so reads of ids that
   * name no board never cost a subscription.
   */
  follow(boardId: string): void {
    if (this.boards.has(boardId)) return;
    if (this.boards.size >= MAX_BOARDS) this.drop(this.boards.keys().next().value!);
    this.touch(boardId, this.subscribe(boardId));
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

  private subscribe(boardId: string): CachedBoard {
    const board: CachedBoard = {
      reads: new Map(),
      synced: false,
      readAt: 0,
      events: () => board.reads.clear(),
      resubscribed: () => {
        board.reads.clear();
        board.synced = true;
      },
      lost: () => {
        board.synced = false;
        board.reads.clear();
      },
    };
    this.bridge.listen(boardId, board).then(
      (unsubscribe) => {
        if (this.boards.get(boardId) !== board) return unsubscribe();
        board.unsubscribe = unsubscribe;
        board.synced = this.bridge.connected;
      },
      // Without a subscription nothing is kept; the next read after this one tries again.
      () => this.boards.get(boardId) === board && this.boards.delete(boardId),
    );
    return board;
  }

  private drop(boardId: string): void {
    this.boards.get(boardId)?.unsubscribe?.();
    this.boards.delete(boardId);
  }

  private dropIdle(): void {
    const idleSince = Date.now() - this.idleMs;
    for (const [boardId, board] of this.boards) if (board.readAt < idleSince) this.drop(boardId);
  }
}
