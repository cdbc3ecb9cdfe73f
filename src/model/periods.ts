/** How a board's periods are named where reads and writes take one. */
/** A board (its id), or one of its periods: what the reads take. A period that is no longer kept reads as empty. */
export type BoardRef = string | PeriodRef;

export interface PeriodRef {
  boardId: string;
  kind: string;
  key: string;
}

/** One period of a board by name, as scripts' slots take it (ALL_TIME's key is `all`). */
export interface PeriodSlot {
  kind: string;
  key: string;
}
