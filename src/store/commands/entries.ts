import type { EntryFields, EntryRead, RankingRef } from '../../model';
import { rankingKeys } from '../keys';
import { directionOf, playerEntry, type Reply, shape } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';
import { bucketOf } from './arguments';
import { decodeErrors, type StaleLayout, staleLayout } from './scriptErrors';

/** entries.lua: many players of one ranking in one call. */
export const contract = {
  changesBoard: false,
  replies: { reply: shape('sortOrder', 'total', 'players', 'version'), players: shape('member', 'stored', 'rank0', 'sharedRank') },
} satisfies ScriptContract;

/**
 * The players' entries in the order asked: null for a player not on the board, and for every
 * player of an unknown board. `version`: the board's change counter at the read (0 for an
 * unknown board). A shared rank `fields` left out is undefined. STALE_LAYOUT when the board's
 * bucket count is no longer `buckets`.
 */
export async function readEntries(
  scripts: ScriptRunner, ref: RankingRef, buckets: number, playerIds: readonly string[], fields: EntryFields,
): Promise<{ entries: (EntryRead | null)[]; version: number } | StaleLayout> {
  const keys = rankingKeys(ref);
  const bucketKeys = playerIds.map((id) => keys.bucket(bucketOf(id, buckets)));
  const reply = await decodeErrors(
    scripts.read('entries', [keys.config, keys.ranking, ...bucketKeys], [buckets, fields.sharedRank ? '1' : '0', ...playerIds]),
    { STALE_BUCKETS: staleLayout },
  );
  return Array.isArray(reply) ? entriesOf(reply as Reply, playerIds.length) : (reply as StaleLayout);
}

function entriesOf(reply: Reply, count: number): { entries: (EntryRead | null)[]; version: number } {
  const { reply: { at }, players: { at: field, names } } = contract.replies;
  const entries = new Array<EntryRead | null>(count).fill(null);
  if (reply.length === 0) return { entries, version: 0 };
  const dir = directionOf(reply[at.sortOrder] as Buffer);
  const total = reply[at.total] as number;
  const players = reply[at.players] as Reply;
  for (let i = 0, base = 0; i < count; i++, base += names.length) {
    const member = players[base + field.member] as Buffer | null;
    if (member === null) continue;
    const stored = (players[base + field.stored] as Buffer).toString();
    const sharedRank = (players[base + field.sharedRank] as number | null) ?? undefined;
    entries[i] = playerEntry(dir, member, stored, players[base + field.rank0] as number, sharedRank, total);
  }
  return { entries, version: reply[at.version] as number };
}
