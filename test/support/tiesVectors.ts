import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SortOrder, UpdatePolicy } from '../../src/model';

/** The shared tie scenarios: ../shared/vectors/ties.json when present, else the copy in test/data. */
export interface TieCase {
  name: string;
  board: { sortOrder: SortOrder; updatePolicy: UpdatePolicy };
  ops: { op: 'submit'; playerId: string; score: number; reachedAt?: string }[];
  expect: { playerId: string; rank: number; sharedRank?: number; score?: number }[];
}

const SHARED = join(__dirname, '..', '..', '..', 'shared', 'vectors', 'ties.json');
const LOCAL = join(__dirname, '..', 'data', 'ties.json');

export function loadTieCases(): TieCase[] {
  const file = existsSync(SHARED) ? SHARED : LOCAL;
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: TieCase[] }).cases;
}

export const isoToMicros = (iso: string) => Date.parse(iso) * 1000;
