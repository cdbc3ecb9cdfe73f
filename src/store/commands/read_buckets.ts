import type { PeriodSlot } from '../../model';
import { boardKeys, slotKeys } from '../keys';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { decodeErrors, type StaleLayout, staleLayout } from './scriptErrors';

/** read_buckets.lua: every player of some bucket hashes of one board's rankings, for a view's build. */
export const contract = { changesBoard: false } satisfies ScriptContract;

/**
 * The entries of the buckets [from, to) of each of the board's rankings `slots` names, in that
 * order, each a list of member, stored score (exact text), member...; null for an unknown board,
 * STALE_LAYOUT when its bucket count is no longer `buckets`.
 */
export async function readBuckets(
  scripts: ScriptRunner, boardId: string, slots: readonly PeriodSlot[], buckets: number, from: number, to: number,
): Promise<Buffer[][] | null | StaleLayout> {
  const keys = boardKeys(boardId);
  const callKeys = [keys.config];
  for (const slot of slots) {
    const ranking = slotKeys(keys, slot);
    callKeys.push(ranking.ranking);
    for (let b = from; b < to; b++) callKeys.push(ranking.bucket(b));
  }
  const reply = await decodeErrors(scripts.read('read_buckets', callKeys, [buckets, to - from]), { STALE_BUCKETS: staleLayout });
  if (!Array.isArray(reply)) return reply as StaleLayout;
  return reply.length === 0 ? null : (reply as Buffer[][]);
}
