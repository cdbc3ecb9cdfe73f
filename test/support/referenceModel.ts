import type { ScoreRange, SortOrder, UpdatePolicy } from '../../src/model';

/**
 * The ranking rules in their plainest form, for tests to compare the store against: sort by
 * score in the board's direction, then by the moment the score was reached, then by arrival
 * (imports are numbered; live submissions have unique moments and number 0).
 */
export interface ModelEntry {
  playerId: string;
  score: number;
  reachedAtMicros: number;
  importSeq: number;
}

export interface RankedEntry extends ModelEntry {
  rank: number;
  sharedRank: number;
}

export interface ModelResult {
  changed: boolean;
  previousScore: number | null;
  previousRank: number | null;
}

export const MAX_SCORE = Number.MAX_SAFE_INTEGER;

export class ReferenceBoard {
  private readonly players = new Map<string, ModelEntry>();
  private importSeq = 0;

  constructor(
    readonly sortOrder: SortOrder,
    readonly policy: UpdatePolicy,
  ) {}

  clone(): ReferenceBoard {
    const copy = new ReferenceBoard(this.sortOrder, this.policy);
    this.players.forEach((entry, id) => copy.players.set(id, { ...entry }));
    copy.importSeq = this.importSeq;
    return copy;
  }

  /** The score a submission would leave, or 'overflow' for an INCREMENT past 2^53 - 1. */
  nextScore(playerId: string, submitted: number): number | 'overflow' {
    const old = this.players.get(playerId)?.score;
    if (old === undefined) return submitted;
    if (this.policy === 'INCREMENT') {
      const total = old + submitted;
      return Math.abs(total) > MAX_SCORE ? 'overflow' : total;
    }
    if (this.policy === 'BEST') return this.better(submitted, old) ? submitted : old;
    return submitted;
  }

  /**
   * Applies a submission. `moment` is the reachedAt the store reported for a live submission,
   * or the importer's reachedAt; `imported` says which.
   */
  submit(playerId: string, submitted: number, moment: number, imported: boolean): ModelResult {
    const before = this.players.get(playerId);
    const previousRank = before ? this.rankOf(playerId) : null;
    const score = this.nextScore(playerId, submitted);
    if (score === 'overflow') throw new Error('model: overflow must be refused before applying');
    const changed = !before || score !== before.score;
    if (changed) {
      this.players.set(playerId, {
        playerId, score: score === 0 ? 0 : score, reachedAtMicros: moment, importSeq: imported ? ++this.importSeq : 0,
      });
    }
    return { changed, previousScore: before?.score ?? null, previousRank };
  }

  remove(playerId: string): boolean {
    return this.players.delete(playerId);
  }

  has(playerId: string): boolean {
    return this.players.has(playerId);
  }

  ranking(): RankedEntry[] {
    const dir = this.sortOrder === 'DESCENDING' ? -1 : 1;
    const sorted = [...this.players.values()].sort(
      (a, b) => dir * a.score - dir * b.score || a.reachedAtMicros - b.reachedAtMicros || a.importSeq - b.importSeq,
    );
    let shared = 1;
    return sorted.map((entry, i) => {
      if (i > 0 && entry.score !== sorted[i - 1].score) shared = i + 1;
      return { ...entry, rank: i + 1, sharedRank: shared };
    });
  }

  rankOf(playerId: string): number | null {
    const index = this.ranking().findIndex((e) => e.playerId === playerId);
    return index < 0 ? null : index + 1;
  }

  /** Entries that rank above a new arrival with this score (it comes after equal scores). */
  positionOfScore(score: number): number {
    return this.ranking().filter((e) => !this.better(score, e.score)).length;
  }

  /** Entries whose score lies in the range, in rank order. */
  inRange(range: ScoreRange): RankedEntry[] {
    return this.ranking().filter((e) => scoreInRange(e.score, range));
  }

  /** 1 + how many distinct scores rank above this one (1, 2, 2, 3). */
  denseRankOf(score: number): number {
    return new Set(this.ranking().filter((e) => this.better(e.score, score)).map((e) => e.score)).size + 1;
  }

  scoreAtRank(rank: number): number | null {
    return this.ranking()[rank - 1]?.score ?? null;
  }

  /**
   * Linear interpolation between the closest ranks (numpy's default), over the scores from the
   * last rank (0 %) to the first (100 %).
   */
  scoreAtPercentile(percent: number): number | null {
    const bottomUp = this.ranking().map((e) => e.score).reverse();
    const n = bottomUp.length;
    if (n === 0) return null;
    const h = ((n - 1) * percent) / 100;
    const i = Math.floor(h);
    if (h === i) return bottomUp[i];
    return bottomUp[i] + (h - i) * (bottomUp[i + 1] - bottomUp[i]);
  }

  /** The bulk removals: each returns how many entries went. */
  removeByScore(range: ScoreRange): number {
    return this.removeAll(this.inRange(range));
  }

  keepTop(count: number): number {
    return this.removeAll(this.ranking().slice(count));
  }

  removePlayers(playerIds: readonly string[]): number {
    return this.removeAll([...new Set(playerIds)].filter((id) => this.players.has(id)).map((id) => this.players.get(id)!));
  }

  private removeAll(entries: ModelEntry[]): number {
    entries.forEach((e) => this.players.delete(e.playerId));
    return entries.length;
  }

  private better(a: number, b: number): boolean {
    return this.sortOrder === 'DESCENDING' ? a > b : a < b;
  }
}

/** The window [start, start + size) clamped to the board, keeping its size where possible. */
export function windowStart(first: number, size: number, total: number): number {
  return Math.max(0, Math.min(first, total - size));
}

export function scoreInRange(score: number, { min, max }: ScoreRange): boolean {
  if (min && (min.exclusive ? score <= min.value : score < min.value)) return false;
  if (max && (max.exclusive ? score >= max.value : score > max.value)) return false;
  return true;
}
