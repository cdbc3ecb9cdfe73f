import { createHash, randomBytes } from 'node:crypto';
import type { ChainableCommander, Cluster, Redis } from 'ioredis';
import { afterFirstWrite, unavailable, WriteOutcome } from '../errors';
import { combineRankings, type CombinedEntry, type RankingEntries } from './combine';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BOARD_INDEX_KEY, boardKeys, viewKeys } from './keys';
import { playerIdOf } from './memberCodec';
import { redisRead, redisWrite } from './redisCall';
import {
  addSeasonsReply, aroundReply, createBoardReply, decodeCursor, deleteBoardReply, denseRankReply, entriesReply, pageReply,
  scoreAtReply, submitReply, updateBoardReply,
} from './replies';
import { runScript, type ScriptArg, type ScriptClock, type ScriptName } from './scripts';
import type {
  PeriodRef, BoardConfig, BoardUpdate, CreateBoardInput, EntryFields, EntryRead, Page, PlayerEntry, PageOptions, RangePage, RankWindow,
  ScoreBound, ScoreRange, Submission, SubmitPlan, SubmitResult, RankingRef, ViewSpec, PeriodSlot,
} from '../model';
import { ALL_ENTRY_FIELDS, isViewRef } from '../model';
import type { AddSeasonsResult, SlotLister, SubmitPlanner } from './types';

const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * Bucket hashes stay compact (listpack) only below hash-max-listpack-entries, 128 by default.
 * At 96 players per bucket on average, a board at its capacity has almost no bucket past 128
 * (Poisson tail ~0.05%), and each bucket key's own overhead is shared by many players.
 */
const PLAYERS_PER_BUCKET = 96;
/** Keys per command (UNLINK) or pipeline (PEXPIREAT) when a call goes over a board's buckets. */
const KEYS_PER_CALL = 1000;

/**
 * Entries per ZADD or HSET when a view is written: Redis serves other clients between two, and
 * the server other requests while it encodes the next (a millisecond or two each).
 */
export const ENTRIES_PER_WRITE = 2_000;
/** Entries a call of read_buckets.lua reads, about: a millisecond or two of Redis, and of the server to parse the reply. */
const ENTRIES_PER_READ = 2_000;
/** Bucket keys per source in one read_buckets.lua call, however sparse the buckets. */
const MAX_BUCKETS_PER_READ = 512;

/** The replies of a MULTI or a pipeline, or the first error among them. */
async function repliesOf(batch: ChainableCommander): Promise<unknown[]> {
  const results = (await batch.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0];
  return results.map(([, reply]) => reply);
}

/** The keys a read of the board, of one of its periods or of a combined view takes: ALL_TIME's are the board's own. */
function readKeys(board: RankingRef) {
  if (isViewRef(board)) {
    const keys = viewKeys(board.view.id, board.view.boardId);
    return { config: keys.config, ranking: keys.ranking, bucket: () => keys.bucket };
  }
  const keys = boardKeys(typeof board === 'string' ? board : board.boardId);
  const period = typeof board === 'string' ? keys : slotKeys(keys, board);
  return { config: keys.config, ranking: period.ranking, bucket: period.bucket };
}

/** The positions of the sources on each board, by board id. */
function indexesByBoard(sources: readonly PeriodRef[]): Map<string, number[]> {
  const byBoard = new Map<string, number[]>();
  sources.forEach(({ boardId }, i) => byBoard.set(boardId, [...(byBoard.get(boardId) ?? []), i]));
  return byBoard;
}

/** One period's keys; ALL_TIME's are the board's own. */
const slotKeys = (keys: ReturnType<typeof boardKeys>, { kind, key }: PeriodSlot) => (kind === 'ALL_TIME' ? keys : keys.period(kind, key));

const allTimeSlot: SlotLister = () => [{ kind: 'ALL_TIME', key: 'all' }];

/** What the store keeps of a board to address its keys. */
interface KnownBoard {
  buckets: number;
  periods: string;
}

/** Stands in for a board not found: any bucket count will do, the scripts report it (NOT_FOUND or empty). */
const UNKNOWN_BOARD: KnownBoard = { buckets: 1, periods: '' };

/** Where every submission lands on a board that keeps ALL_TIME only. */
const allTimeOnly = (count: number): SubmitPlan => ({
  windows: [{ from: 0, to: null }],
  slots: [{ kind: 'ALL_TIME', key: 'all', expiresAtMs: null }],
  itemSlots: Array.from({ length: count }, () => [0]),
});

/** Period configurations whose fingerprint is kept: boards share few, and every write sends one. */
const MAX_FINGERPRINTS = 1000;
const fingerprints = new Map<string, string>();

/** What a board's config keeps as 'pv' (create_board.lua: redis.sha1hex), so submit.lua sees a plan made for other periods. */
function periodsFingerprint(periods: string): string {
  if (periods === '') return '';
  let fingerprint = fingerprints.get(periods);
  if (fingerprint === undefined) {
    if (fingerprints.size >= MAX_FINGERPRINTS) fingerprints.clear();
    fingerprints.set(periods, (fingerprint = createHash('sha1').update(periods).digest('hex')));
  }
  return fingerprint;
}

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
  private readonly boards = new Map<string, KnownBoard>();
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

  /** Removes the player from every period `slotsOf` lists (default: ALL_TIME); false when none held them. */
  async remove(boardId: string, playerId: string, slotsOf: SlotLister = allTimeSlot): Promise<boolean> {
    return (await this.removePlayers(boardId, [playerId], 1, slotsOf)) > 0;
  }

  /** The players' entries, in the order asked (null for one not on the board); `fields` may leave the shared rank out. */
  entries(board: RankingRef, playerIds: readonly string[]): Promise<(PlayerEntry | null)[]>;
  entries(board: RankingRef, playerIds: readonly string[], fields: EntryFields): Promise<(EntryRead | null)[]>;
  async entries(board: RankingRef, playerIds: readonly string[], fields = ALL_ENTRY_FIELDS): Promise<(EntryRead | null)[]> {
    return (await this.readEntries(board, playerIds, fields)).entries;
  }

  /** As `entries`, with the board's change counter at the read: live updates apply the events after it. */
  async entriesAt(board: RankingRef, playerIds: string[]): Promise<{ entries: (PlayerEntry | null)[]; version: number }> {
    // Read with every field: each entry found has its shared rank.
    return (await this.readEntries(board, playerIds, ALL_ENTRY_FIELDS)) as { entries: (PlayerEntry | null)[]; version: number };
  }

  private async readEntries(board: RankingRef, playerIds: readonly string[], fields: EntryFields) {
    const keys = readKeys(board);
    return entriesReply(await this.bucketsOf(board, (buckets) => {
      const bucketKeys = playerIds.map((id) => keys.bucket(bucketOf(id, buckets)));
      return this.read('entries', [keys.config, keys.ranking, ...bucketKeys], [buckets, fields.sharedRank ? '1' : '0', ...playerIds]);
    }), playerIds.length);
  }

  async page(board: RankingRef, options: PageOptions): Promise<Page> {
    const { entries, total, hasMore, version } = await this.readPage(board, pageArgs(options));
    return { entries, total, hasMore, version };
  }

  /**
   * A page of the entries whose score lies in the range, ranked as on the whole board; top-down
   * however it is read (`backward`: the entries that end at the range's last or right above the
   * cursor's entry).
   */
  rangePage(board: RankingRef, range: ScoreRange, options: PageOptions): Promise<RangePage> {
    return this.readPage(board, [...pageArgs(options), ...rangeArgs(range)]);
  }

  /** Entries whose score lies in the range, counted by Redis (two ZCOUNTs). */
  async countByScore(board: RankingRef, range: ScoreRange): Promise<number> {
    return (await this.readPage(board, [...pageArgs({ limit: 0 }), ...rangeArgs(range)])).count;
  }

  /** The score of the entry ranked `rank` (1-based); null past the last rank. */
  async scoreAtRank(board: RankingRef, rank: number): Promise<number | null> {
    const keys = readKeys(board);
    return scoreAtReply(await this.read('score_at', [keys.config, keys.ranking], ['rank', rank]));
  }

  /** The score at a percentile (0 < percent <= 100), interpolated as score_at.lua says; null on an empty board. */
  async scoreAtPercentile(board: RankingRef, percent: number): Promise<number | null> {
    const keys = readKeys(board);
    return scoreAtReply(await this.read('score_at', [keys.config, keys.ranking], ['percent', String(percent)]));
  }

  /** Dense ranks (1, 2, 2, 3) of these scores now, in order; null for an unknown board or one without dense ranks. */
  async denseRanks(boardId: string, scores: readonly number[]): Promise<number[] | null> {
    const keys = boardKeys(boardId);
    return denseRankReply(await this.read('dense_rank', [keys.config, keys.distinct], scores.map(formatScore)), scores.length);
  }

  /**
   * Removes every entry whose score lies in the range from the one period `slotOf` names
   * (default: ALL_TIME); refused (BAD_USER_INPUT) past `max`.
   */
  removeByScore(boardId: string, range: ScoreRange, max: number, slotOf: SlotLister = allTimeSlot): Promise<number> {
    return this.removeMany(boardId, max, slotOf, ['range', ...rangeArgs(range)]);
  }

  /** Removes every entry ranked below the first `keep` of the one period `slotOf` names, as removeByScore. */
  keepTop(boardId: string, keep: number, max: number, slotOf: SlotLister = allTimeSlot): Promise<number> {
    return this.removeMany(boardId, max, slotOf, ['below', keep]);
  }

  /**
   * Removes these players' entries from every period `slotsOf` lists (default: ALL_TIME); how
   * many players went. Refused (BAD_USER_INPUT) when more than `max` would go from one period.
   */
  removePlayers(boardId: string, playerIds: readonly string[], max: number, slotsOf: SlotLister = allTimeSlot): Promise<number> {
    return this.removeMany(boardId, max, slotsOf, ['players', ...playerIds]);
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

  async topPercent(board: RankingRef, percent: number, limit: number) {
    const { entries, total, count } = await this.readPage(board, [limit, '', 0, '', '', String(percent)]);
    return { entries, total, count };
  }

  async around(board: RankingRef, playerId: string, radius: number): Promise<RankWindow | null> {
    return (await this.aroundAt(board, playerId, radius)).window;
  }

  /** As `around` (window null when the player has no entry), with the board's change counter and size at the read. */
  async aroundAt(board: RankingRef, playerId: string, radius: number): Promise<{ window: RankWindow | null; total: number; version: number }> {
    const keys = readKeys(board);
    const { entries, total, center, version } = aroundReply(await this.bucketsOf(board, (buckets) =>
      this.read('around', [keys.config, keys.ranking, keys.bucket(bucketOf(playerId, buckets))], [
        radius, 'player', playerId, buckets,
      ]),
    ));
    const window = center === null ? null : { center: entries[center - (entries[0].rank - 1)], entries, total };
    return { window, total, version };
  }

  async aroundScore(board: RankingRef, score: number, radius: number): Promise<RankWindow> {
    const keys = readKeys(board);
    const { entries, total } = aroundReply(
      await this.read('around', [keys.config, keys.ranking], [radius, 'score', formatScore(score)]),
    );
    return { center: null, entries, total };
  }

  /**
   * Builds a combined view into its keys (viewKeys), replacing the one before as a whole; they
   * expire after `ttlMs`. The sources are read a few buckets a call (readSources), so that no
   * call holds Redis for long: each player is read once, as of the call that read it, with its
   * entries in every source on one board as of one moment. The entries are combined here
   * (combine.ts), written into keys of this build alone, in chunks that leave Redis free for
   * other clients in between, then put in place by one MULTI, so a reader sees the view before
   * or after, never half-built. BAD_USER_INPUT, and nothing written, when an aggregate leaves
   * |score| <= 2^53 - 1. The number of entries of the view.
   */
  async buildView(view: ViewSpec, ttlMs: number): Promise<number> {
    const rankings = await this.readSources(view.sources);
    const entries = await combineRankings(rankings.map((ranking, n) => ({ ...ranking, weight: view.sources[n].weight })), view.aggregate, view.sortOrder);
    const keys = viewKeys(view.id, view.boardId);
    const build = keys.build(randomBytes(6).toString('hex'));
    if (entries.length > 0) await this.writeBuild(build, entries, ttlMs);
    await redisWrite(this.redis, () => {
      const swap = this.redis.multi();
      if (entries.length > 0) swap.rename(build.ranking, keys.ranking).rename(build.bucket, keys.bucket);
      else swap.del(keys.ranking, keys.bucket);
      swap.hset(keys.config, 'sortOrder', view.sortOrder, 'buckets', '1').hincrby(keys.config, 'version', 1);
      for (const key of [keys.config, keys.ranking, keys.bucket]) swap.pexpire(key, ttlMs);
      return repliesOf(swap);
    }, keys.config);
    return entries.length;
  }

  /** How many entries each source ranking holds now: what building a view of them reads. */
  async sourceSizes(sources: readonly PeriodRef[]): Promise<number[]> {
    const sizes: number[] = [];
    // One round trip per board: its rankings share its hash tag.
    await Promise.all([...indexesByBoard(sources)].map(([boardId, indexes]) => redisRead(this.redis, async () => {
      const keys = boardKeys(boardId);
      const read = this.redis.multi();
      for (const i of indexes) read.zcard(slotKeys(keys, sources[i]).ranking);
      (await repliesOf(read)).forEach((size, n) => (sizes[indexes[n]] = size as number));
    })));
    return sizes;
  }

  /**
   * Every entry of each source, board by board, read by read_buckets.lua a range of bucket
   * indexes a call: about ENTRIES_PER_READ entries of all the board's sources together (going by
   * their sizes when the read begins), each call a few milliseconds of Redis.
   */
  private async readSources(sources: readonly PeriodRef[]): Promise<RankingEntries[]> {
    const read: RankingEntries[] = sources.map(() => ({ members: [], scores: [] }));
    const sizes = await this.sourceSizes(sources);
    for (const [boardId, indexes] of indexesByBoard(sources)) {
      const keys = boardKeys(boardId);
      const rankings = indexes.map((i) => slotKeys(keys, sources[i]));
      const entries = indexes.reduce((total, i) => total + sizes[i], 0);
      await this.withBuckets(boardId, async (buckets) => {
        // Read again from the start: the board was re-created with another bucket count.
        for (const i of indexes) read[i] = { members: [], scores: [] };
        const perCall = Math.max(1, Math.min(MAX_BUCKETS_PER_READ, Math.floor((ENTRIES_PER_READ * buckets) / Math.max(1, entries))));
        for (let from = 0; from < buckets; from += perCall) {
          const to = Math.min(buckets, from + perCall);
          const callKeys = [keys.config];
          for (const ranking of rankings) {
            callKeys.push(ranking.ranking);
            for (let b = from; b < to; b++) callKeys.push(ranking.bucket(b));
          }
          const reply = (await this.read('read_buckets', callKeys, [buckets, to - from])) as Buffer[][];
          // An unknown board (deleted meanwhile) has no entries.
          if (reply.length === 0) break;
          indexes.forEach((i, n) => {
            const { members, scores } = read[i];
            const items = reply[n];
            for (let at = 0; at < items.length; at += 2) {
              members.push(items[at]);
              scores.push(Number(items[at + 1].toString('latin1')));
            }
          });
        }
      });
    }
    return read;
  }

  /**
   * A view's entries into a build's own keys, ENTRIES_PER_WRITE a command. Each chunk is one MULTI
   * that also sets the keys' expiry, so a build cut short leaves nothing that stays. The next
   * chunk is made while Redis writes the one before, and sent once that one is done: the write in
   * flight is awaited before anything else is, so its failure ends the build with a handler
   * already on it. Writes collected and awaited at the end would each be without one while the
   * loop waited, and a chunk failing then (Redis not answering) was a rejection nobody handled.
   * The first chunk waits for a turn of the event loop as each later one waits for a write, so
   * one chunk is made per turn.
   */
  private async writeBuild(build: { ranking: string; bucket: string }, entries: CombinedEntry[], ttlMs: number): Promise<void> {
    let before: Promise<unknown> = nextTurn();
    for (let from = 0; from < entries.length; from += ENTRIES_PER_WRITE) {
      const ranking: (string | Buffer)[] = [];
      const bucket: (string | Buffer)[] = [];
      for (let i = from; i < Math.min(entries.length, from + ENTRIES_PER_WRITE); i++) {
        const { stored, member, tokenLength } = entries[i];
        ranking.push(String(stored), member);
        bucket.push(playerIdOf(member, tokenLength), member.subarray(0, tokenLength));
      }
      await before;
      before = redisWrite(this.redis, () => repliesOf(this.redis.multi()
        .zadd(build.ranking, ...ranking).hset(build.bucket, ...bucket).pexpire(build.ranking, ttlMs).pexpire(build.bucket, ttlMs)), build.ranking);
    }
    await before;
  }

  private removeMany(boardId: string, max: number, slotsOf: SlotLister, [mode, ...modeArgs]: ScriptArg[]): Promise<number> {
    const keys = boardKeys(boardId);
    return this.withBoard(boardId, async (board) => {
      const { periods } = board;
      // An unknown board has no periods to list: the script answers NOT_FOUND.
      const slots = (board === UNKNOWN_BOARD ? allTimeSlot : slotsOf)(periods).map((slot) => ({ ...slot, keys: slotKeys(keys, slot) }));
      return (await this.write('remove_many', [keys.config, keys.distinct, ...slots.map((slot) => slot.keys.ranking)], [
        keys.events, max, periodsFingerprint(periods), mode, slots.length,
        ...slots.flatMap((slot) => [slot.kind, slot.key, slot.keys.bucketPrefix]), ...modeArgs,
      ])) as number;
    });
  }

  private async readPage(board: RankingRef, args: ScriptArg[]) {
    const keys = readKeys(board);
    return pageReply(await this.read('page', [keys.config, keys.ranking], args));
  }

  /** Runs `op` with the bucket count of what `board` names: a view has one bucket (buildView). */
  private bucketsOf<T>(board: RankingRef, op: (buckets: number) => Promise<T>): Promise<T> {
    if (isViewRef(board)) return op(1);
    return this.withBuckets(typeof board === 'string' ? board : board.boardId, op);
  }

  /** Runs `op` with the board's bucket count, refreshing it once if the board was re-created. */
  private withBuckets<T>(boardId: string, op: (buckets: number) => Promise<T>): Promise<T> {
    return this.withBoard(boardId, ({ buckets }) => op(buckets));
  }

  /** Runs `op` with the board's bucket count and periods, refreshing them once if the board was re-created. */
  private async withBoard<T>(boardId: string, op: (board: KnownBoard) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let board = this.boards.get(boardId);
      if (board === undefined) {
        board = (await this.getBoard(boardId)) ?? UNKNOWN_BOARD;
      }
      try {
        return await op(board);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('STALE_BUCKETS')) throw err;
        // Changed again since the refresh (seasons added twice in a moment, a board re-created):
        // nothing was written, and a retry will find it settled.
        if (attempt > 0) throw unavailable('the board changed twice while this call was made; retry', WriteOutcome.NOT_APPLIED);
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
