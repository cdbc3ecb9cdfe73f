import type { Cluster, Redis } from 'ioredis';
import { afterFirstWrite, unavailable, WriteOutcome } from '../errors';
import type {
  BoardConfig, BoardUpdate, CreateBoardInput, EntryFields, EntryRead, Page, PageOptions, PeriodRef, PlayerEntry, RangePage, RankingRef,
  RankWindow, ScoreRange, Submission, ViewSpec,
} from '../model';
import { ALL_ENTRY_FIELDS, isViewRef } from '../model';
import { addSeasons, type AddSeasonsResult } from './commands/add_seasons';
import { aroundPlayer, aroundScore } from './commands/around';
import { createBoard } from './commands/create_board';
import { deleteBoardHead } from './commands/delete_board';
import { denseRanks } from './commands/dense_rank';
import { readEntries } from './commands/entries';
import { readPage } from './commands/page';
import { ALL_TIME_SLOTS, type ListedSlots, type Removal, removeMany } from './commands/remove_many';
import { scoreAt } from './commands/score_at';
import { STALE_LAYOUT, type StaleLayout } from './commands/scriptErrors';
import { allTimeOnly, type PlannedSubmit, submit, type SubmitOutcome } from './commands/submit';
import { updateBoard } from './commands/update_board';
import { BOARD_INDEX_KEY, boardKeys, rankingKeys } from './keys';
import { redisRead, redisWrite } from './redisCall';
import { ScriptRunner } from './scriptRunner';
import { ViewBuilds } from './viewBuild';

/** Keys per command (UNLINK) or pipeline (PEXPIREAT) when a call goes over a board's buckets. */
const KEYS_PER_CALL = 1000;

/** What the store keeps of a board to address its keys. */
interface KnownBoard {
  buckets: number;
  periods: string;
}

/** Stands in for a board not found: any bucket count will do, the scripts report it (NOT_FOUND or empty). */
const UNKNOWN_BOARD: KnownBoard = { buckets: 1, periods: '' };

export interface LeaderboardStoreOptions {
  /**
   * Tests only: the moment (µs) scripts take as "now" instead of Redis' TIME, to drive periods
   * and expiry without waiting. The server never sets it (src/server/config.ts has no such
   * setting): in production the period and the tie order come from Redis' clock alone.
   */
  testNow?: () => number;
}

/**
 * The Redis store: every read and write of a board is one Lua script call (one round trip),
 * each script's keys, arguments, reply and errors in its module (./commands). The store keeps
 * how to address each board (its bucket count and periods) and runs the calls that are not
 * scripts. Inputs are assumed validated by the domain layer; Redis-side checks come back as
 * StandingsErrors or typed results, and a Redis that cannot be reached as UNAVAILABLE.
 */
export class LeaderboardStore {
  /** Bucket counts and periods by board: fixed for a board's life, and checked by every script that uses them. */
  private readonly boards = new Map<string, KnownBoard>();
  private readonly scripts: ScriptRunner;
  private readonly views: ViewBuilds;

  constructor(
    readonly redis: Redis | Cluster,
    options: LeaderboardStoreOptions = {},
  ) {
    this.scripts = new ScriptRunner(redis, options.testNow);
    this.views = new ViewBuilds(this.scripts, (boardId, op) => this.withBuckets(boardId, op));
  }

  async createBoard(input: CreateBoardInput): Promise<{ board: BoardConfig; created: boolean }> {
    const created = await createBoard(this.scripts, input);
    // The index lives outside the board's slot, so it is written after the board itself.
    await redisWrite(this.redis, () => this.redis.zadd(BOARD_INDEX_KEY, 0, input.id), BOARD_INDEX_KEY).catch(afterFirstWrite);
    this.boards.set(input.id, created.board);
    return created;
  }

  async getBoard(id: string): Promise<BoardConfig | null> {
    const [sortOrder, updatePolicy, title, createdAt, buckets, dense, periods] = await redisRead(this.redis, () =>
      this.redis.hmget(boardKeys(id).config, 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'dense', 'periods'),
    );
    if (!sortOrder) {
      this.boards.delete(id);
      return null;
    }
    this.boards.set(id, { buckets: Number(buckets), periods: periods ?? '' });
    return {
      id,
      title,
      sortOrder: sortOrder as BoardConfig['sortOrder'],
      updatePolicy: updatePolicy as BoardConfig['updatePolicy'],
      createdAt: Number(createdAt),
      buckets: Number(buckets),
      denseRanks: dense !== null,
      periods: periods ?? '',
    };
  }

  /**
   * The board's periods (BoardConfig.periods) as the store knows them, read once and then kept
   * until a script says they changed: what the domain plans writes from. Null for no board.
   */
  async boardPeriods(boardId: string): Promise<string | null> {
    const known = this.boards.get(boardId);
    if (known) return known.periods;
    return (await this.getBoard(boardId))?.periods ?? null;
  }

  async listBoards(limit: number, afterId?: string): Promise<{ ids: string[]; hasMore: boolean }> {
    const ids = await redisRead(this.redis, () =>
      this.redis.zrangebylex(BOARD_INDEX_KEY, afterId === undefined ? '-' : `(${afterId}`, '+', 'LIMIT', 0, limit + 1),
    );
    return { ids: ids.slice(0, limit), hasMore: ids.length > limit };
  }

  countBoards(): Promise<number> {
    return redisRead(this.redis, () => this.redis.zcard(BOARD_INDEX_KEY));
  }

  async deleteBoard(id: string): Promise<boolean> {
    const keys = boardKeys(id);
    await redisWrite(this.redis, () => this.redis.zrem(BOARD_INDEX_KEY, id), BOARD_INDEX_KEY);
    try {
      const buckets = await deleteBoardHead(this.scripts, id);
      this.boards.delete(id);
      if (buckets === undefined) return false;
      for (let from = 0; from < buckets; from += KEYS_PER_CALL) {
        const chunk: string[] = [];
        for (let i = from; i < Math.min(buckets, from + KEYS_PER_CALL); i++) chunk.push(keys.bucket(i));
        await redisWrite(this.redis, () => this.redis.unlink(...chunk), chunk[0]);
      }
      await this.unlinkMatching(keys.idempotencyPattern);
      await redisWrite(this.redis, () => this.redis.unlink(keys.watched), keys.watched);
      // The board's config went first, so no submission can add a period key behind the scan.
      await this.unlinkMatching(keys.periodAndViewPattern);
      return true;
    } catch (err) {
      return afterFirstWrite(err);
    }
  }

  /**
   * Marks period kinds of the board as followed live until `untilMs` (by the clock the submit
   * script compares with: Redis', or a test's), so that writes put their ranks in the events
   * (keys.ts: st:{b}:watched). The hash goes `ttlMs` after the last mark of any kind.
   */
  async markWatched(boardId: string, kinds: string[], untilMs: number, ttlMs: number): Promise<void> {
    const key = boardKeys(boardId).watched;
    const until = String(Math.ceil(untilMs));
    await redisWrite(this.redis, () => this.redis.multi().hset(key, ...kinds.flatMap((kind) => [kind, until])).pexpire(key, ttlMs).exec(), key);
  }

  async size(board: RankingRef): Promise<number> {
    return redisRead(this.redis, () => this.redis.zcard(rankingKeys(board).ranking));
  }

  /**
   * Writes the submissions where `planned` says (default: ALL_TIME only). Nothing is written
   * when the plan is stale (see SubmitOutcome): the caller reads the board's periods again, or
   * plans again at Redis' moment, and calls again.
   */
  async submit(boardId: string, submissions: Submission[], planned: PlannedSubmit = allTimeOnly(submissions.length)): Promise<SubmitOutcome> {
    const { buckets } = this.boards.get(boardId) ?? (await this.getBoard(boardId)) ?? UNKNOWN_BOARD;
    const outcome = await submit(this.scripts, boardId, buckets, submissions, planned);
    if (outcome === STALE_LAYOUT) this.boards.delete(boardId);
    return outcome;
  }

  /**
   * Removes the player from every period `listed` names (default: ALL_TIME); false when none held
   * them. Each removal is all or nothing, and answers STALE_LAYOUT (nothing removed) when the
   * board's periods changed since the slots were listed; NOT_FOUND for an unknown board.
   */
  async remove(boardId: string, playerId: string, listed?: ListedSlots): Promise<boolean | StaleLayout> {
    const removed = await this.removePlayers(boardId, [playerId], 1, listed);
    return typeof removed === 'number' ? removed > 0 : removed;
  }

  /** Removes every entry whose score lies in the range from the one period `listed` names; BAD_USER_INPUT past `max`. */
  removeByScore(boardId: string, range: ScoreRange, max: number, listed?: ListedSlots): Promise<number | StaleLayout> {
    return this.removeMany(boardId, { range }, max, listed);
  }

  /** Removes every entry ranked below the first `keep` of the one period `listed` names, as removeByScore. */
  keepTop(boardId: string, keep: number, max: number, listed?: ListedSlots): Promise<number | StaleLayout> {
    return this.removeMany(boardId, { keep }, max, listed);
  }

  /** Removes these players' entries from every period `listed` names; how many players went. BAD_USER_INPUT past `max` from one period. */
  removePlayers(boardId: string, playerIds: readonly string[], max: number, listed?: ListedSlots): Promise<number | StaleLayout> {
    return this.removeMany(boardId, { playerIds }, max, listed);
  }

  /** The players' entries, in the order asked (null for one not on the board); `fields` may leave the shared rank out. */
  entries(board: RankingRef, playerIds: readonly string[]): Promise<(PlayerEntry | null)[]>;
  entries(board: RankingRef, playerIds: readonly string[], fields: EntryFields): Promise<(EntryRead | null)[]>;
  async entries(board: RankingRef, playerIds: readonly string[], fields = ALL_ENTRY_FIELDS): Promise<(EntryRead | null)[]> {
    return (await this.bucketsOf(board, (buckets) => readEntries(this.scripts, board, buckets, playerIds, fields))).entries;
  }

  /** As `entries`, with the board's change counter at the read: live updates apply the events after it. */
  async entriesAt(board: RankingRef, playerIds: string[]): Promise<{ entries: (PlayerEntry | null)[]; version: number }> {
    // Read with every field: each entry found has its shared rank.
    return (await this.bucketsOf(board, (buckets) => readEntries(this.scripts, board, buckets, playerIds, ALL_ENTRY_FIELDS))) as {
      entries: (PlayerEntry | null)[]; version: number;
    };
  }

  async page(board: RankingRef, options: PageOptions): Promise<Page> {
    const { entries, total, hasMore, version } = await readPage(this.scripts, board, options);
    return { entries, total, hasMore, version };
  }

  /**
   * A page of the entries whose score lies in the range, ranked as on the whole board; top-down
   * however it is read (`backward`: the entries that end at the range's last or right above the
   * cursor's entry).
   */
  async rangePage(board: RankingRef, range: ScoreRange, options: PageOptions): Promise<RangePage> {
    const { entries, total, hasMore, version, count, rangeStart } = await readPage(this.scripts, board, options, { range });
    return { entries, total, hasMore, version, count, rangeStart };
  }

  /** Entries whose score lies in the range, counted by Redis (two ZCOUNTs). */
  async countByScore(board: RankingRef, range: ScoreRange): Promise<number> {
    return (await readPage(this.scripts, board, { limit: 0 }, { range })).count;
  }

  async topPercent(board: RankingRef, percent: number, limit: number) {
    const { entries, total, count } = await readPage(this.scripts, board, { limit }, { topPercent: percent });
    return { entries, total, count };
  }

  /** The score of the entry ranked `rank` (1-based); null past the last rank. */
  scoreAtRank(board: RankingRef, rank: number): Promise<number | null> {
    return scoreAt(this.scripts, board, 'rank', rank);
  }

  /** The score at a percentile (0 < percent <= 100), interpolated as score_at.lua says; null on an empty board. */
  scoreAtPercentile(board: RankingRef, percent: number): Promise<number | null> {
    return scoreAt(this.scripts, board, 'percent', percent);
  }

  /** Dense ranks (1, 2, 2, 3) of these scores now, in order; null for an unknown board or one without dense ranks. */
  denseRanks(boardId: string, scores: readonly number[]): Promise<number[] | null> {
    return denseRanks(this.scripts, boardId, scores);
  }

  updateBoard(update: BoardUpdate): Promise<{ board: BoardConfig; changed: boolean }> {
    return updateBoard(this.scripts, update);
  }

  /**
   * Gives the board the periods `periods` (its own with seasons added: see add_seasons.lua) if it
   * still has `expected`; `earliestStart` (µs) is the first moment of the earliest season added.
   */
  async addSeasons(boardId: string, expected: string, periods: string, earliestStart: number): Promise<AddSeasonsResult> {
    const result = await addSeasons(this.scripts, boardId, expected, periods, earliestStart);
    if ('board' in result) this.boards.set(boardId, result.board);
    return result;
  }

  /**
   * Sets when a period's keys expire (PEXPIREAT, ms), once the calendar moved its end of
   * retention: its ranking and every bucket key the board's bucket count makes (one that does not
   * exist stays so), in chunks, so no scan of the keyspace is needed.
   */
  async expirePeriod(boardId: string, kind: string, key: string, expiresAtMs: number): Promise<void> {
    const period = boardKeys(boardId).period(kind, key);
    await this.withBuckets(boardId, async (buckets) => {
      const all = [period.ranking, ...Array.from({ length: buckets }, (_, i) => period.bucket(i))];
      for (let from = 0; from < all.length; from += KEYS_PER_CALL) {
        const chunk = all.slice(from, from + KEYS_PER_CALL);
        await redisWrite(this.redis, () => {
          const pipeline = this.redis.pipeline();
          for (const name of chunk) pipeline.pexpireat(name, expiresAtMs);
          return pipeline.exec();
        }, chunk[0]);
      }
    });
  }

  async around(board: RankingRef, playerId: string, radius: number): Promise<RankWindow | null> {
    return (await this.aroundAt(board, playerId, radius)).window;
  }

  /** As `around` (window null when the player has no entry), with the board's change counter and size at the read. */
  aroundAt(board: RankingRef, playerId: string, radius: number): Promise<{ window: RankWindow | null; total: number; version: number }> {
    return this.bucketsOf(board, (buckets) => aroundPlayer(this.scripts, board, buckets, playerId, radius));
  }

  aroundScore(board: RankingRef, score: number, radius: number): Promise<RankWindow> {
    return aroundScore(this.scripts, board, score, radius);
  }

  /** Builds a combined view into its keys (ViewBuilds.buildView); the number of entries of the view. */
  buildView(view: ViewSpec, ttlMs: number): Promise<number> {
    return this.views.buildView(view, ttlMs);
  }

  /** How many entries each source ranking holds now: what building a view of them reads. */
  sourceSizes(sources: readonly PeriodRef[]): Promise<number[]> {
    return this.views.sourceSizes(sources);
  }

  /** Runs `op` with the bucket count of what `board` names: a view has one bucket (ViewBuilds.buildView). */
  private bucketsOf<T>(board: RankingRef, op: (buckets: number) => Promise<T | StaleLayout>): Promise<T> {
    if (isViewRef(board)) return op(1) as Promise<T>;
    return this.withBuckets(typeof board === 'string' ? board : board.boardId, op);
  }

  /** Runs `op` with the board's bucket count, read again once when `op` finds the board re-created (STALE_LAYOUT). */
  private async withBuckets<T>(boardId: string, op: (buckets: number) => Promise<T | StaleLayout>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const { buckets } = this.boards.get(boardId) ?? (await this.getBoard(boardId)) ?? UNKNOWN_BOARD;
      const result = await op(buckets);
      if (result !== STALE_LAYOUT) return result as T;
      // Changed again since the refresh (seasons added twice in a moment, a board re-created):
      // nothing was done, and a retry will find it settled.
      if (attempt > 0) throw unavailable('the board changed twice while this call was made; retry', WriteOutcome.NOT_APPLIED);
      this.boards.delete(boardId);
    }
  }

  private async removeMany(boardId: string, removal: Removal, max: number, listed = ALL_TIME_SLOTS): Promise<number | StaleLayout> {
    const outcome = await removeMany(this.scripts, boardId, listed, max, removal);
    if (outcome === STALE_LAYOUT) this.boards.delete(boardId);
    return outcome;
  }

  private async unlinkMatching(pattern: string): Promise<void> {
    const nodes = this.redis.isCluster ? (this.redis as Cluster).nodes('master') : [this.redis as Redis];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, found] = await redisRead(node, () => node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
        if (found.length) await redisWrite(node, () => node.unlink(...found), found[0]);
        cursor = next;
      } while (cursor !== '0');
    }
  }
}
