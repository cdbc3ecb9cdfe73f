/**
 * What an entries(100 ids) read costs Redis, with and without the shared rank (the count of
 * higher scores that a read asks for only when the query selects `sharedRank`), at each board
 * size: the store's read called one after another from this process (one in flight, so Redis' CPU
 * per call is the script's own and not a queue's), Redis' CPU time read from INFO cpu around each
 * cell. The two variants alternate within each round, their order swapped each round.
 *
 *   npm run bench:entries                           # 10,000 and 1,000,000 members, 3 rounds
 *   npm run bench:entries -- 10000 1000000 --rounds 5 --calls 2000
 */
import { formatCount, parseArgs, runBench } from './cli';
import { BOARD_ID, growBoard, playerId, seededRandom, withBenchBoard } from './fixtures';
import { redisCpuSeconds } from './load';
import { median } from './report';
import { ALL_ENTRY_FIELDS, type EntryFields } from '../src/store/types';

const { options, sizes } = parseArgs({ rounds: 3, calls: 1000 }, [10_000, 1_000_000]);
const PLAYERS_PER_CALL = 100;
const VARIANTS: [string, EntryFields][] = [['with shared rank', ALL_ENTRY_FIELDS], ['without shared rank', { sharedRank: false }]];

async function main(): Promise<string> {
  /** Redis CPU µs per call, by size and variant. */
  const micros = new Map<string, number[]>();
  for (const members of sizes) {
    await withBenchBoard(members, async (_url, store) => {
      await growBoard(store, 0, members, false);
      const random = seededRandom(members);
      const ids = () => Array.from({ length: PLAYERS_PER_CALL }, () => playerId(random(members)));
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
        for (const [name, fields] of order) {
          for (let i = 0; i < options.calls / 10; i++) await store.entries(BOARD_ID, ids(), fields); // warm-up
          const before = await redisCpuSeconds(store.redis);
          for (let i = 0; i < options.calls; i++) await store.entries(BOARD_ID, ids(), fields);
          const cell = `${members}\t${name}`;
          micros.set(cell, [...(micros.get(cell) ?? []), ((await redisCpuSeconds(store.redis)) - before) * 1e6 / options.calls]);
        }
      }
    });
  }
  const of = (members: number, name: string) => median(micros.get(`${members}\t${name}`)!);
  const smallest = sizes[0];
  return [
    `entries(${PLAYERS_PER_CALL} ids) through the store, ${formatCount(options.calls)} calls per cell, one in flight, median of ${options.rounds} rounds.`,
    '',
    `| members | read | Redis CPU µs per call (median) | rounds | without / with | ${formatCount(smallest)} / this size |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...sizes.flatMap((members) => VARIANTS.map(([name]) => {
      const rounds = micros.get(`${members}\t${name}`)!.map((µs) => µs.toFixed(0)).join(', ');
      const saving = name === VARIANTS[1][0] ? (of(members, name) / of(members, VARIANTS[0][0])).toFixed(2) : '';
      return `| ${formatCount(members)} | ${name} | ${of(members, name).toFixed(0)} | ${rounds} | ${saving} | ${(of(smallest, name) / of(members, name)).toFixed(2)} |`;
    })),
  ].join('\n');
}

runBench('entries-read', 'bench:entries', main);
