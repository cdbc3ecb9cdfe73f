import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { afterFirstWrite, unavailable, WriteOutcome } from '../errors';
import { BOARD_INDEX_KEY, boardKeys } from './keys';
import { redisRead, redisWrite } from './redisCall';
import {
  addSeasonsReply, aroundReply, createBoardReply, decodeCursor, deleteBoardReply, denseRankReply, entriesReply, pageReply, removeReply,
  scoreAtReply, submitReply, updateBoardReply,
} from './replies';
import { runScript, type ScriptArg, type ScriptClock, type ScriptName } from './scripts';
import type {
  AddSeasonsResult, BoardConfig, BoardUpdate, CreateBoardInput, Page, PlayerEntry, PageOptions, RangePage, RankWindow, ScoreBound, ScoreRange,
  Submission,
  SubmitPlan, SubmitPlanner, SubmitResult, BoardRef,
} from './types';

const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * Bucket hashes stay compact (listpack) only below hash-max-listpack-entries, 128 by default.
 * At 96 players per bucket on average, a board at its capacity has almost no bucket past 128
 * (Poisson tail ~0.05%), and each bucket key's own overhead is shared by many players.
 */
const PLAYERS_PER_BUCKET = 96;
/** Keys per command (UNLINK) or pipeline (PEXPIREAT) when a call goes over a board's buckets. */
const KEYS_PER_CALL = 1000;

const idOf = (board: BoardRef) => (typeof board === 'string' ? board : board.boardId);

/** The keys a read of the board, or of one of its periods, takes: ALL_TIME's are the board's own. */
function readKeys(board: BoardRef) {
  const keys = boardKeys(idOf(board));
  const period = typeof board === 'string' || board.kind === 'ALL_TIME' ? keys : keys.period(board.kind, board.key);
  return { config: keys.config, ranking: period.ranking, bucket: period.bucket };
}

/** Where every submission lands on a board that keeps ALL_TIME only. */
const allTimeOnly = (count: number): SubmitPlan => ({
  windows: [{ from: 0, to: null }],
  slots: [{ kind: 'ALL_TIME', key: 'all', expiresAtMs: null }],
  itemSlots: Array.from({ length: count }, () => [0]),
});

/** What a board's config keeps as 'pv' (create_board.lua: redis.sha1hex), so submit.lua sees a plan made for other periods. */
const periodsFingerprint = (periods: string) => (periods === '' ? '' : createHash('sha1').update(periods).digest('hex'));

export interface LeaderboardStoreOptions {
  /**
   * Tests only: the moment (µs) scripts take as "now" instead of Redis' TIME, to drive periods
   * and expiry without waiting. The server never sets it (src/server/config.ts has no such
   * setting): in production the period and the tie order come from Redis' clock alone.
   */
  testNow?: () => number;
}

export function bucketCount(capacity: number): number {
  return Math.max(1, Math.ceil(capacity / PLAYERS_PER_BUCKET));
}

/** FNV-1a over the id's UTF-8 bytes: cheap, stable across processes and versions. */
function bucketOf(playerId: string, buckets: number): number {
  // The bytes as char codes: an ASCII id (every valid one, see ID_PATTERN) is its own, with no buffer per id.
  const bytes = ASCII.test(playerId) ? playerId : Buffer.from(playerId, 'utf8').toString('latin1');
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes.charCodeAt(i), 0x01000193) >>> 0;
  return hash % buckets;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The Redis store: every read and write of a board is one Lua script call (one round trip).
 * Inputs are assumed validated by the domain layer; Redis-side checks (unknown board, score
 * overflow under INCREMENT, reachedAt in the future) come back as StandingsErrors, and a Redis
 * that cannot be reached as UNAVAILABLE.
 */
export class LeaderboardStore {
  /** Bucket counts and periods by board: fixed for a board's life, and checked by every script that uses them. */
  private readonly boards = new Map<string, { buckets: number; periods: string }>();
  private readonly clock: ScriptClock;

  constructor(
    readonly redis: Redis | Cluster,
    private readonly options: LeaderboardStoreOptions = {},
  ) {
    this.clock = options.testNow ? 'caller' : 'redis';
  }

  async createBoard(input: CreateBoardInput): Promise<{ board: BoardConfig; created: boolean }> {
    const keys = boardKeys(input.id);
    const title = input.title ?? null;
    const created = createBoardReply(input.id, await this.write('create_board', [keys.config], [
      input.sortOrder, input.updatePolicy, title ?? '', title === null ? '' : '1',
      bucketCount(input.capacity ?? 1_000_000), keys.events, flag(input.denseRanks), input.periods ?? '',
    ]));
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
      const buckets = deleteBoardReply(await this.write('delete_board', [keys.config, keys.ranking, keys.distinct], [keys.events]));
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
      await this.unlinkMatching(keys.periodPattern);
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

  async size(board: BoardRef): Promise<number> {
    return redisRead(this.redis, () => this.redis.zcard(readKeys(board).ranking));
  }

  /**
   * `plan` says which periods each submission lands in (default: ALL_TIME only). When Redis'
   * clock disagrees with the plan's windows, the plan is made again at Redis' moment, once.
   */
  async submit(boardId: string, submissions: Submission[], plan?: SubmitPlanner): Promise<SubmitResult[]> {
    const keys = boardKeys(boardId);
    return submitReply(await this.withBoard(boardId, async ({ buckets, periods }) => {
      let at: number | undefined;
      for (let attempt = 0; ; attempt++) {
        const planned = plan ? plan(periods, at) : allTimeOnly(submissions.length);
        try {
          const [scriptKeys, args] = submitCall(keys, buckets, periods, submissions, planned);
          // The test clock's moment goes last, where only the test variant of the script looks (scripts.ts).
          if (this.options.testNow) args.push(String(this.options.testNow()));
          return await this.write('submit', scriptKeys, args);
        } catch (err) {
          const stale = err instanceof Error ? /^STALE_PERIODS (\d+)/.exec(err.message) : null;
          if (!stale) throw err;
          if (attempt > 0) throw unavailable('the periods of the board moved twice while writing; retry', WriteOutcome.NOT_APPLIED);
          at = Number(stale[1]);
        }
      }
    }));
  }

  async remove(boardId: string, playerId: string): Promise<boolean> {
    const keys = boardKeys(boardId);
    return removeReply(await this.withBuckets(boardId, (buckets) =>
      this.write('remove', [keys.config, keys.ranking, keys.bucket(bucketOf(playerId, buckets)), keys.distinct], [
        buckets, playerId, keys.events,
      ]),
    ));
  }

  async entries(board: BoardRef, playerIds: string[]): Promise<(PlayerEntry | null)[]> {
    return (await this.entriesAt(board, playerIds)).entries;
  }

  /** As `entries`, with the board's change counter at the read: live updates apply the events after it. */
  async entriesAt(board: BoardRef, playerIds: string[]): Promise<{ entries: (PlayerEntry | null)[]; version: number }> {
    const keys = readKeys(board);
    return entriesReply(await this.withBuckets(idOf(board), (buckets) => {
      const bucketKeys = playerIds.map((id) => keys.bucket(bucketOf(id, buckets)));
      return this.read('entries', [keys.config, keys.ranking, ...bucketKeys], [buckets, ...playerIds]);
    }), playerIds.length);
  }

  async page(board: BoardRef, options: PageOptions): Promise<Page> {
    const { entries, total, hasMore, version } = await this.readPage(board, pageArgs(options));
    return { entries, total, hasMore, version };
  }

  /**
   * A page of the entries whose score lies in the range, ranked as on the whole board; top-down
   * however it is read (`backward`: the entries that end at the range's last or right above the
   * cursor's entry).
   */
  rangePage(board: BoardRef, range: ScoreRange, options: PageOptions): Promise<RangePage> {
    return this.readPage(board, [...pageArgs(options), ...rangeArgs(range)]);
  }

  /** Entries whose score lies in the range, counted by Redis (two ZCOUNTs). */
  async countByScore(board: BoardRef, range: ScoreRange): Promise<number> {
    return (await this.readPage(board, [...pageArgs({ limit: 0 }), ...rangeArgs(range)])).count;
  }

  /** The score of the entry ranked `rank` (1-based); null past the last rank. */
  async scoreAtRank(board: BoardRef, rank: number): Promise<number | null> {
    const keys = readKeys(board);
    return scoreAtReply(await this.read('score_at', [keys.config, keys.ranking], ['rank', rank]));
  }

  /** The score at a percentile (0 < percent <= 100), interpolated as score_at.lua says; null on an empty board. */
  async scoreAtPercentile(board: BoardRef, percent: number): Promise<number | null> {
    const keys = readKeys(board);
    return scoreAtReply(await this.read('score_at', [keys.config, keys.ranking], ['percent', String(percent)]));
  }

  /** Dense ranks (1, 2, 2, 3) of these scores now, in order; null for an unknown board or one without dense ranks. */
  async denseRanks(boardId: string, scores: readonly number[]): Promise<number[] | null> {
    const keys = boardKeys(boardId);
    return denseRankReply(await this.read('dense_rank', [keys.config, keys.distinct], scores.map(formatScore)), scores.length);
  }

  /** Removes every entry whose score lies in the range; refused (BAD_USER_INPUT) past `max`. */
  removeByScore(boardId: string, range: ScoreRange, max: number): Promise<number> {
    return this.removeMany(boardId, max, ['range', ...rangeArgs(range)]);
  }

  /** Removes every entry ranked below the first `keep`; refused (BAD_USER_INPUT) past `max`. */
  keepTop(boardId: string, keep: number, max: number): Promise<number> {
    return this.removeMany(boardId, max, ['below', keep]);
  }

  /** Removes these players' entries; refused (BAD_USER_INPUT) when more than `max` are on the board. */
  removePlayers(boardId: string, playerIds: readonly string[], max: number): Promise<number> {
    return this.removeMany(boardId, max, ['players', ...playerIds]);
  }

  async updateBoard(update: BoardUpdate): Promise<{ board: BoardConfig; changed: boolean }> {
    const keys = boardKeys(update.id);
    const title = update.title === undefined ? ['keep', ''] : update.title === null ? ['clear', ''] : ['set', update.title];
    return updateBoardReply(update.id, await this.write('update_board', [keys.config], [
      ...title, update.updatePolicy ?? '', update.sortOrder ?? '',
      update.capacity === undefined ? '' : bucketCount(update.capacity), keys.events, flag(update.denseRanks),
    ]));
  }

  /**
   * Gives the board the periods `periods` (its own with seasons added: see add_seasons.lua) if it
   * still has `expected`; `earliestStart` (µs) is the first moment of the earliest season added.
   */
  async addSeasons(boardId: string, expected: string, periods: string, earliestStart: number): Promise<AddSeasonsResult> {
    const keys = boardKeys(boardId);
    const args: ScriptArg[] = [periodsFingerprint(expected), periods, String(earliestStart), keys.events];
    if (this.options.testNow) args.push(String(this.options.testNow()));
    try {
      const board = addSeasonsReply(boardId, await this.write('add_seasons', [keys.config], args));
      this.boards.set(boardId, board);
      return { board };
    } catch (err) {
      const message = err instanceof Error ? err.message : '';
      if (message.startsWith('PERIODS_CHANGED')) return { periodsChanged: true };
      const early = /^TOO_EARLY (\d+)/.exec(message);
      if (early) return { latestMoment: Number(early[1]) };
      throw err;
    }
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

  async topPercent(board: BoardRef, percent: number, limit: number) {
    const { entries, total, count } = await this.readPage(board, [limit, '', 0, '', '', String(percent)]);
    return { entries, total, count };
  }

  async around(board: BoardRef, playerId: string, radius: number): Promise<RankWindow | null> {
    return (await this.aroundAt(board, playerId, radius)).window;
  }

  /** As `around` (window null when the player has no entry), with the board's change counter and size at the read. */
  async aroundAt(board: BoardRef, playerId: string, radius: number): Promise<{ window: RankWindow | null; total: number; version: number }> {
    const keys = readKeys(board);
    const { entries, total, center, version } = aroundReply(await this.withBuckets(idOf(board), (buckets) =>
      this.read('around', [keys.config, keys.ranking, keys.bucket(bucketOf(playerId, buckets))], [
        radius, 'player', playerId, buckets,
      ]),
    ));
    const window = center === null ? null : { center: entries[center - (entries[0].rank - 1)], entries, total };
    return { window, total, version };
  }

  async aroundScore(board: BoardRef, score: number, radius: number): Promise<RankWindow> {
    const keys = readKeys(board);
    const { entries, total } = aroundReply(
      await this.read('around', [keys.config, keys.ranking], [radius, 'score', formatScore(score)]),
    );
    return { center: null, entries, total };
  }

  private async removeMany(boardId: string, max: number, args: ScriptArg[]): Promise<number> {
    const keys = boardKeys(boardId);
    return (await this.write('remove_many', [keys.config, keys.ranking, keys.distinct], [
      keys.events, keys.bucketPrefix, max, ...args,
    ])) as number;
  }

  private async readPage(board: BoardRef, args: ScriptArg[]) {
    const keys = readKeys(board);
    return pageReply(await this.read('page', [keys.config, keys.ranking], args));
  }

  /** Runs `op` with the board's bucket count, refreshing it once if the board was re-created. */
  private withBuckets<T>(boardId: string, op: (buckets: number) => Promise<T>): Promise<T> {
    return this.withBoard(boardId, ({ buckets }) => op(buckets));
  }

  /** Runs `op` with the board's bucket count and periods, refreshing them once if the board was re-created. */
  private async withBoard<T>(boardId: string, op: (board: { buckets: number; periods: string }) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let board = this.boards.get(boardId);
      if (board === undefined) {
        // Unknown board: any count will do, the script reports it (NOT_FOUND or empty).
        board = (await this.getBoard(boardId)) ?? { buckets: 1, periods: '' };
      }
      try {
        return await op(board);
      } catch (err) {
        if (attempt > 0 || !(err instanceof Error) || !err.message.startsWith('STALE_BUCKETS')) throw err;
        this.boards.delete(boardId);
      }
    }
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

  private read(name: ScriptName, keys: string[], args: ScriptArg[]): Promise<unknown> {
    return redisRead(this.redis, () => runScript(this.redis, name, keys, args));
  }

  private write(name: ScriptName, keys: string[], args: ScriptArg[]): Promise<unknown> {
    return redisWrite(this.redis, () => runScript(this.redis, name, keys, args, this.clock), keys[0]);
  }
}

/** submit.lua's keys and arguments for a plan (see its header). */
function submitCall(
  keys: ReturnType<typeof boardKeys>, buckets: number, periods: string, submissions: Submission[], plan: SubmitPlan,
): [string[], ScriptArg[]] {
  const slotKeys = plan.slots.map(({ kind, key }) => (kind === 'ALL_TIME' ? keys : keys.period(kind, key)));
  const bucketKeys: string[] = [];
  const idempotencyKeys: string[] = [];
  const args: ScriptArg[] = [buckets, submissions.length, IDEMPOTENCY_TTL_SECONDS, keys.events, periodsFingerprint(periods)];
  args.push(plan.windows.length, ...plan.windows.flatMap(({ from, to }) => [String(from), to === null ? '' : String(to)]));
  args.push(plan.slots.length, ...plan.slots.flatMap(({ kind, key, expiresAtMs }) => [kind, key, expiresAtMs === null ? '' : String(expiresAtMs)]));
  submissions.forEach((s, i) => {
    const bucket = bucketOf(s.playerId, buckets);
    for (const slot of plan.itemSlots[i]) bucketKeys.push(slotKeys[slot].bucket(bucket));
    if (s.idempotencyKey !== undefined) idempotencyKeys.push(keys.idempotency(s.idempotencyKey));
    args.push(
      s.playerId, formatScore(s.score),
      s.reachedAtMicros === undefined ? '' : String(s.reachedAtMicros), s.idempotencyKey === undefined ? '' : '1',
      plan.itemSlots[i].map((slot) => slot + 1).join(' '),
    );
  });
  return [[keys.config, keys.watched, ...slotKeys.map((slot) => slot.ranking), ...bucketKeys, ...idempotencyKeys, keys.distinct], args];
}

/** An optional setting as create_board.lua and update_board.lua take it: '' when not given. */
const flag = (value: boolean | undefined) => (value === undefined ? '' : value ? '1' : '0');

/** page.lua's paging arguments (the top-percent one empty). */
function pageArgs(options: PageOptions): ScriptArg[] {
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor, options.backward ? 'before' : 'after');
  return [options.limit, options.backward ? '1' : '', options.offset ?? 0, cursor?.stored ?? '', cursor?.member ?? '', ''];
}

/** A score range as page.lua and remove_many.lua take it: each bound's score ('' when open) and '1' when exclusive. */
function rangeArgs({ min, max }: ScoreRange): string[] {
  const bound = (b?: ScoreBound) => (b ? [formatScore(b.value), b.exclusive ? '1' : ''] : ['', '']);
  return [...bound(min), ...bound(max)];
}

/** JavaScript's shortest round-trip text: Lua's tonumber (strtod) reads back the same double. */
function formatScore(score: number): string {
  return String(score);
}
