import { type BoardEvent, scoreEntry } from '../../store/events';
import { percentile } from '../../store/replies';
import type { Entry } from '../../model';

/** An entry as live updates show it: entries built from events have no paging cursor. */
export type LiveEntry = Omit<Entry, 'cursor'>;

/**
 * One change of a board in ranks: a player left rank `from` (null: had no entry) and now holds
 * `to` (null: removed). Every other entry moves by at most one rank, so a state that knows some
 * ranks of the board follows the change without asking Redis.
 */
export interface Move {
  playerId: string;
  from: number | null;
  fromScore: number | null;
  to: LiveEntry | null;
  total: number;
}

/** The move an event describes; null for the board's creation and deletion, which no move describes. */
export function moveOf(event: BoardEvent): Move | null {
  switch (event.kind) {
    case 'score':
      return { playerId: event.playerId, from: event.previousRank, fromScore: event.previousScore, to: scoreEntry(event), total: event.total };
    case 'removed':
      return { playerId: event.playerId, from: event.previousRank, fromScore: event.previousScore, to: null, total: event.total };
    default:
      return null;
  }
}

/**
 * Another player's entry after `move`. Its rank drops by one when the mover left a rank above it
 * and rises by one when the mover lands at or above it. Its shared rank (1 + the entries with a
 * strictly better score) changes with these only when the mover's score differs from its own: of
 * two entries with different scores the one ranked higher has the better score, so no sort order
 * is needed, and an equal score above never counts.
 */
export function shifted(entry: LiveEntry, move: Move): LiveEntry {
  let { rank, sharedRank } = entry;
  if (move.from !== null && move.from < rank) {
    rank--;
    if (move.fromScore !== entry.score) sharedRank--;
  }
  if (move.to !== null && move.to.rank <= rank) {
    rank++;
    if (move.to.score !== entry.score) sharedRank++;
  }
  const { total } = move;
  return { playerId: entry.playerId, score: entry.score, rank, sharedRank, reachedAtMicros: entry.reachedAtMicros, total, percentile: percentile(rank, total) };
}

/** A player's entry (null: none) after `move`. */
export function entryAfter(playerId: string, entry: LiveEntry | null, move: Move): LiveEntry | null {
  if (move.playerId === playerId) return move.to;
  return entry && shifted(entry, move);
}

/** Entries of consecutive ranks, `start` being the first one's (or where the first would be). */
export interface Run {
  start: number;
  entries: LiveEntry[];
}

/**
 * The run after `move`: the mover leaves it and lands in it when its new rank is inside the run
 * or right after its end, the others shift. Null when the run does not hold the mover where the
 * move says it was: the run has missed something and must be read again.
 */
export function runAfter(run: Run, move: Move): Run | null {
  let { start } = run;
  let entries = run.entries;
  if (move.from !== null) {
    if (move.from < start) start--;
    else if (move.from < start + entries.length) {
      const at = move.from - start;
      if (entries[at].playerId !== move.playerId) return null;
      entries = entries.slice(0, at).concat(entries.slice(at + 1));
    }
  }
  const next = entries.map((entry) => shifted(entry, move));
  if (move.to !== null) {
    if (move.to.rank < start) start++;
    else if (move.to.rank <= start + next.length) next.splice(move.to.rank - start, 0, move.to);
  }
  return { start, entries: next };
}
