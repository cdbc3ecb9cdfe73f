/**
 * What an entries(100 ids) read costs Redis, with and without the shared rank (the count of
 * higher scores that a read asks for only when the query selects `sharedRank`), at each board
 * size: the store's read called one after another from this process (one in flight, so Redis' CPU
 * per call is the script's own and not a queue's), Redis' CPU time read from INFO cpu around each
 * cell. The two variants alternate within each round, their order swapped each round. A second
 * table says where a call's time goes in Redis (INFO commandstats): each command the script runs,
 * and the script's own work (EVALSHA's time less theirs: arguments, Lua, the reply).
 *
 *   npm run bench:entries                           # 10,000 and 1,000,000 members, 3 rounds
 *   npm run bench:entries -- 10000 1000000 --rounds 5 --calls 2000
 */
import { formatCount, parseArgs, runBench } from './cli';
import { BOARD_ID, growBoard, playerId, seededRandom, withBenchBoard } from './fixtures';
import { commandStats, redisCpuSeconds } from './load';
import { median, NO_TARGET } from './report';
import { ALL_ENTRY_FIELDS, type EntryFields } from '../src/model';

const { options, sizes } = parseArgs({ rounds: 3, calls: 1000 }, [10_000, 1_000_000]);
const PLAYERS_PER_CALL = 100;
const VARIANTS: [string, EntryFields][] = [['with shared rank', ALL_ENTRY_FIELDS], ['without shared rank', { sharedRank: false }]];
/** The commands entries.lua runs; the first is the call itself. */
const COMMANDS = ['evalsha', 'hmget', 'hget', 'zmscore', 'zrank', 'zcount', 'zcard'];

async function main(): Promise<string> {
  /** Redis CPU µs per call, by size and variant. */
  const micros = new Map<string, number[]>();
  /** Redis µs in each command per entries call, and per call of that command, by size, variant and command. */
  const inCommands = new Map<string, number[]>();
  const eachCommand = new Map<string, number[]>();
  const record = (into: Map<string, number[]>, key: string, value: number) => into.set(key, [...(into.get(key) ?? []), value]);
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
          const statsBefore = await commandStats(store.redis);
          for (let i = 0; i < options.calls; i++) await store.entries(BOARD_ID, ids(), fields);
          const statsAfter = await commandStats(store.redis);
          const cell = `${members}\t${name}`;
          record(micros, cell, ((await redisCpuSeconds(store.redis)) - before) * 1e6 / options.calls);
          for (const command of COMMANDS) {
            const delta = (field: 'calls' | 'usec') => (statsAfter.get(command)?.[field] ?? 0) - (statsBefore.get(command)?.[field] ?? 0);
            record(inCommands, `${cell}\t${command}`, delta('usec') / options.calls);
            record(eachCommand, `${cell}\t${command}`, delta('calls') === 0 ? 0 : delta('usec') / delta('calls'));
          }
        }
      }
    });
  }
  const of = (members: number, name: string) => median(micros.get(`${members}\t${name}`)!);
  const smallest = sizes[0];
  return [
    NO_TARGET,
    '',
    `entries(${PLAYERS_PER_CALL} ids) through the store, ${formatCount(options.calls)} calls per cell, one in flight, median of ${options.rounds} rounds.`,
    '',
    `| members | read | Redis CPU µs per call (median) | rounds | without / with | ${formatCount(smallest)} / this size |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...sizes.flatMap((members) => VARIANTS.map(([name]) => {
      const rounds = micros.get(`${members}\t${name}`)!.map((µs) => µs.toFixed(0)).join(', ');
      const saving = name === VARIANTS[1][0] ? (of(members, name) / of(members, VARIANTS[0][0])).toFixed(2) : '';
      return `| ${formatCount(members)} | ${name} | ${of(members, name).toFixed(0)} | ${rounds} | ${saving} | ${(of(smallest, name) / of(members, name)).toFixed(2)} |`;
    })),
    '',
    'Where a call\'s time goes in Redis (INFO commandstats, µs per entries call, median of rounds): the call (EVALSHA), each command the',
    'script runs (per call; the µs of one command in brackets: ZMSCORE is one command for the whole call), and the script\'s own work (the call less its commands).',
    '',
    `| members | read | call | ${COMMANDS.slice(1).map((command) => command.toUpperCase()).join(' | ')} | script's own work |`,
    `| --- | --- | --- | ${COMMANDS.slice(1).map(() => '---').join(' | ')} | --- |`,
    ...sizes.flatMap((members) => VARIANTS.map(([name]) => {
      const usec = (from: Map<string, number[]>, command: string) => median(from.get(`${members}\t${name}\t${command}`)!);
      const call = usec(inCommands, COMMANDS[0]);
      const inner = COMMANDS.slice(1).map((command) => usec(inCommands, command));
      const cells = COMMANDS.slice(1).map((command, i) => (inner[i] === 0 ? '' : `${inner[i].toFixed(0)} (${usec(eachCommand, command).toFixed(2)})`));
      return `| ${formatCount(members)} | ${name} | ${call.toFixed(0)} | ${cells.join(' | ')} | ${(call - inner.reduce((a, b) => a + b, 0)).toFixed(0)} |`;
    })),
  ].join('\n');
}

runBench('entries-read', 'bench:entries', main);
