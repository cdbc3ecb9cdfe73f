import { afterFirstWrite, badInput, boardNotFound, StandingsError, unavailable, WriteOutcome } from '../errors';
import type {
  BoardConfig, BoardUpdate, CreateBoardInput, EntryFields, EntryRead, Page, PageOptions, PeriodSlot, PlayerEntry, RangePage, RankWindow, ScoreBound,
  Submission, SubmitResult, Aggregate, RankingRef, ViewSpec,
} from '../model';
import { ALL_ENTRY_FIELDS, isViewRef } from '../model';
import type { StaleLayout } from '../store/commands/scriptErrors';
import type { ListedSlots } from '../store/commands/remove_many';
import type { LeaderboardStore } from '../store/leaderboardStore';
import { submissionPlanner, submitPlanned, withBoardPeriods } from './boardWrites';
import { type CombinedSourceRequest, CombinedViews, type CombinedViewOptions, type ViewBudget } from './combined';
import { DEFAULT_CAPACITY, MAX_REMOVALS_PER_CALL } from './limits';
import { PeriodCalendar, type Period, type PeriodRequest } from './periods/calendar';
import { systemMomentClock, type MomentClock } from './periods/clock';
import {
  addSeasons, checkPeriodConfig, checkSamePeriods, parsePeriodConfig, serializePeriodConfig, type AddSeasonsInput,
  type PeriodConfig, type PeriodConfigInput, type PeriodKind,
} from './periods/settings';
import type { ReadCache } from './readCache';
import type { ScoreBoundInput } from './validation';
import {
  checkBatchSize, checkCapacity, checkFlag, checkId, checkKeep, checkLimit, checkOffset, checkPercent, checkRadius, checkRank,
  checkReachedAtMicros, checkScore, checkScoreRange, checkSortOrder, checkTitle, checkUpdatePolicy,
} from './validation';

/** A new board's settings as clients give them: the store's, with the periods unchecked. */
export interface CreateBoardRequest extends Omit<CreateBoardInput, 'periods'> {
  /** Left out or null: ALL_TIME only. */
  periods?: PeriodConfigInput | null;
}

/** Seasons to add to a board (`addSeasons`), as clients give them. */
export interface AddSeasonsRequest extends AddSeasonsInput {
  leaderboardId: string;
}

/** Tries of `addSeasons` when another call changes the board's periods between its read and its write. */
const ADD_SEASONS_ATTEMPTS = 3;

/** Distinct period settings whose calendars are kept; past it they are built again. */
const MAX_CALENDARS = 1000;

/** The read cache's name for a board's settings (getBoard and knownBoard). */
const BOARD_READ = 'board';

export interface BoardSubmission extends Submission {
  boardId: string;
}

/** A score range as clients give it: a bound left out or null is open, and so inclusive unless `exclusive`. */
export interface ScoreRangeInput {
  min?: ScoreBoundInput | null;
  max?: ScoreBoundInput | null;
}

/**
 * The bulk removals take one object naming the board, the shape of their mutations' `input`,
 * so the access guard reads the board from the same arguments (admin role, board prefix).
 */
export interface RemoveByScoreInput extends ScoreRangeInput {
  leaderboardId: string;
  /** The period removed from; the board's default period when left out. */
  period?: PeriodRequest | null;
}

export interface KeepTopInput {
  leaderboardId: string;
  /** The entries kept: every entry ranked below them is removed. */
  count: number;
  /** The period kept from; the board's default period when left out. */
  period?: PeriodRequest | null;
}

export interface RemoveEntriesInput {
  leaderboardId: string;
  playerIds: string[];
}

/**
 * The leaderboard service: validates every input, then calls the store. Entry points
 * (GraphQL, benches) go through here so the rules hold the same everywhere. With a ReadCache, a
 * board's settings, size and top pages come from memory while the board does not change.
 */
export class Leaderboards {
  /** Calendars by the periods' canonical text: boards with the same periods share one. */
  private readonly calendars = new Map<string, PeriodCalendar>();

  private readonly views: CombinedViews;

  constructor(
    readonly store: LeaderboardStore,
    private readonly cache?: ReadCache,
    /** Node's "now" for the period decisions it makes itself; tests pass their own. */
    private readonly clock: MomentClock = systemMomentClock,
    views?: CombinedViewOptions,
  ) {
    this.views = new CombinedViews(this, store, views);
  }

  /**
   * A combined view of these rankings (see CombinedViews.open), built or still fresh: read it as
   * a board, with `{ view }` where the reads take a ranking.
   */
  combined(sources: readonly CombinedSourceRequest[], aggregate: Aggregate, budget?: ViewBudget): Promise<ViewSpec> {
    return this.views.open(sources, aggregate, budget);
  }

  /**
   * The period of the board a client asks for (see PeriodCalendar.requested); without a request,
   * ALL_TIME, or on a board that does not keep it, the latest kept period of its first kind.
   */
  period(board: Pick<BoardConfig, 'periods'>, request: PeriodRequest | null | undefined, field = 'period'): Period {
    const calendar = this.calendar(board.periods);
    if (request != null) return calendar.requested(request, undefined, field);
    // Every read without a period asks this: ALL_TIME, which comes first where kept, needs no clock and no list of kept periods.
    if (calendar.keeps('ALL_TIME')) return calendar.periodByKey('ALL_TIME', 'all');
    return calendar.allKept()[0] ?? calendar.periodByKey('ALL_TIME', 'all');
  }

  /**
   * As `period`, but null where a client asked for the current season (its kind alone) between
   * two seasons: no period is current then, which is an answer, not a mistake.
   */
  periodOrNone(board: Pick<BoardConfig, 'periods'>, request: PeriodRequest | null | undefined, field = 'period'): Period | null {
    if (request == null) return this.period(board, request, field);
    return this.calendar(board.periods).currentOrRequested(request, undefined, field);
  }

  /**
   * The board's periods kept now (of `kind` alone when given), each kind newest first, from the
   * board's creation: a period that ended before the board was created is left out unless it holds
   * entries (imported with moments of its own).
   */
  async listedPeriods(board: Pick<BoardConfig, 'id' | 'periods' | 'createdAt'>, kind?: PeriodKind | null): Promise<Period[]> {
    const calendar = this.calendar(board.periods);
    const kept = kind == null ? calendar.allKept() : calendar.kept(kind);
    const createdAt = board.createdAt * 1000;
    const before = kept.filter((period) => period.end !== null && period.end <= createdAt);
    if (before.length === 0) return kept;
    const sizes = await this.store.sourceSizes(before.map(({ kind: periodKind, key }) => ({ boardId: board.id, kind: periodKind, key })));
    const empty = new Set(before.filter((_, i) => sizes[i] === 0));
    return kept.filter((period) => !empty.has(period));
  }

  /** The calendar of a board's periods (BoardConfig.periods). */
  calendar(periods: string): PeriodCalendar {
    let calendar = this.calendars.get(periods);
    if (!calendar) {
      if (this.calendars.size >= MAX_CALENDARS) this.calendars.clear();
      this.calendars.set(periods, (calendar = new PeriodCalendar(parsePeriodConfig(periods), this.clock)));
    }
    return calendar;
  }

  async createBoard(input: CreateBoardRequest): Promise<{ board: BoardConfig; created: boolean }> {
    const boardId = checkId(input.id, 'id');
    const periods = checkPeriodConfig(input.periods);
    const result = await this.forgettingReadsAfter(boardId, this.store.createBoard({
      id: boardId,
      title: checkTitle(input.title),
      sortOrder: checkSortOrder(input.sortOrder),
      updatePolicy: checkUpdatePolicy(input.updatePolicy),
      capacity: input.capacity == null ? DEFAULT_CAPACITY : checkCapacity(input.capacity),
      denseRanks: input.denseRanks == null ? undefined : checkFlag(input.denseRanks, 'denseRanks'),
      periods: serializePeriodConfig(periods),
    }));
    // The script answers an existing board with its own periods and writes nothing: Node names what differs.
    if (!result.created) checkSamePeriods(parsePeriodConfig(result.board.periods), periods);
    return result;
  }

  async getBoard(id: string): Promise<BoardConfig | null> {
    const boardId = checkId(id, 'id');
    const board = await this.cached(boardId, BOARD_READ, () => this.store.getBoard(boardId));
    if (board) this.cache?.keepFresh(boardId);
    return board;
  }

  /**
   * The board's settings when the read cache holds them, without waiting; undefined when it does
   * not (then `getBoard`). `id` need not be valid: a malformed one is never held.
   */
  knownBoard(id: string): BoardConfig | undefined {
    return this.cache?.peek<BoardConfig>(id, BOARD_READ);
  }

  listBoards(limit: number, afterId?: string): Promise<{ ids: string[]; hasMore: boolean }> {
    return this.store.listBoards(checkLimit(limit), afterId === undefined ? undefined : checkId(afterId, 'after'));
  }

  deleteBoard(id: string): Promise<boolean> {
    const boardId = checkId(id, 'id');
    return this.forgettingReadsAfter(boardId, this.store.deleteBoard(boardId));
  }

  size(board: RankingRef): Promise<number> {
    const { boardId, ref, scope } = checkRef(board);
    return this.cached(boardId, `${scope}size`, () => this.store.size(ref));
  }

  /** One submission: its errors name no batch position. */
  async submitOne(item: BoardSubmission): Promise<SubmitResult> {
    const [result] = await this.write([item], false);
    return result;
  }

  /**
   * Validates the whole batch before writing anything, so one bad item writes nothing and the
   * error names it (`details.index`). Items for one board are applied atomically and in order;
   * different boards are written in parallel (Cluster cannot make them one transaction).
   */
  submit(items: BoardSubmission[]): Promise<SubmitResult[]> {
    checkBatchSize(items.length, 'inputs');
    return this.write(items, true);
  }

  private async write(items: BoardSubmission[], batch: boolean): Promise<SubmitResult[]> {
    const byBoard = new Map<string, { indexes: number[]; submissions: Submission[] }>();
    items.forEach((item, index) => {
      const checked = batch ? withIndex(index, () => checkSubmission(item)) : checkSubmission(item);
      let group = byBoard.get(checked.boardId);
      if (!group) byBoard.set(checked.boardId, (group = { indexes: [], submissions: [] }));
      group.indexes.push(index);
      group.submissions.push(checked);
    });
    // One board: its script refuses an unknown board before writing anything. Several: check
    // them all first, so an unknown one keeps the others from being written.
    const boards = [...byBoard.keys()];
    const unknownBoard = (boardId: string) =>
      boardNotFound(boardId, batch ? { index: byBoard.get(boardId)!.indexes[0] } : {});
    if (boards.length > 1) {
      const configs = await Promise.all(boards.map((id) => this.store.getBoard(id)));
      configs.forEach((config, i) => {
        if (!config) throw unknownBoard(boards[i]);
      });
    }
    const results: SubmitResult[] = new Array(items.length);
    const writes = await Promise.allSettled(
      [...byBoard].map(async ([boardId, group]) => {
        const plan = submissionPlanner(group.submissions, batch ? group.indexes : null);
        const written = await this.forgettingReadsAfter(boardId,
          submitPlanned(this.store, (periods) => this.calendar(periods), boardId, group.submissions, plan));
        if (!written) throw unknownBoard(boardId);
        written.forEach((result, i) => (results[group.indexes[i]] = result));
      }),
    );
    const failures = writes.flatMap((write) => (write.status === 'rejected' ? [write.reason as unknown] : []));
    if (failures.length > 0) {
      // One error speaks for the whole batch: unless every board's write is known not to have
      // been applied, some of the batch may have been.
      const notApplied = (err: unknown) => err instanceof StandingsError && err.outcome !== WriteOutcome.UNKNOWN;
      if (failures.length < writes.length || !failures.every(notApplied)) afterFirstWrite(failures[0]);
      throw failures[0];
    }
    return results;
  }

  /**
   * Adds seasons to a board (config.ts addSeasons says what is refused), atomically with its
   * submissions: one planned with the periods before is planned again with the new ones
   * (submit.lua compares their fingerprint), so a submission whose moment lies in a new season
   * lands in it. Seasons the board has already, identical, change nothing (`changed` false), so a
   * retried call is harmless and finishes what the first began: the seasons that the request's
   * push out of retention get their keys' expiry (PEXPIREAT). Reads ask the calendar, so those
   * seasons are gone for clients from that moment, whenever Redis gets to their keys.
   */
  async addSeasons(input: AddSeasonsRequest): Promise<{ board: BoardConfig; changed: boolean }> {
    const boardId = checkId(input.leaderboardId, 'leaderboardId');
    for (let attempt = 1; ; attempt++) {
      const read = await this.store.getBoard(boardId);
      if (!read) throw boardNotFound(boardId);
      const { config, added } = addSeasons(parsePeriodConfig(read.periods), input);
      let board = read;
      if (added.length > 0) {
        const earliest = added.reduce((a, b) => (b.season.start < a.season.start ? b : a));
        const result = await this.forgettingReadsAfter(boardId,
          this.store.addSeasons(boardId, read.periods, serializePeriodConfig(config), earliest.season.start));
        if ('periodsChanged' in result) {
          if (attempt < ADD_SEASONS_ATTEMPTS) continue;
          throw unavailable('the board\'s seasons kept changing while these were added; retry', WriteOutcome.NOT_APPLIED);
        }
        if ('latestMoment' in result) {
          const field = `${earliest.field}.start`;
          throw badInput(
            `${field} must be after ${new Date(Math.floor(result.latestMoment / 1000)).toISOString()} (Redis' clock, or the board's last score): ` +
            'a season added to a board cannot hold the scores submitted before it', { field },
          );
        }
        board = result.board;
      }
      await this.expireSeasonsPushedOut(board, config, input).catch(afterFirstWrite);
      return { board, changed: added.length > 0 };
    }
  }

  /**
   * Sets the expiry of the seasons whose end of retention the request's seasons brought forward:
   * those that started before them (only those can have keys) and expire sooner with them than
   * without them.
   */
  private async expireSeasonsPushedOut(board: BoardConfig, config: PeriodConfig, input: AddSeasonsInput): Promise<void> {
    const requested = new Set((input.seasons as { id: string }[]).map((season) => season.id));
    const theirs = config.seasons.filter((season) => requested.has(season.id));
    if (theirs.length === 0) return;
    const firstStart = Math.min(...theirs.map((season) => season.start));
    const withThem = this.calendar(board.periods);
    const without = new PeriodCalendar({ ...config, seasons: config.seasons.filter((season) => !requested.has(season.id)) });
    for (const season of without.config.seasons) {
      if (season.start >= firstStart) break;
      const expiresAtMs = withThem.expiresAtMs(withThem.periodByKey('SEASON', season.id));
      if (expiresAtMs !== null && expiresAtMs !== without.expiresAtMs(without.periodByKey('SEASON', season.id))) {
        await this.store.expirePeriod(board.id, 'SEASON', season.id, expiresAtMs);
      }
    }
  }

  /**
   * Removes the player from every period the board keeps, atomically. NOT_FOUND for an unknown
   * board; false when no period held the player.
   */
  async remove(id: string, playerId: string): Promise<boolean> {
    const boardId = checkId(id, 'leaderboardId');
    const player = checkId(playerId, 'playerId');
    return this.removing(boardId, (periods) => this.store.remove(boardId, player, this.keptSlots(periods)));
  }

  /**
   * Removes every entry of one period whose score lies in the range, atomically; how many went.
   * More than MAX_REMOVALS_PER_CALL is BAD_USER_INPUT and removes nothing: narrow the range and repeat.
   */
  async removeByScore(input: RemoveByScoreInput): Promise<number> {
    const boardId = checkId(input.leaderboardId, 'leaderboardId');
    const range = checkScoreRange(input.min, input.max);
    return this.removing(boardId, (periods) =>
      this.store.removeByScore(boardId, range, MAX_REMOVALS_PER_CALL, this.requestedSlot(periods, input.period)));
  }

  /** Keeps the first `count` entries of one period and removes the rest, atomically, as removeByScore. */
  async keepTop(input: KeepTopInput): Promise<number> {
    const boardId = checkId(input.leaderboardId, 'leaderboardId');
    const count = checkKeep(input.count);
    return this.removing(boardId, (periods) => this.store.keepTop(boardId, count, MAX_REMOVALS_PER_CALL, this.requestedSlot(periods, input.period)));
  }

  /**
   * A removal listed from the board's periods as the store knows them (no read of its own
   * before it when they are known), listed again if they changed; NOT_FOUND for an unknown board.
   */
  private async removing<T>(boardId: string, remove: (periods: string) => Promise<T | StaleLayout>): Promise<T> {
    const removed = await this.forgettingReadsAfter(boardId, withBoardPeriods(this.store, boardId, remove));
    if (removed === null) throw boardNotFound(boardId);
    return removed;
  }

  /** The period a bulk removal acts on: the one asked for, or the board's default period. */
  private requestedSlot(periods: string, request: PeriodRequest | null | undefined): ListedSlots {
    return { periods, slots: [slotOf(this.period({ periods }, request))] };
  }

  /** Every period of a board kept now (ALL_TIME first, as kinds are kept in order): where a removal of players reaches. */
  private keptSlots(periods: string): ListedSlots {
    return { periods, slots: this.calendar(periods).allKept().map(slotOf) };
  }

  /** Removes these players' entries from every period the board keeps, atomically; how many players were on it. */
  async removeEntries(input: RemoveEntriesInput): Promise<number> {
    const boardId = checkId(input.leaderboardId, 'leaderboardId');
    const { playerIds } = input;
    if (playerIds.length > MAX_REMOVALS_PER_CALL) {
      throw badInput(`playerIds holds ${playerIds.length} ids; at most ${MAX_REMOVALS_PER_CALL} go in one call`, { field: 'playerIds' });
    }
    playerIds.forEach((id, index) => withIndex(index, () => checkId(id, 'playerIds')));
    return this.removing(boardId, (periods) => this.store.removePlayers(boardId, playerIds, MAX_REMOVALS_PER_CALL, this.keptSlots(periods)));
  }

  /**
   * Changes a board's title or update policy. The sort order, capacity and denseRanks cannot
   * change: given, they must be the board's (else BAD_USER_INPUT). NOT_FOUND for an unknown board.
   */
  async updateBoard(input: BoardUpdate): Promise<{ board: BoardConfig; changed: boolean }> {
    const boardId = checkId(input.id, 'id');
    return this.forgettingReadsAfter(boardId, this.store.updateBoard({
      id: boardId,
      title: input.title === undefined ? undefined : checkTitle(input.title),
      updatePolicy: input.updatePolicy == null ? undefined : checkUpdatePolicy(input.updatePolicy),
      sortOrder: input.sortOrder == null ? undefined : checkSortOrder(input.sortOrder),
      capacity: input.capacity == null ? undefined : checkCapacity(input.capacity),
      denseRanks: input.denseRanks == null ? undefined : checkFlag(input.denseRanks, 'denseRanks'),
    }));
  }

  /** The players' entries, in the order asked (null for one not on the board); `fields` may leave the shared rank out. */
  entries(board: RankingRef, playerIds: readonly string[]): Promise<(PlayerEntry | null)[]>;
  entries(board: RankingRef, playerIds: readonly string[], fields: EntryFields): Promise<(EntryRead | null)[]>;
  async entries(board: RankingRef, playerIds: readonly string[], fields = ALL_ENTRY_FIELDS): Promise<(EntryRead | null)[]> {
    const { ref } = checkRef(board);
    if (playerIds.length === 0) return []; // nothing to ask Redis
    checkBatchSize(playerIds.length, 'playerIds');
    if (playerIds.length > 1) playerIds.forEach((id, index) => withIndex(index, () => checkId(id, 'playerId')));
    else checkId(playerIds[0], 'playerId');
    return this.store.entries(ref, playerIds, fields);
  }

  page(board: RankingRef, options: PageOptions): Promise<Page> {
    const { boardId, ref, scope } = checkRef(board);
    const checked = this.checkPage(options);
    const read = () => this.store.page(ref, checked);
    // The first page from either end is what busy boards are asked for again and again.
    const first = !checked.offset && checked.cursor === undefined;
    return first ? this.cached(boardId, `${scope}page:${checked.limit}:${checked.backward}`, read) : read();
  }

  private checkPage(options: PageOptions): PageOptions {
    return {
      limit: checkLimit(options.limit, options.backward ? 'last' : 'first'),
      offset: options.offset == null ? undefined : checkOffset(options.offset),
      cursor: options.cursor ?? undefined,
      backward: options.backward ?? false,
    };
  }

  /** How many boards there are. */
  countBoards(): Promise<number> {
    return this.store.countBoards();
  }

  around(board: RankingRef, playerId: string, radius: number): Promise<RankWindow | null> {
    return this.store.around(checkRef(board).ref, checkId(playerId, 'playerId'), checkRadius(radius));
  }

  aroundScore(board: RankingRef, score: number, radius: number): Promise<RankWindow> {
    return this.store.aroundScore(checkRef(board).ref, checkScore(score), checkRadius(radius));
  }

  topPercent(board: RankingRef, percent: number, limit: number) {
    return this.store.topPercent(checkRef(board).ref, checkPercent(percent), checkLimit(limit, 'limit'));
  }

  /**
   * Entries whose score lies in the range, ranked and paged as `page` (cursor, offset, from the
   * bottom) within the range. The first page from either end is kept like the board's own.
   */
  async entriesByScore(board: RankingRef, range: ScoreRangeInput, options: PageOptions): Promise<RangePage> {
    const { boardId, ref, scope } = checkRef(board);
    const checkedRange = checkScoreRange(range.min, range.max);
    const checked = this.checkPage(options);
    const read = () => this.store.rangePage(ref, checkedRange, checked);
    const first = !checked.offset && checked.cursor === undefined;
    return first ? this.cached(boardId, `${scope}range:${rangeKey(checkedRange)}:${checked.limit}:${checked.backward}`, read) : read();
  }

  /** How many entries have a score in the range (counted by Redis, O(log n)). */
  async countByScore(board: RankingRef, range: ScoreRangeInput): Promise<number> {
    const { boardId, ref, scope } = checkRef(board);
    const checked = checkScoreRange(range.min, range.max);
    return this.cached(boardId, `${scope}count:${rangeKey(checked)}`, () => this.store.countByScore(ref, checked));
  }

  /** The score of the entry ranked `rank` now; null when the board has fewer entries. */
  async scoreAtRank(board: RankingRef, rank: number): Promise<number | null> {
    const { boardId, ref, scope } = checkRef(board);
    const checked = checkRank(rank);
    return this.cached(boardId, `${scope}rank:${checked}`, () => this.store.scoreAtRank(ref, checked));
  }

  /** The score at a percentile, interpolated linearly between neighbours (see score_at.lua); null on an empty board. */
  async scoreAtPercentile(board: RankingRef, percent: number): Promise<number | null> {
    const { boardId, ref, scope } = checkRef(board);
    const checked = checkPercent(percent);
    return this.cached(boardId, `${scope}percentile:${checked}`, () => this.store.scoreAtPercentile(ref, checked));
  }

  /** Dense ranks of these scores on the board now (1, 2, 2, 3); null for an unknown board. */
  async denseRanks(id: string, scores: readonly number[]): Promise<number[] | null> {
    const boardId = checkId(id, 'leaderboardId');
    checkBatchSize(scores.length, 'scores');
    return this.store.denseRanks(boardId, scores.map((score) => checkScore(score)));
  }

  /** `load()` through the read cache; a view (boardId null) is a cache of its own. */
  private cached<T>(boardId: string | null, key: string, load: () => Promise<T>): Promise<T> {
    return this.cache && boardId !== null ? this.cache.read(boardId, key, load) : load();
  }

  /** A write's result, once what was kept of its board is forgotten (also when it failed half-seen). */
  private forgettingReadsAfter<T>(boardId: string, write: Promise<T>): Promise<T> {
    return write.finally(() => this.cache?.forget(boardId));
  }
}

/**
 * A board, or one of its periods (from `period`), with its id checked, and what read-cache keys
 * of a period start with ('' for the board's own ranking, ALL_TIME); a view (from `combined`) as
 * it is, with no board to cache its reads under.
 */
function checkRef(board: RankingRef): { boardId: string | null; ref: RankingRef; scope: string } {
  if (isViewRef(board)) return { boardId: null, ref: board, scope: '' };
  if (typeof board === 'string') {
    const boardId = checkId(board, 'leaderboardId');
    return { boardId, ref: boardId, scope: '' };
  }
  const boardId = checkId(board.boardId, 'leaderboardId');
  if (board.kind === 'ALL_TIME') return { boardId, ref: boardId, scope: '' };
  return { boardId, ref: { ...board, boardId }, scope: `${board.kind}:${board.key}:` };
}

function checkSubmission(item: BoardSubmission): BoardSubmission {
  return {
    boardId: checkId(item.boardId, 'leaderboardId'),
    playerId: checkId(item.playerId, 'playerId'),
    score: checkScore(item.score),
    reachedAtMicros: item.reachedAtMicros == null ? undefined : checkReachedAtMicros(item.reachedAtMicros),
    idempotencyKey: item.idempotencyKey == null ? undefined : checkId(item.idempotencyKey, 'idempotencyKey'),
  };
}

/** A period as a script's slot names it. */
const slotOf = ({ kind, key }: Period): PeriodSlot => ({ kind, key });

/** A checked range as a read-cache key: the same range always gives the same key. */
const rangeKey = ({ min, max }: { min?: ScoreBound; max?: ScoreBound }) =>
  [min, max].map((b) => (b ? `${b.exclusive ? '(' : '['}${b.value}` : '*')).join(',');

/** Adds the batch position to a validation error, so a client can tell which item was wrong. */
function withIndex<T>(index: number, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof StandingsError) {
      throw badInput(`item ${index}: ${err.message}`, { ...err.details, index });
    }
    throw err;
  }
}
