// Every script that changes a board publishes on the board's channel, and only then: the read
// cache forgets a board and live updates refresh it on that message alone. Each script in
// SCRIPTS (src/store/commands/index.ts) is run here in the ways it can end, through the store; a new
// script does not compile here until it has its cases.
import type { Redis } from 'ioredis';
import { addSeasons, DEFAULT_PERIOD_CONFIG, serializePeriodConfig } from '../../../src/domain/periods/settings';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { boardKeys } from '../../../src/store/keys';
import { RateLimitStore } from '../../../src/store/rateLimitStore';
import { SCRIPTS, type ScriptName } from '../../../src/store/commands';
import * as scripts from '../../../src/store/scriptLoader';
import { newTestClient, uniqueId } from '../../support/redis';
import { useTestStore } from '../../support/store';

const t = useTestStore();
let subscriber: Redis;
beforeAll(() => (subscriber = newTestClient()));
afterAll(() => subscriber.quit());

const { runScript } = scripts;
/** Whether each case of a script changed its board. */
const outcomes = new Map<ScriptName, boolean[]>((Object.keys(SCRIPTS) as ScriptName[]).map((name) => [name, []]));

/** One call that runs the script, on a board that `setup` has prepared. */
interface Case {
  name: string;
  setup?: (board: string) => Promise<unknown>;
  run: (board: string) => Promise<unknown>;
}

const board = (id: string, policy: 'BEST' | 'LATEST' | 'INCREMENT' = 'BEST') =>
  t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: policy, capacity: 500 });
const periodBoard = (id: string) => new Leaderboards(t.store).createBoard({
  id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }, { kind: 'WEEKLY' }] },
});
const withPlayers = async (id: string) => {
  await board(id);
  await t.store.submit(id, [{ playerId: 'a', score: 5 }, { playerId: '42', score: 3 }, { playerId: 'c', score: 3 }]);
};

/** A season far ahead of Redis' clock, and the periods of an ALL_TIME board with it added. */
const FUTURE = Date.UTC(2100, 0, 1) * 1000;
const withSeason = serializePeriodConfig(addSeasons(DEFAULT_PERIOD_CONFIG, { seasons: [{ id: 's1', start: FUTURE, end: FUTURE + 1e9 }] }).config);

const CASES: Record<ScriptName, Case[]> = {
  create_board: [
    { name: 'a new board', run: (id) => board(id) },
    { name: 'a board deleted before', setup: async (id) => { await withPlayers(id); await t.store.deleteBoard(id); }, run: (id) => board(id) },
    { name: 'the same board again', setup: board, run: (id) => board(id) },
    { name: 'a conflicting board', setup: board, run: (id) => board(id, 'LATEST') },
    { name: 'a board without dense ranks', run: (id) => t.store.createBoard({ id, sortOrder: 'ASCENDING', updatePolicy: 'BEST', denseRanks: false }) },
    { name: 'a board with dense ranks again without them', setup: board, run: (id) => t.store.createBoard({ id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', capacity: 500, denseRanks: false }) },
  ],
  delete_board: [
    { name: 'a board with players', setup: withPlayers, run: (id) => t.store.deleteBoard(id) },
    { name: 'no board', run: (id) => t.store.deleteBoard(id) },
  ],
  submit: [
    { name: 'a new player', setup: board, run: (id) => t.store.submit(id, [{ playerId: 'a', score: 1 }]) },
    { name: 'a better score', setup: withPlayers, run: (id) => t.store.submit(id, [{ playerId: '42', score: 9 }]) },
    { name: 'a worse score', setup: withPlayers, run: (id) => t.store.submit(id, [{ playerId: 'a', score: 1 }]) },
    { name: 'an imported score', setup: withPlayers, run: (id) => t.store.submit(id, [{ playerId: 'd', score: 3, reachedAtMicros: 1 }]) },
    { name: 'an increment', setup: (id) => board(id, 'INCREMENT'), run: (id) => t.store.submit(id, [{ playerId: 'a', score: 2 }, { playerId: 'a', score: 2 }]) },
    { name: 'an idempotent score', setup: board, run: (id) => t.store.submit(id, [{ playerId: 'a', score: 1, idempotencyKey: 'k' }]) },
    { name: 'a replayed one', setup: (id) => board(id).then(() => t.store.submit(id, [{ playerId: 'a', score: 1, idempotencyKey: 'k' }])),
      run: (id) => t.store.submit(id, [{ playerId: 'a', score: 7, idempotencyKey: 'k' }]) },
    { name: 'an unchanged score with a new key', setup: withPlayers, run: (id) => t.store.submit(id, [{ playerId: 'a', score: 5, idempotencyKey: 'k2' }]) },
    { name: 'a refused batch', setup: withPlayers, run: (id) => t.store.submit(id, [{ playerId: 'a', score: 9 }, { playerId: 'b', score: 1, reachedAtMicros: Date.now() * 2000 }]) },
    { name: 'no board', run: (id) => t.store.submit(id, [{ playerId: 'a', score: 1 }]) },
    // Periods: one followed live (its lines ranked), one not (lines without ranks); both publish.
    { name: 'a board with periods, DAILY followed', setup: (id) => periodBoard(id).then(() => t.store.markWatched(id, ['DAILY'], Date.now() + 60_000, 60_000)),
      run: (id) => new Leaderboards(t.store).submit([{ boardId: id, playerId: 'a', score: 1 }]) },
    { name: 'the same score on a board with periods', setup: (id) => periodBoard(id).then(() => new Leaderboards(t.store).submit([{ boardId: id, playerId: 'a', score: 1 }])),
      run: (id) => new Leaderboards(t.store).submit([{ boardId: id, playerId: 'a', score: 1 }]) },
  ],
  remove_many: [
    { name: 'one player on the board', setup: withPlayers, run: (id) => t.store.remove(id, '42') },
    { name: 'one player not on it', setup: withPlayers, run: (id) => t.store.remove(id, 'z') },
    { name: 'one player left in a bucket by a deleted board', setup: async (id) => {
      await withPlayers(id);
      await scripts.runScript(t.redis, 'delete_board', [boardKeys(id).config, boardKeys(id).ranking, boardKeys(id).distinct], [boardKeys(id).events]);
      await board(id);
    }, run: (id) => t.store.remove(id, 'a') },
    { name: 'a score range', setup: withPlayers, run: (id) => t.store.removeByScore(id, { min: { value: 3 }, max: { value: 4 } }, 10) },
    { name: 'an empty score range', setup: withPlayers, run: (id) => t.store.removeByScore(id, { min: { value: 3, exclusive: true }, max: { value: 4 } }, 10) },
    { name: 'a range past the maximum', setup: withPlayers, run: (id) => t.store.removeByScore(id, {}, 2) },
    { name: 'all but the top', setup: withPlayers, run: (id) => t.store.keepTop(id, 1, 10) },
    { name: 'all but more than there are', setup: withPlayers, run: (id) => t.store.keepTop(id, 5, 10) },
    { name: 'players', setup: withPlayers, run: (id) => t.store.removePlayers(id, ['42', 'z', 'a'], 10) },
    { name: 'players not on the board', setup: withPlayers, run: (id) => t.store.removePlayers(id, ['z'], 10) },
    { name: 'no board', run: (id) => t.store.keepTop(id, 0, 10) },
    { name: 'a player in every period of a board with periods',
      setup: (id) => periodBoard(id).then(() => new Leaderboards(t.store).submit([{ boardId: id, playerId: 'a', score: 1 }])),
      run: (id) => new Leaderboards(t.store).remove(id, 'a') },
  ],
  update_board: [
    { name: 'a new title', setup: withPlayers, run: (id) => t.store.updateBoard({ id, title: 'New' }) },
    { name: 'a new policy', setup: withPlayers, run: (id) => t.store.updateBoard({ id, updatePolicy: 'LATEST' }) },
    { name: 'the same settings', setup: withPlayers, run: (id) => t.store.updateBoard({ id, updatePolicy: 'BEST', sortOrder: 'DESCENDING', capacity: 500 }) },
    { name: 'another sort order', setup: withPlayers, run: (id) => t.store.updateBoard({ id, title: 'New', sortOrder: 'ASCENDING' }) },
    { name: 'no dense ranks', setup: withPlayers, run: (id) => t.store.updateBoard({ id, title: 'New', denseRanks: false }) },
    { name: 'no board', run: (id) => t.store.updateBoard({ id, title: 'New' }) },
  ],
  add_seasons: [
    { name: 'seasons added', setup: withPlayers, run: (id) => t.store.addSeasons(id, '', withSeason, FUTURE) },
    { name: 'periods read before another change', setup: withPlayers, run: (id) => t.store.addSeasons(id, withSeason, withSeason, FUTURE) },
    { name: 'a season starting before Redis\' now', setup: withPlayers, run: (id) => t.store.addSeasons(id, '', withSeason, 1) },
    { name: 'no board', run: (id) => t.store.addSeasons(id, '', withSeason, FUTURE) },
  ],
  score_at: [
    { name: 'a rank', setup: withPlayers, run: (id) => t.store.scoreAtRank(id, 2) },
    { name: 'a percentile', setup: withPlayers, run: (id) => t.store.scoreAtPercentile(id, 50) },
  ],
  read_buckets: [{ name: 'a combined view of a board', setup: withPlayers, run: (id) => t.store.buildView(
    { id: uniqueId('view'), boardId: id, aggregate: 'MAX', sortOrder: 'DESCENDING', sources: [{ boardId: id, kind: 'ALL_TIME', key: 'all', weight: 1 }] }, 1000,
  ) }],
  dense_rank: [{ name: 'scores', setup: withPlayers, run: (id) => t.store.denseRanks(id, [5, 3, 4]) }],
  entries: [{ name: 'players', setup: withPlayers, run: (id) => t.store.entries(id, ['a', 'z', '42']) }],
  page: [
    { name: 'the top', setup: withPlayers, run: (id) => t.store.page(id, { limit: 2 }) },
    { name: 'a top percent', setup: withPlayers, run: (id) => t.store.topPercent(id, 50, 10) },
    { name: 'a score range', setup: withPlayers, run: (id) => t.store.rangePage(id, { min: { value: 3 } }, { limit: 2 }) },
    { name: 'a count by score', setup: withPlayers, run: (id) => t.store.countByScore(id, { max: { value: 3, exclusive: true } }) },
  ],
  around: [
    { name: 'a player', setup: withPlayers, run: (id) => t.store.around(id, 'c', 1) },
    { name: 'a score', setup: withPlayers, run: (id) => t.store.aroundScore(id, 4, 1) },
  ],
  rate_limit: [{ name: 'a request', run: () => new RateLimitStore(t.redis).hit('key', uniqueId('publishing'), 1000) }],
};

/** Everything stored under the board's keys but its idempotency records (answers kept, not board state) and combined views (snapshots of it). */
async function contents(id: string): Promise<Record<string, unknown>> {
  const keys = boardKeys(id);
  const views = `st:{${id}}:v:`;
  const found = (await t.redis.keys(`st:{${id}}:*`)).filter((key) => !key.startsWith(keys.idempotency('')) && !key.startsWith(views)).sort();
  const state: Record<string, unknown> = {};
  for (const key of found) {
    const type = await t.redis.type(key);
    const hex = (reply: unknown) => (reply as Buffer[]).map((bytes) => bytes.toString('hex'));
    if (type === 'hash') {
      const pairs = hex(await t.redis.callBuffer('HGETALL', key));
      state[key] = pairs.flatMap((field, i) => (i % 2 === 0 ? [`${field}=${pairs[i + 1]}`] : [])).sort();
    } else if (type === 'zset') {
      state[key] = hex(await t.redis.callBuffer('ZRANGE', key, 0, -1, 'WITHSCORES'));
    } else {
      state[key] = hex([await t.redis.callBuffer('GET', key)]);
    }
  }
  return state;
}

/** What the script published on the board's channel while `run` ran. */
async function published(id: string, run: () => Promise<unknown>): Promise<string[]> {
  const channel = boardKeys(id).events;
  const messages: string[] = [];
  const hear = (from: string, message: string) => from === channel && messages.push(message);
  subscriber.on('smessage', hear);
  await subscriber.ssubscribe(channel);
  try {
    await run().catch(() => undefined);
    // Redis queued any message on the subscriber connection before the script answered, so it
    // has arrived once an answer on that connection does.
    await subscriber.ssubscribe(channel);
    return messages;
  } finally {
    subscriber.off('smessage', hear);
    await subscriber.sunsubscribe(channel);
  }
}

describe.each(Object.keys(SCRIPTS) as ScriptName[])('%s', (name) => {
  const cases = CASES[name];
  const changesBoard = SCRIPTS[name].changesBoard;

  it.each(cases.map((c) => [c.name, c] as const))(
    changesBoard ? 'publishes on %s exactly when it changes the board' : 'leaves the board as it was on %s, and publishes nothing',
    async (_, { setup, run }) => {
      const id = uniqueId(`publishing-${name}`);
      await setup?.(id);
      const ran: ScriptName[] = [];
      const spy = jest.spyOn(scripts, 'runScript').mockImplementation((...args) => {
        ran.push(args[1] as ScriptName);
        return runScript(...args);
      });
      const before = await contents(id);
      const messages = await published(id, () => run(id));
      spy.mockRestore();
      const after = await contents(id);
      const changed = JSON.stringify(after) !== JSON.stringify(before);
      outcomes.get(name)!.push(changed);
      expect(ran).toContain(name);
      if (!changesBoard) expect(changed).toBe(false);
      expect({ changed, published: messages.length > 0 }).toEqual({ changed, published: changed });
    },
  );

  if (changesBoard) {
    it('changes a board in one of these cases at least (so the cases above test something)', () => {
      expect(outcomes.get(name)).toContain(true);
    });
  }
});
