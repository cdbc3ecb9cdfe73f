import { percentile, toScore } from './replies';
import type { Entry } from '../model';

/**
 * What the write scripts publish on a board's channel (keys.ts: st:{b}:events): the board's
 * version after the write, then one event per change (several when one script call changed
 * several players). Every script that changes a board publishes (see SCRIPTS in commands/index.ts), so
 * a listener that hears nothing knows nothing changed. Ranks here are 1-based.
 */
export type BoardEvent =
  | {
      kind: 'score';
      playerId: string;
      score: number;
      rank: number;
      sharedRank: number;
      previousScore: number | null;
      previousRank: number | null;
      reachedAtMicros: number;
      total: number;
    }
  /**
   * A score change in a period whose kind no live feed marked as watched (keys.ts: st:{b}:watched),
   * so the script left its ranks out: a feed that follows the period reads it again.
   */
  | { kind: 'unranked'; playerId: string; score: number; previousScore: number | null; reachedAtMicros: number }
  | { kind: 'removed'; playerId: string; previousScore: number; previousRank: number; total: number }
  /** The board's settings (title, update policy) changed; its entries did not. */
  | { kind: 'settings' }
  /** The board was created (it may have existed before and been deleted): it is empty. */
  | { kind: 'created' }
  | { kind: 'deleted' };

// Events carry real scores, not stored (dir * score) ones: direction 1 reads them as they are.
const score = (text: string) => toScore(1, text);

/** The changes of one period of the board other than ALL_TIME. */
export interface PeriodEvents {
  kind: string;
  key: string;
  events: BoardEvent[];
}

export interface BoardEventMessage {
  /** The board's change counter after this write (one counter for all its periods); null for a deleted board. */
  version: number | null;
  /** ALL_TIME's changes (the board's own ranking), and those of the board as a whole. */
  events: BoardEvent[];
  /** The other periods' changes, each period's after a line 'p <kind> <key>' (submit.lua). */
  periods: PeriodEvents[];
}

export function parseBoardEvents(message: string): BoardEventMessage {
  const lines = message.split('\n');
  const version = lines[0].startsWith('v ') ? Number(lines.shift()!.slice(2)) : null;
  const parsed: BoardEventMessage = { version, events: [], periods: [] };
  let into = parsed.events;
  for (const line of lines) {
    if (line.startsWith('p ')) {
      const [, kind, key] = line.split(' ');
      parsed.periods.push({ kind, key, events: (into = []) });
    } else {
      into.push(parseLine(line));
    }
  }
  return parsed;
}

function parseLine(line: string): BoardEvent {
  const f = line.split(' ');
  switch (f[0]) {
    case 's':
      if (f[3] === '-') {
        return { kind: 'unranked', playerId: f[1], score: score(f[2]), previousScore: f[5] === '-' ? null : score(f[5]), reachedAtMicros: Number(f[7]) };
      }
      return {
        kind: 'score',
        playerId: f[1],
        score: score(f[2]),
        rank: Number(f[3]) + 1,
        sharedRank: Number(f[4]),
        previousScore: f[5] === '-' ? null : score(f[5]),
        previousRank: f[6] === '-1' ? null : Number(f[6]) + 1,
        reachedAtMicros: Number(f[7]),
        total: Number(f[8]),
      };
    case 'r':
      return { kind: 'removed', playerId: f[1], previousScore: score(f[2]), previousRank: Number(f[3]) + 1, total: Number(f[4]) };
    case 'u':
      return { kind: 'settings' };
    case 'c':
      return { kind: 'created' };
    case 'd':
      return { kind: 'deleted' };
    default:
      throw new Error(`unknown board event: ${line}`);
  }
}

/** The entry a score event describes (an event has no paging cursor: it knows no member bytes). */
export function scoreEntry(event: Extract<BoardEvent, { kind: 'score' }>): Omit<Entry, 'cursor'> {
  const { playerId, score, rank, sharedRank, reachedAtMicros, total } = event;
  return { playerId, score, rank, sharedRank, reachedAtMicros, total, percentile: percentile(rank, total) };
}
