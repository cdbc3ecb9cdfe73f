/**
 * What the write scripts publish on a board's channel (keys.ts: st:{b}:events), one line per
 * change, several lines when one script call changed several players. Ranks here are 1-based.
 */
export type BoardEvent =
  | {
      kind: 'score';
      playerId: string;
      score: number;
      rank: number;
      previousScore: number | null;
      previousRank: number | null;
      reachedAtMicros: number;
      total: number;
    }
  | { kind: 'removed'; playerId: string; previousScore: number; previousRank: number; total: number }
  | { kind: 'deleted' };

const score = (text: string) => {
  const value = Number(text);
  return value === 0 ? 0 : value;
};

export function parseBoardEvents(message: string): BoardEvent[] {
  return message.split('\n').map((line): BoardEvent => {
    const f = line.split(' ');
    switch (f[0]) {
      case 's':
        return {
          kind: 'score',
          playerId: f[1],
          score: score(f[2]),
          rank: Number(f[3]) + 1,
          previousScore: f[4] === '-' ? null : score(f[4]),
          previousRank: f[5] === '-1' ? null : Number(f[5]) + 1,
          reachedAtMicros: Number(f[6]),
          total: Number(f[7]),
        };
      case 'r':
        return { kind: 'removed', playerId: f[1], previousScore: score(f[2]), previousRank: Number(f[3]) + 1, total: Number(f[4]) };
      case 'd':
        return { kind: 'deleted' };
      default:
        throw new Error(`unknown board event: ${line}`);
    }
  });
}
