import { setImmediate as nextTurn } from 'node:timers/promises';
import { badInput } from '../errors';
import { momentOf, playerKeyOf, tokenLengthOf } from './memberCodec';
import type { Aggregate, SortOrder } from '../model';

/** A ranking's entries as read from Redis: members, and their stored scores (dir * score) in the same order. */
export interface RankingEntries {
  members: Buffer[];
  scores: number[];
}

/** Entries combined between two turns of the event loop (a millisecond or two): a view may take in millions. */
const ENTRIES_PER_TURN = 5_000;

/** One source of a view: its entries and its weight. */
export interface CombineSource extends RankingEntries {
  weight: number;
}

/** One player of a view: the aggregate as stored (dir * score) and the member that orders its ties. */
export interface CombinedEntry {
  stored: number;
  member: Buffer;
  /** Bytes of token at the start of `member` (memberCodec). */
  tokenLength: number;
}

interface Player {
  value: number;
  member: Buffer;
  tokenLength: number;
  /** `member`'s moment, which decides most comparisons of tokens without comparing bytes. */
  moment: number;
}

/** Whether one player's member `a` has the earlier token than `b`: by moment, then by bytes (the import sequence). */
const earlier = (a: Buffer, aMoment: number, b: Buffer, bMoment: number) => (aMoment !== bMoment ? aMoment < bMoment : Buffer.compare(a, b) < 0);

/**
 * Every player of the sources ranked by the aggregate of their weighted scores, as ZUNIONSTORE's
 * AGGREGATE, in entries a board's read scripts read unchanged. Ties: the view's token (moment,
 * import sequence) is, under MAX and MIN, the earliest of those with which the winning value was
 * reached, under SUM the latest of the player's tokens (the moment the total was complete); equal
 * aggregates then rank by it as on a board. Members of one player differ only in their tokens,
 * whose bytes order them by moment and then sequence, so comparing whole members compares tokens.
 * Sums run in the sources' order, so a view is the same whichever process builds it.
 * BAD_USER_INPUT when a weighted or summed score leaves |score| <= 2^53 - 1.
 * The event loop turns every ENTRIES_PER_TURN entries, so other requests are served meanwhile.
 */
export async function combineRankings(sources: readonly CombineSource[], aggregate: Aggregate, sortOrder: SortOrder): Promise<CombinedEntry[]> {
  const dir = sortOrder === 'DESCENDING' ? -1 : 1;
  const sum = aggregate === 'SUM';
  const max = aggregate === 'MAX';
  // By player code, in the order players are first met.
  const players = new Map<number | string, Player>();
  let untilTurn = ENTRIES_PER_TURN;
  for (let s = 0; s < sources.length; s++) {
    const { members, scores } = sources[s];
    const weight = dir * sources[s].weight;
    for (let i = 0; i < members.length; i++) {
      if (--untilTurn === 0) {
        await nextTurn();
        untilTurn = ENTRIES_PER_TURN;
      }
      const member = members[i];
      const value = scores[i] * weight;
      const tokenLength = tokenLengthOf(member);
      const moment = momentOf(member);
      const code = playerKeyOf(member, tokenLength);
      const player = players.get(code);
      if (player === undefined) {
        players.set(code, { value, member, tokenLength, moment });
        continue;
      }
      let take: boolean;
      if (sum) {
        player.value += value;
        take = earlier(player.member, player.moment, member, moment);
      } else if (value !== player.value) {
        take = (value > player.value) === max;
        if (take) player.value = value;
      } else {
        take = earlier(member, moment, player.member, player.moment);
      }
      if (take) {
        player.member = member;
        player.tokenLength = tokenLength;
        player.moment = moment;
      }
    }
  }
  const entries: CombinedEntry[] = [];
  for (const { value, member, tokenLength } of players.values()) {
    if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) {
      throw badInput(`a player's combined score (${value}) is outside |score| <= 2^53 - 1: use smaller weights or fewer sources`, { field: 'sources' });
    }
    // + 0 stores a -0 as 0.
    entries.push({ stored: dir * value + 0, member, tokenLength });
  }
  return entries;
}

