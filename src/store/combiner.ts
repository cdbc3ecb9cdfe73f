import { badInput } from '../errors';
import { momentOf, playerKeyOf, tokenLengthOf } from './memberCodec';
import type { Aggregate, SortOrder } from '../model';

/** One player of a view: the aggregate as stored (dir * score) and the member that orders its ties. */
export interface CombinedEntry {
  stored: number;
  member: Buffer;
  /** Bytes of token at the start of `member` (memberCodec). */
  tokenLength: number;
}

interface Player {
  /** MAX and MIN: the winning weighted value so far; SUM: the total, once `complete` added up the parts. */
  value: number;
  /** SUM: each source's weighted value, by source, added up in the sources' order at the end. */
  parts: number[] | undefined;
  member: Buffer;
  tokenLength: number;
  /** `member`'s moment, which decides most comparisons of tokens without comparing bytes. */
  moment: number;
}

/** Whether one player's member `a` has the earlier token than `b`: by moment, then by bytes (the import sequence). */
const earlier = (a: Buffer, aMoment: number, b: Buffer, bMoment: number) => (aMoment !== bMoment ? aMoment < bMoment : Buffer.compare(a, b) < 0);

/**
 * Every player of a view's sources ranked by the aggregate of their weighted scores, as
 * ZUNIONSTORE's AGGREGATE, in entries a board's read scripts read unchanged. The sources' entries
 * come in as they are read, a slice at a time and in any order of sources (`add`), and each is
 * folded into its player at once: what a build holds is one record per player, never the entries
 * it read, which die young (a view over sixteen rankings reads sixteen entries a player).
 *
 * Ties: the view's token (moment, import sequence) is, under MAX and MIN, the earliest of those
 * with which the winning value was reached, under SUM the latest of the player's tokens (the
 * moment the total was complete); equal aggregates then rank by it as on a board. Members of one
 * player differ only in their tokens, whose bytes order them by moment and then sequence, so
 * comparing whole members compares tokens. Sums run in the sources' order, whatever order they
 * were read in, so a view is the same whichever process builds it.
 */
export class Combiner {
  /** By player code, in the order players are first met. */
  private readonly players = new Map<number | string, Player>();
  private readonly dir: number;
  private readonly sum: boolean;
  private readonly max: boolean;

  constructor(private readonly weights: readonly number[], aggregate: Aggregate, sortOrder: SortOrder) {
    this.dir = sortOrder === 'DESCENDING' ? -1 : 1;
    this.sum = aggregate === 'SUM';
    this.max = aggregate === 'MAX';
  }

  /**
   * Entries of source `source` (its index among the weights): `items` alternates a member and its
   * stored score (dir * score) as text, as read_buckets.lua answers. A player comes at most once
   * per source.
   */
  add(source: number, items: readonly Buffer[]): void {
    const weight = this.dir * this.weights[source];
    for (let at = 0; at < items.length; at += 2) {
      const member = items[at];
      const value = Number(items[at + 1].toString('latin1')) * weight;
      const tokenLength = tokenLengthOf(member);
      const moment = momentOf(member);
      const code = playerKeyOf(member, tokenLength);
      const player = this.players.get(code);
      if (player === undefined) {
        const parts: number[] | undefined = this.sum ? [] : undefined;
        if (parts) parts[source] = value;
        this.players.set(code, { value, parts, member, tokenLength, moment });
        continue;
      }
      let take: boolean;
      if (player.parts) {
        player.parts[source] = value;
        take = earlier(player.member, player.moment, member, moment);
      } else if (value !== player.value) {
        take = (value > player.value) === this.max;
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

  /** How many players the view holds. */
  get size(): number {
    return this.players.size;
  }

  /**
   * Completes every player's aggregate (SUM adds up its parts, in the sources' order), `size`
   * players a step, so that the caller can let other work run between steps: a view's players
   * are many, and done at once this is the longest stretch of a build. BAD_USER_INPUT when a
   * weighted or summed score leaves |score| <= 2^53 - 1, before anything of the view is written.
   */
  *complete(size: number): Generator<void, void, undefined> {
    let step = 0;
    for (const player of this.players.values()) {
      if (player.parts) {
        player.value = sumInOrder(player.parts);
        player.parts = undefined;
      }
      if (!(Math.abs(player.value) <= Number.MAX_SAFE_INTEGER)) {
        throw badInput(`a player's combined score (${player.value}) is outside |score| <= 2^53 - 1: use smaller weights or fewer sources`, { field: 'sources' });
      }
      if (++step % size === 0) yield;
    }
  }

  /** The view's entries, `size` a slice, once `complete` has run to its end. */
  *slices(size: number): Generator<CombinedEntry[], void, undefined> {
    let slice: CombinedEntry[] = [];
    for (const { value, member, tokenLength } of this.players.values()) {
      // + 0 stores a -0 as 0.
      slice.push({ stored: this.dir * value + 0, member, tokenLength });
      if (slice.length === size) {
        yield slice;
        slice = [];
      }
    }
    if (slice.length > 0) yield slice;
  }
}

/** The parts a player has (a sparse array: sources without the player have none), added up from the first source. */
function sumInOrder(parts: number[]): number {
  let total: number | undefined;
  for (const part of parts) {
    if (part !== undefined) total = total === undefined ? part : total + part;
  }
  return total!;
}
