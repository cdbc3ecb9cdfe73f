/** Combined views, and what the reads take: a board, one of its periods or a view. */
import type { SortOrder } from './boards';
import type { BoardRef, PeriodRef } from './periods';

/** What the reads take: a board or one of its periods, or a combined view built by `buildView`. */
export type RankingRef = BoardRef | ViewRef;

export interface ViewRef {
  view: ViewSpec;
}

export const isViewRef = (board: RankingRef): board is ViewRef => typeof board !== 'string' && 'view' in board;

/** How a combined view puts its sources' scores together, as ZUNIONSTORE's AGGREGATE. */
export type Aggregate = 'SUM' | 'MAX' | 'MIN';

/** One ranking a combined view takes in: a board's period (ALL_TIME's key is `all`), its scores times `weight`. */
export interface ViewSource extends PeriodRef {
  weight: number;
}

/** A combined view, as checked by the domain: what `buildView` builds and its reads read. */
export interface ViewSpec {
  /** Names the view's keys: the same sources and aggregate always give the same id. */
  id: string;
  /** The one board every source is on (its keys then share that board's hash tag); undefined for several boards. */
  boardId?: string;
  aggregate: Aggregate;
  /** Every source's, and so the view's. */
  sortOrder: SortOrder;
  sources: ViewSource[];
}
