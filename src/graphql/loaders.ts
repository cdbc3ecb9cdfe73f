import DataLoader from 'dataloader';
import { MAX_BATCH_SIZE } from '../domain/limits';
import { checkId } from '../domain/validation';
import type { PlayerProfile } from '../store/playerStore';
import type { BoardConfig, EntryFields, RankingRef } from '../model';
import { ALL_ENTRY_FIELDS, isViewRef } from '../model';
import type { Services } from './context';
import { type EntryModel, entriesOnBoard } from './models';

/**
 * Per-request batching and caching. The `entry`/`entries` lookups on one board that a request
 * makes become one store call (one Redis round trip) whatever the query's shape; only a lookup
 * that needs another one's result (entries under `Entry.leaderboard`) comes in a later call.
 * The profiles of entries read together are one call too. Loaders cache (all but the entries'),
 * so they must never outlive their request.
 */
export interface Loaders {
  /**
   * A board's settings: at once when the read cache holds them, otherwise read from Redis once
   * per request. Not a DataLoader: the store reads boards one by one (most from the read cache),
   * so a batch would only add a tick and its promises to nearly every request.
   */
  board(id: string): BoardConfig | null | Promise<BoardConfig | null>;
  /**
   * On a board, one of its periods, or a combined view; `fields` may leave the shared rank out
   * (see selection.ts), and each choice has its own loader, so that no entry read without it is
   * handed to a field that asked for it.
   */
  entries(board: RankingRef, fields?: EntryFields): EntriesLoader;
  player: DataLoader<string, PlayerProfile | null>;
  /** Dense ranks of scores on a board, all those a request asks for in one call; null without dense ranks. */
  denseRanks(boardId: string): DataLoader<number, number | null>;
  /** A write changed the board: later reads in the same request must see it. */
  forgetBoard(boardId: string): void;
}

/** Entries of players on one ranking, every lookup of a request's batch in one store call. */
export interface EntriesLoader {
  /** A player's entry; null when the player is not on it. */
  load(playerId: string): Promise<EntryModel | null>;
  /**
   * The players' entries in their order, as one lookup: one promise for the list however long,
   * where a lookup per player costs a promise, a batch slot and a reaction apiece, all held while
   * the read waits for Redis (bench/notes/allocations.md).
   */
  loadMany(playerIds: readonly string[]): Promise<(EntryModel | null)[]>;
}

/** Each loader is made on first use: most requests need one or two of them. */
export function createLoaders(services: Services): Loaders {
  return new RequestLoaders(services);
}

/**
 * A class rather than an object literal with getters: V8 builds such a literal through its
 * runtime on every request, and that showed in bench:profile (2% of a read's CPU).
 */
class RequestLoaders implements Loaders {
  /** Board reads in flight, which entries batches wait for (see afterBoardReads). */
  private boardReads?: Set<Promise<unknown>>;
  private boards?: Map<string, Promise<BoardConfig | null>>;
  private playerLoader?: DataLoader<string, PlayerProfile | null>;
  private entriesByBoard?: Map<string, BoardEntries>;
  private denseRanksByBoard?: Map<string, DataLoader<number, number | null>>;

  constructor(private readonly services: Services) {}

  board(id: string): BoardConfig | null | Promise<BoardConfig | null> {
    const { leaderboards } = this.services;
    // Nothing to keep or wait for: the read cache holds it until the board changes.
    const known = leaderboards.knownBoard(id);
    if (known) return known;
    const boards = (this.boards ??= new Map());
    const reading = boards.get(id);
    if (reading) return reading;
    const read = leaderboards.getBoard(id);
    boards.set(id, read);
    const boardReads = (this.boardReads ??= new Set());
    boardReads.add(read);
    const done = () => boardReads.delete(read);
    read.then(done, done);
    return read;
  }

  get player(): DataLoader<string, PlayerProfile | null> {
    const { players } = this.services;
    return (this.playerLoader ??= new DataLoader<string, PlayerProfile | null>(
      (ids) => loadValid(ids, (id) => checkId(id, 'id'), (valid) => players.get(valid)),
      { maxBatchSize: MAX_BATCH_SIZE },
    ));
  }

  entries(board: RankingRef, fields = ALL_ENTRY_FIELDS): EntriesLoader {
    const { leaderboards } = this.services;
    const byBoard = (this.entriesByBoard ??= new Map<string, BoardEntries>());
    // A board's id cannot hold a newline, so no period's or view's name can be read as another board's.
    const ranking = typeof board === 'string' ? board : isViewRef(board) ? `\nview:${board.view.id}` : `${board.boardId}\n${board.kind}:${board.key}`;
    const name = fields.sharedRank ? ranking : `${ranking}\nno shared rank`;
    let loader = byBoard.get(name);
    if (!loader) {
      loader = new BoardEntries(
        (ids) => leaderboards.entries(board, ids, fields).then((entries) => entriesOnBoard(board, entries)),
        (dispatch) => this.afterBoardReads(dispatch),
      );
      byBoard.set(name, loader);
    }
    return loader;
  }

  denseRanks(boardId: string): DataLoader<number, number | null> {
    const { leaderboards } = this.services;
    const byBoard = (this.denseRanksByBoard ??= new Map<string, DataLoader<number, number | null>>());
    let loader = byBoard.get(boardId);
    if (!loader) {
      loader = new DataLoader<number, number | null>(async (scores) => {
        const ranks = await leaderboards.denseRanks(boardId, scores);
        return scores.map((_, i) => ranks?.[i] ?? null);
      }, { maxBatchSize: MAX_BATCH_SIZE });
      byBoard.set(boardId, loader);
    }
    return loader;
  }

  /**
   * Holds an entries batch back while a board read of the same request is in flight: fields under
   * `leaderboard(id:)` ask for entries only once their board is read, and waiting lets them join
   * the batch of the other lookups instead of costing a round trip of their own. The first look
   * comes when DataLoader would dispatch by itself, once the promise jobs queued so far have run
   * (GraphQL calls the fields' resolvers in them); a batch with nothing to wait for goes out then,
   * without a turn of the event loop. After a read from Redis, setImmediate runs after the
   * microtasks in which GraphQL calls those child resolvers.
   */
  private afterBoardReads(dispatch: () => void): void {
    const attempt = () => {
      if (!this.boardReads?.size) return dispatch();
      void Promise.allSettled([...this.boardReads]).then(() => setImmediate(attempt));
    };
    void Promise.resolve().then(() => process.nextTick(attempt));
  }

  forgetBoard(boardId: string): void {
    this.boards?.delete(boardId);
    for (const name of this.entriesByBoard?.keys() ?? []) {
      if (name === boardId || name.startsWith(`${boardId}\n`)) this.entriesByBoard!.delete(name);
    }
    this.denseRanksByBoard?.delete(boardId);
  }
}

/** A lookup of entries: one player (`entry`, `node`) or a list of them (`entries(playerIds:)`). */
type Lookup = string | readonly string[];
type Found = EntryModel | null | (EntryModel | null)[];

/**
 * A DataLoader whose keys are lookups rather than players, so that a list costs one key. It does
 * not cache: a batch reads each player once however many lookups name them, and a lookup comes
 * again only in a later batch, which reads Redis again.
 */
class BoardEntries implements EntriesLoader {
  private readonly loader: DataLoader<Lookup, Found>;

  constructor(read: (ids: readonly string[]) => Promise<(EntryModel | null)[]>, schedule: (dispatch: () => void) => void) {
    this.loader = new DataLoader(
      (lookups) => loadValid(lookups, checkLookup, (valid) => readLookups(valid, read)),
      { cache: false, batchScheduleFn: schedule },
    );
  }

  load(playerId: string): Promise<EntryModel | null> {
    return this.loader.load(playerId) as Promise<EntryModel | null>;
  }

  loadMany(playerIds: readonly string[]): Promise<(EntryModel | null)[]> {
    return this.loader.load(playerIds) as Promise<(EntryModel | null)[]>;
  }
}

/** Reads the players of well-formed lookups, each once, in calls of at most MAX_BATCH_SIZE, and answers lookup by lookup. */
function readLookups(
  lookups: readonly Lookup[], read: (ids: readonly string[]) => Promise<(EntryModel | null)[]>,
): Promise<Found[]> {
  // Nearly always one lookup: read as it is (a list fits one call: checkBatchSize).
  if (lookups.length === 1) {
    const [lookup] = lookups;
    return typeof lookup === 'string' ? read(lookups as readonly string[]) : read(lookup).then((entries) => [entries]);
  }
  const positions = new Map<string, number>();
  const place = (id: string) => {
    if (!positions.has(id)) positions.set(id, positions.size);
  };
  for (const lookup of lookups) {
    if (typeof lookup === 'string') place(lookup);
    else lookup.forEach(place);
  }
  const ids = [...positions.keys()];
  const calls: Promise<(EntryModel | null)[]>[] = [];
  for (let from = 0; from < ids.length; from += MAX_BATCH_SIZE) calls.push(read(ids.slice(from, from + MAX_BATCH_SIZE)));
  return Promise.all(calls).then((parts) => {
    const entries = parts.flat();
    const entryOf = (id: string) => entries[positions.get(id)!];
    return lookups.map((lookup) => (typeof lookup === 'string' ? entryOf(lookup) : lookup.map(entryOf)));
  });
}

/** Throws the error of a lookup's first malformed id. */
function checkLookup(lookup: Lookup): void {
  if (typeof lookup === 'string') checkId(lookup, 'playerId');
  else lookup.forEach((id) => checkId(id, 'playerId'));
}

/**
 * Loads the keys that pass `check` (which throws for a malformed key) in one call; a malformed key
 * fails only the fields that asked for it instead of the whole batch.
 */
function loadValid<K, V>(
  keys: readonly K[], check: (key: K) => unknown, load: (valid: readonly K[]) => Promise<V[]>,
): Promise<(V | Error)[]> {
  let errors: (Error | undefined)[] | undefined;
  keys.forEach((key, i) => {
    try {
      check(key);
    } catch (err) {
      (errors ??= new Array<Error | undefined>(keys.length))[i] = err as Error;
    }
  });
  // Nearly always every key passes: the batch is loaded as it is.
  if (!errors) return load(keys);
  const failed = errors;
  const valid = keys.filter((_, i) => !failed[i]);
  if (valid.length === 0) return Promise.resolve(failed as Error[]);
  return load(valid).then((values) => {
    let next = 0;
    return keys.map((_, i) => failed[i] ?? values[next++]);
  });
}
