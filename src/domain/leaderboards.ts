import { badInput, ErrorCode, notFound, StandingsError } from '../errors';
import type { LeaderboardStore } from '../store/leaderboardStore';
import type {
  BoardConfig, CreateBoardInput, Entry, Page, PageOptions, RankWindow, Submission, SubmitResult,
} from '../store/types';
import { DEFAULT_CAPACITY } from './limits';
import {
  checkBatchSize, checkCapacity, checkId, checkLimit, checkOffset, checkPercent, checkRadius,
  checkReachedAtMicros, checkScore, checkSortOrder, checkTitle, checkUpdatePolicy,
} from './validation';

export interface BoardSubmission extends Submission {
  boardId: string;
}

/**
 * The leaderboard service: validates every input, then calls the store. Entry points
 * (GraphQL, benches) go through here so the rules hold the same everywhere.
 */
export class Leaderboards {
  constructor(readonly store: LeaderboardStore) {}

  createBoard(input: CreateBoardInput): Promise<{ board: BoardConfig; created: boolean }> {
    return this.store.createBoard({
      id: checkId(input.id, 'id'),
      title: checkTitle(input.title),
      sortOrder: checkSortOrder(input.sortOrder),
      updatePolicy: checkUpdatePolicy(input.updatePolicy),
      capacity: input.capacity == null ? DEFAULT_CAPACITY : checkCapacity(input.capacity),
    });
  }

  getBoard(id: string): Promise<BoardConfig | null> {
    return this.store.getBoard(checkId(id, 'id'));
  }

  listBoards(limit: number, afterId?: string): Promise<{ ids: string[]; hasMore: boolean }> {
    return this.store.listBoards(checkLimit(limit), afterId === undefined ? undefined : checkId(afterId, 'after'));
  }

  deleteBoard(id: string): Promise<boolean> {
    return this.store.deleteBoard(checkId(id, 'id'));
  }

  size(boardId: string): Promise<number> {
    return this.store.size(checkId(boardId, 'leaderboardId'));
  }

  /**
   * Validates the whole batch before writing anything, so one bad item writes nothing and the
   * error names it (`details.index`). Items for one board are applied atomically and in order;
   * different boards are written in parallel (Cluster cannot make them one transaction).
   */
  async submit(items: BoardSubmission[]): Promise<SubmitResult[]> {
    checkBatchSize(items.length, 'inputs');
    const byBoard = new Map<string, { indexes: number[]; submissions: Submission[] }>();
    items.forEach((item, index) => {
      const checked = withIndex(index, items.length, () => checkSubmission(item));
      let group = byBoard.get(checked.boardId);
      if (!group) byBoard.set(checked.boardId, (group = { indexes: [], submissions: [] }));
      group.indexes.push(index);
      group.submissions.push(checked);
    });
    // One board: its script refuses an unknown board before writing anything. Several: check
    // them all first, so an unknown one keeps the others from being written.
    const boards = [...byBoard.keys()];
    const unknownBoard = (boardId: string) =>
      notFound(`leaderboard ${boardId} does not exist`, { leaderboardId: boardId, index: byBoard.get(boardId)!.indexes[0] });
    if (boards.length > 1) {
      const configs = await Promise.all(boards.map((id) => this.store.getBoard(id)));
      configs.forEach((config, i) => {
        if (!config) throw unknownBoard(boards[i]);
      });
    }
    const results: SubmitResult[] = new Array(items.length);
    await Promise.all(
      [...byBoard].map(async ([boardId, group]) => {
        const written = await this.store.submit(boardId, group.submissions).catch((err: unknown) => {
          throw err instanceof StandingsError && err.code === ErrorCode.NOT_FOUND ? unknownBoard(boardId) : err;
        });
        written.forEach((result, i) => (results[group.indexes[i]] = result));
      }),
    );
    return results;
  }

  /** False when the player had no entry; NOT_FOUND for an unknown board, as for every write. */
  /** NOT_FOUND for an unknown board; false when the player was not on it. */
  remove(boardId: string, playerId: string): Promise<boolean> {
    return this.store.remove(checkId(boardId, 'leaderboardId'), checkId(playerId, 'playerId'));
  }

  async entries(boardId: string, playerIds: string[]): Promise<(Entry | null)[]> {
    const board = checkId(boardId, 'leaderboardId');
    if (playerIds.length === 0) return []; // nothing to ask Redis
    checkBatchSize(playerIds.length, 'playerIds');
    playerIds.forEach((id, index) => withIndex(index, playerIds.length, () => checkId(id, 'playerId')));
    return this.store.entries(board, playerIds);
  }

  page(boardId: string, options: PageOptions): Promise<Page> {
    return this.store.page(checkId(boardId, 'leaderboardId'), {
      limit: checkLimit(options.limit),
      offset: options.offset == null ? undefined : checkOffset(options.offset),
      after: options.after ?? undefined,
      fromBottom: options.fromBottom ?? false,
    });
  }

  around(boardId: string, playerId: string, radius: number): Promise<RankWindow | null> {
    return this.store.around(checkId(boardId, 'leaderboardId'), checkId(playerId, 'playerId'), checkRadius(radius));
  }

  aroundScore(boardId: string, score: number, radius: number): Promise<RankWindow> {
    return this.store.aroundScore(checkId(boardId, 'leaderboardId'), checkScore(score), checkRadius(radius));
  }

  topPercent(boardId: string, percent: number, limit: number) {
    return this.store.topPercent(checkId(boardId, 'leaderboardId'), checkPercent(percent), checkLimit(limit, 'limit'));
  }
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

/** Adds the batch position to a validation error, so a client can tell which item was wrong. */
function withIndex<T>(index: number, count: number, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (count > 1 && err instanceof StandingsError) {
      throw badInput(`item ${index}: ${err.message}`, { ...err.details, index });
    }
    throw err;
  }
}
