import type { PageInfo } from '../generated/graphql';
import type { BoardConfig, Entry, RankWindow, SubmitResult } from '../store/types';
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

/** A page of boards, without `totalCount`: counting every board is left to its own resolver, run only when it is selected. */
export interface LeaderboardConnectionModel {
  nodes: BoardConfig[];
  edges: { cursor: string; node: BoardConfig }[];
  pageInfo: PageInfo;
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

/** A window as read, or as live updates keep it (entries without paging cursors). */
type AnyWindow = Omit<RankWindow, 'center' | 'entries'> & { center: Omit<Entry, 'cursor'> | null; entries: Omit<Entry, 'cursor'>[] };

export const windowOnBoard = (boardId: string, window: AnyWindow, around: WindowArguments): RankWindowModel => ({
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
