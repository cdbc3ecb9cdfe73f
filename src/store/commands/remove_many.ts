import { boardNotFound } from '../../errors';
import type { PeriodSlot, ScoreRange } from '../../model';
import { boardKeys, slotKeys } from '../keys';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { periodsFingerprint, rangeArgs } from './arguments';
import { decodeErrors, refusedInput, type StaleLayout, staleLayout } from './scriptErrors';

/** remove_many.lua: entries of one board at once, all or nothing. */
export const contract = { changesBoard: true } satisfies ScriptContract;

/** The periods a removal reaches, and the board's periods they were listed from (BoardConfig.periods). */
export interface ListedSlots {
  periods: string;
  /** ALL_TIME, when listed, first; a score range or "keep the top" takes one. */
  slots: PeriodSlot[];
}

export const ALL_TIME_SLOTS: ListedSlots = { periods: '', slots: [{ kind: 'ALL_TIME', key: 'all' }] };

/** What goes: the entries in a score range, those ranked below the first `keep`, or these players. */
export type Removal = { range: ScoreRange } | { keep: number } | { playerIds: readonly string[] };

/**
 * How many players went; STALE_LAYOUT when the board's periods changed since the slots were
 * listed. NOT_FOUND for an unknown board; BAD_USER_INPUT [min | count | playerIds] past `max`
 * entries from one period (nothing is removed).
 */
export async function removeMany(
  scripts: ScriptRunner, boardId: string, { periods, slots }: ListedSlots, max: number, removal: Removal,
): Promise<number | StaleLayout> {
  const keys = boardKeys(boardId);
  const slotKeyList = slots.map((slot) => slotKeys(keys, slot));
  const mode = 'range' in removal ? ['range', ...rangeArgs(removal.range)] : 'keep' in removal ? ['below', removal.keep] : ['players', ...removal.playerIds];
  return (await decodeErrors(scripts.write('remove_many', [keys.config, keys.distinct, ...slotKeyList.map((slot) => slot.ranking)], [
    keys.events, max, periodsFingerprint(periods), mode[0], slots.length,
    ...slots.flatMap((slot, i) => [slot.kind, slot.key, slotKeyList[i].bucketPrefix]), ...mode.slice(1),
  ]), {
    NOT_FOUND: () => {
      throw boardNotFound(boardId);
    },
    STALE_BUCKETS: staleLayout,
    BAD_USER_INPUT: (error) => {
      throw refusedInput(error);
    },
  })) as number | StaleLayout;
}
