import type { Leaderboards } from '../domain/leaderboards';
import type { Period } from '../domain/periods/calendar';
import type { PageInfo } from '../generated/graphql';
import type { BoardConfig, BoardRef, Entry, EntryRead, RankingRef, RankWindow, SubmitResult, ViewSpec } from '../model';
import { isViewRef } from '../model';
import { encodeNodeId } from './nodeIds';

/**
 * What resolvers pass down as parents where the store's types are not enough (codegen maps the
 * GraphQL types onto these): store entries do not know their board, but `Entry.leaderboard`,
 * `Entry.ranking` and `Entry.id` need it, so entries carry it. The paging cursor is not part of an Entry (edges
 * carry it), and entries built from live events have none.
 */
export interface EntryModel extends EntryRead {
  /** Its board; for an entry of a combined view, the board of the view's first source. */
  boardId: string;
  /** The period the entry was read on (its `ranking`); none for ALL_TIME. Part of its identity: a player's daily and all-time entries are two objects. */
  period?: PeriodName;
  /** The combined view the entry was read on (its `ranking`), part of its identity as a period is. */
  view?: CombinedViewModel;
}

/** A combined view (`Query.combined`, `Entry.ranking`, `node(id:)`): built, ready to read. */
export type CombinedViewModel = ViewSpec;

export interface CombinedSourceModel {
  period: PeriodModel;
  weight: number;
}

/** Told by the field no other model has (see isPeriod). */
export const isView = (model: object): model is CombinedViewModel => 'aggregate' in model;

/** A period as ids and entries carry it. */
export interface PeriodName {
  kind: string;
  key: string;
}

/** The period a board reference names; undefined for ALL_TIME (a bare board id) and views. */
export const periodNameOf = (board: RankingRef): PeriodName | undefined =>
  typeof board === 'string' || isViewRef(board) ? undefined : { kind: board.kind, key: board.key };

/** The board of what a reference names: a view's is its first source's. */
const boardIdOf = (board: RankingRef): string =>
  typeof board === 'string' ? board : isViewRef(board) ? board.view.sources[0].boardId : board.boardId;

const viewOf = (board: RankingRef): CombinedViewModel | undefined => (isViewRef(board) ? board.view : undefined);

/** A page of boards, without `totalCount`: counting every board is left to its own resolver, run only when it is selected. */
export interface LeaderboardConnectionModel {
  nodes: BoardConfig[];
  edges: { cursor: string; node: BoardConfig }[];
  pageInfo: PageInfo;
}

/** A board; its reads are on its default period (Leaderboards.period with no request). */
export type LeaderboardModel = BoardConfig;

/**
 * One period of a board, an object of its own (`Leaderboard.period(of:)`, `periods`,
 * `Entry.ranking`, `node(id:)`): its reads are the board's, on this period.
 */
export interface PeriodModel extends Period {
  board: BoardConfig;
}

export const periodOnBoard = (board: BoardConfig, period: Period): PeriodModel => ({ ...period, board });

/** Told by the field no other model has: resolvers of abstract types (`Node`, `Ranking`) and reads ask. */
export const isPeriod = (model: object): model is PeriodModel => 'board' in model;

/** A ranking, whose reads one set of resolvers serves: a board itself, one of its periods, or a combined view. */
export type BoardRankingModel = LeaderboardModel | PeriodModel | CombinedViewModel;

/** What the domain's reads take for a period: the board's id for ALL_TIME, else the period. */
export const refOnBoard = (boardId: string, { kind, key }: PeriodName): BoardRef =>
  kind === 'ALL_TIME' ? boardId : { boardId, kind, key };

/** What the domain's reads take for a ranking: its period's, for a board its default period's, a view itself. */
export const refOf = (ranking: BoardRankingModel, leaderboards: Leaderboards): RankingRef => {
  if (isView(ranking)) return { view: ranking };
  return isPeriod(ranking) ? refOnBoard(ranking.board.id, ranking) : refOnBoard(ranking.id, leaderboards.period(ranking, null));
};

export interface RankWindowModel {
  id: string;
  center: EntryModel | null;
  entries: EntryModel[];
  totalCount: number;
}

export interface SubmitScoreResultModel extends Omit<SubmitResult, 'entry'> {
  entry: EntryModel;
}

/** What every entry read on one ranking carries of it, worked out once per read rather than per entry. */
type RankingIdentity = Pick<EntryModel, 'boardId' | 'period' | 'view'>;

const identityOf = (board: RankingRef): RankingIdentity => ({ boardId: boardIdOf(board), period: periodNameOf(board), view: viewOf(board) });

/** Field by field rather than a spread: pages make ten to a thousand of these per request. */
const withIdentity = ({ boardId, period, view }: RankingIdentity, entry: EntryRead): EntryModel => ({
  boardId,
  period,
  view,
  playerId: entry.playerId,
  score: entry.score,
  rank: entry.rank,
  sharedRank: entry.sharedRank,
  reachedAtMicros: entry.reachedAtMicros,
  percentile: entry.percentile,
  total: entry.total,
});

export const onBoard = (board: RankingRef, entry: EntryRead): EntryModel => withIdentity(identityOf(board), entry);

/** The entries of one read on `board`, in order (null stays null for a player without one). */
export function entriesOnBoard(board: RankingRef, entries: readonly EntryRead[]): EntryModel[];
export function entriesOnBoard(board: RankingRef, entries: readonly (EntryRead | null)[]): (EntryModel | null)[];
export function entriesOnBoard(board: RankingRef, entries: readonly (EntryRead | null)[]): (EntryModel | null)[] {
  const identity = identityOf(board);
  return entries.map((entry) => entry && withIdentity(identity, entry));
}

/** What a window is around: a player (`around`, `aroundChanged`) or a score (`aroundScore`). */
export type WindowArguments = { playerId: string; radius: number } | { score: number; radius: number };

/** A window as read, or as live updates keep it (entries without paging cursors). */
type AnyWindow = Omit<RankWindow, 'center' | 'entries'> & { center: Omit<Entry, 'cursor'> | null; entries: Omit<Entry, 'cursor'>[] };

export function windowOnBoard(board: RankingRef, window: AnyWindow, around: WindowArguments): RankWindowModel {
  const identity = identityOf(board);
  return {
    id: encodeNodeId({ type: 'RankWindow', ...identity, ...around }),
    totalCount: window.total,
    center: window.center && withIdentity(identity, window.center),
    entries: window.entries.map((entry) => withIdentity(identity, entry)),
  };
}

export interface TopUpdateModel {
  id: string;
  period: PeriodModel;
  entries: EntryModel[];
  version: string;
}

export function topOnBoard(
  board: BoardRef, first: number, top: { entries: Omit<Entry, 'cursor'>[]; version: number }, period: PeriodModel,
): TopUpdateModel {
  const identity = identityOf(board);
  return {
    id: encodeNodeId({ type: 'TopUpdate', boardId: identity.boardId, period: identity.period, first }),
    period,
    entries: top.entries.map((entry) => withIdentity(identity, entry)),
    version: String(top.version),
  };
}
