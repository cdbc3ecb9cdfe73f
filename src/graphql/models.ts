import type { Leaderboards } from '../domain/leaderboards';
import type { Period } from '../domain/periods/calendar';
import type { BoardConfig, BoardRef, Entry, RankWindow, SubmitResult } from '../store/types';
import { encodeNodeId } from './nodeIds';

/**
 * What resolvers pass down as parents where the store's types are not enough (codegen maps the
 * GraphQL types onto these): store entries do not know their board, but `Entry.leaderboard`
 * and `Entry.id` need it, so entries carry it. The paging cursor is not part of an Entry (edges
 * carry it), and entries built from live events have none.
 */
export interface EntryModel extends Omit<Entry, 'cursor'> {
  boardId: string;
}

/** A board, scoped to one of its periods by `leaderboard(id:, period:)`; without one, its default period. */
export interface LeaderboardModel extends BoardConfig {
  period?: Period;
}

/** The period a Leaderboard's reads are about. */
export const periodOf = (board: LeaderboardModel, leaderboards: Leaderboards): Period =>
  board.period ?? leaderboards.period(board, null);

/** What the domain's reads take for a Leaderboard: the board's id for ALL_TIME, else the period. */
export function refOf(board: LeaderboardModel, leaderboards: Leaderboards): BoardRef {
  const { kind, key } = periodOf(board, leaderboards);
  return kind === 'ALL_TIME' ? board.id : { boardId: board.id, kind, key };
}

export interface RankWindowModel {
  id: string;
  center: EntryModel | null;
  entries: EntryModel[];
  totalCount: number;
}

export interface SubmitScoreResultModel extends Omit<SubmitResult, 'entry'> {
  entry: EntryModel;
}

/** Field by field rather than a spread: pages make ten to a thousand of these per request. */
export const onBoard = (boardId: string, entry: Omit<Entry, 'cursor'>): EntryModel => ({
  boardId,
  playerId: entry.playerId,
  score: entry.score,
  rank: entry.rank,
  sharedRank: entry.sharedRank,
  reachedAtMicros: entry.reachedAtMicros,
  percentile: entry.percentile,
  total: entry.total,
});

/** What a window is around: a player (`around`, `aroundChanged`) or a score (`aroundScore`). */
export type WindowArguments = { playerId: string; radius: number } | { score: number; radius: number };

export const windowOnBoard = (boardId: string, window: RankWindow, around: WindowArguments): RankWindowModel => ({
  id: encodeNodeId({ type: 'RankWindow', boardId, ...around }),
  totalCount: window.total,
  center: window.center && onBoard(boardId, window.center),
  entries: window.entries.map((entry) => onBoard(boardId, entry)),
});

export interface TopUpdateModel {
  id: string;
  entries: EntryModel[];
  version: string;
}

export const topOnBoard = (boardId: string, first: number, top: { entries: Omit<Entry, 'cursor'>[]; version: number }): TopUpdateModel => ({
  id: encodeNodeId({ type: 'TopUpdate', boardId, first }),
  entries: top.entries.map((entry) => onBoard(boardId, entry)),
  version: String(top.version),
});
