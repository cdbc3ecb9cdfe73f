/** Types of the store's own, beside the shared ones in src/model. */
import type { BoardConfig, PeriodSlot, SubmitPlan } from '../model';

/**
 * The periods of a board a removal of players reaches, from the board's periods setting
 * (BoardConfig.periods) as the store last read it: the domain's calendar knows which are kept.
 * ALL_TIME, when kept, comes first.
 */
export type SlotLister = (periods: string) => PeriodSlot[];

/**
 * Plans a call for a board with these periods ('' = ALL_TIME only), its live windows taken at
 * `at` (µs; undefined: the planner's now).
 */
export type SubmitPlanner = (periods: string, at?: number) => SubmitPlan;

/**
 * What adding seasons did: the board with its new periods; or nothing, because its periods
 * changed since they were read (`periodsChanged`: read them again), or because a season added
 * starts at or before `latestMoment` (µs), the latest of Redis' now and the board's last moment.
 */
export type AddSeasonsResult = { board: BoardConfig } | { periodsChanged: true } | { latestMoment: number };
