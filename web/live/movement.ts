// Rank movement since the viewer arrived: each player's rank when this page first saw them is
// kept, and a row shows how far it is from there now (▲3: three places up). A player who was not
// in the list then is placed from the submission that brought them in (its previous rank), or
// shown as new when they had no rank before.
import type { Annotate, Entry } from './rows';

export class RankMovement {
  /** Each player's rank on arrival; null: had none (entered since). */
  private readonly arrived = new Map<string, number | null>();
  /** Players placed by a top update before their submission's event said where they came from. */
  private readonly guessed = new Set<string>();
  private seen = false;

  /** Forgets everything (another period: other ranks). */
  reset(): void {
    this.arrived.clear();
    this.guessed.clear();
    this.seen = false;
  }

  /** Records the players of a top update; those of the first one are where the viewer came in. */
  note(entries: readonly Entry[]): void {
    for (const entry of entries) {
      if (this.arrived.has(entry.playerId)) continue;
      this.arrived.set(entry.playerId, this.seen ? null : entry.rank);
      if (this.seen) this.guessed.add(entry.playerId);
    }
    this.seen = true;
  }

  /** A submission's event: where its player was before it, unless already known (or the first top, still to come, will say). */
  submitted(playerId: string, previousRank: number | null): void {
    if (!this.seen || (this.arrived.has(playerId) && !this.guessed.has(playerId))) return;
    this.arrived.set(playerId, previousRank);
    this.guessed.delete(playerId);
  }

  readonly annotate: Annotate = (entry) => {
    if (!this.arrived.has(entry.playerId)) return null;
    const before = this.arrived.get(entry.playerId);
    if (before === null) return { text: 'new', kind: 'new', title: 'new in the list since you arrived' };
    return movement(before! - entry.rank, 'since you arrived');
  };
}

/** ▲n / ▼n for a move of `places` up (negative: down); null for none. */
export function movement(places: number, since: string): { text: string; kind: string; title: string } | null {
  if (places === 0) return null;
  const up = places > 0;
  const count = Math.abs(places);
  return { text: `${up ? '▲' : '▼'}${count}`, kind: up ? 'up' : 'down', title: `${up ? 'up' : 'down'} ${count} ${count === 1 ? 'place' : 'places'} ${since}` };
}
