import type { Leaderboards } from '../domain/leaderboards';
import type { Period } from '../domain/periods/calendar';
import type { PageInfo } from '../generated/graphql';
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
  /** The period the entry was read on; none for ALL_TIME. Part of its identity: a player's daily and all-time entries are two objects. */
  period?: PeriodName;
}

/** A period as ids and entries carry it. */
export interface PeriodName {
  kind: string;
  key: string;
}

/** The period a board reference names; undefined for ALL_TIME (a bare board id). */
export const periodNameOf = (board: BoardRef): PeriodName | undefined =>
  typeof board === 'string' ? undefined : { kind: board.kind, key: board.key };

const boardIdOf = (board: BoardRef): string => (typeof board === 'string' ? board : board.boardId);

/** A page of boards, without `totalCount`: counting every board is left to its own resolver, run only when it is selected. */
export interface LeaderboardConnectionModel {
  nodes: BoardConfig[];
  edges: { cursor: string; node: BoardConfig }[];
  pageInfo: PageInfo;
}

/** A board, scoped to one of its periods by `leaderboard(id:, period:)`; without one, its default period. */
export interface LeaderboardModel extends BoardConfig {
  period?: Period;
}

/** The period a Leaderboard's reads are about. */
export const periodOf = (board: LeaderboardModel, leaderboards: Leaderboards): Period =>
  board.period ?? leaderboards.period(board, null);

/** What the domain's reads take for a Leaderboard: the board's id for ALL_TIME, else the period. */
export const refOf = (board: LeaderboardModel, leaderboards: Leaderboards): BoardRef => periodRef(board.id, periodOf(board, leaderboards));

/** What the domain's reads take for a period of a board: the board's id for ALL_TIME, else the period. */
export const periodRef = (boardId: string, { kind, key }: PeriodName): BoardRef => (kind === 'ALL_TIME' ? boardId : { boardId, kind, key });

/** A period as `Period` shows it (Leaderboard.period, Leaderboard.periods, TopUpdate.period). */
export interface PeriodModel extends Period {
  expiresAt: number | null;
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
export const onBoard = (board: BoardRef, entry: Omit<Entry, 'cursor'>): EntryModel => ({
  boardId: boardIdOf(board),
  period: periodNameOf(board),
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

/** A window as read, or as live updates keep it (entries without paging cursors). */
type AnyWindow = Omit<RankWindow, 'center' | 'entries'> & { center: Omit<Entry, 'cursor'> | null; entries: Omit<Entry, 'cursor'>[] };

export const windowOnBoard = (board: BoardRef, window: AnyWindow, around: WindowArguments): RankWindowModel => ({
  id: encodeNodeId({ type: 'RankWindow', boardId: boardIdOf(board), period: periodNameOf(board), ...around }),
  totalCount: window.total,
  center: window.center && onBoard(board, window.center),
  entries: window.entries.map((entry) => onBoard(board, entry)),
});

export interface TopUpdateModel {
  id: string;
  period: PeriodModel;
  entries: EntryModel[];
  version: string;
}

export const topOnBoard = (
  board: BoardRef, first: number, top: { entries: Omit<Entry, 'cursor'>[]; version: number }, period: PeriodModel,
): TopUpdateModel => ({
  id: encodeNodeId({ type: 'TopUpdate', boardId: boardIdOf(board), period: periodNameOf(board), first }),
  period,
  entries: top.entries.map((entry) => onBoard(board, entry)),
  version: String(top.version),
});
