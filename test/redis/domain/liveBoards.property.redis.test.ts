import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type Redis from 'ioredis';
import { Leaderboards } from '../../../src/domain/leaderboards';
import { LiveBoards } from '../../../src/domain/live/liveBoards';
import type { LiveStream } from '../../../src/domain/live/liveStream';
import type { LiveEntry } from '../../../src/domain/live/moves';
import { EventBridge } from '../../../src/store/eventBridge';
import { LeaderboardStore } from '../../../src/store/leaderboardStore';
import { newTestClient, uniqueId } from '../../support/redis';
import { ReferenceBoard } from '../../support/referenceModel';

/**
 * Random writes (scores that tie, backdated moments, removals, new players) under a random set of
 * watches on a board keeping ALL_TIME and DAILY, each watch on one of them: after every write,
 * what each subscription shows equals a fresh read of Redis (of its period), although the watches
 * of single players never read Redis again after their snapshot (they follow the events' moves
 * alone, the DAILY ones from the period's lines, ranked since the feed marked DAILY as followed)
 * and windows read only when their moves used up the ranks they know. What the DAILY players and
 * top lists show also equals the reference model of the day (test/support/referenceModel.ts).
 */
let redis: Redis;
let subscriber: Redis;
let leaderboards: Leaderboards;
let live: LiveBoards;
beforeAll(() => {
  redis = newTestClient();
  subscriber = newTestClient({ autoResubscribe: false, enableOfflineQueue: false });
  leaderboards = new Leaderboards(new LeaderboardStore(redis));
  live = new LiveBoards(leaderboards, new EventBridge(subscriber, { info: () => undefined, warn: () => undefined }), 0);
});
afterAll(() => Promise.all([redis.quit(), subscriber.quit()]));

const PLAYERS = Array.from({ length: 16 }, (_, i) => `p${i}`);
const player = fc.constantFrom(...PLAYERS);
/** null: the board's default period (ALL_TIME); DAILY: the current day, followed as it rolls (no boundary is crossed here). */
const period = fc.constantFrom(null, 'DAILY' as const);
const watch = fc.oneof(
  fc.record({ kind: fc.constant('rank' as const), player, period }),
  fc.record({ kind: fc.constant('top' as const), first: fc.integer({ min: 1, max: 12 }), period }),
  fc.record({ kind: fc.constant('around' as const), player, radius: fc.integer({ min: 0, max: 3 }), period }),
);
// Few scores, so ties are everywhere; a backdated moment puts a player before others of its score.
const write = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('submit' as const), player, score: fc.integer({ min: 0, max: 5 }), backdated: fc.option(fc.nat(1000), { freq: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), player }) },
);
type Watch = typeof watch extends fc.Arbitrary<infer W> ? W : never;

const shown = (entry: LiveEntry | null | undefined) => entry && [entry.playerId, entry.rank, entry.sharedRank, entry.score];

/** What a subscription of `spec` shows, from its latest payload. */
function view(spec: Watch, payload: any): unknown {
  if (payload === undefined) return undefined;
  if (spec.kind === 'rank') return shown(payload.entry);
  return (payload.entries as LiveEntry[]).map(shown);
}

/** What a fresh read of the watch's period says the subscription should show. */
async function fresh(boardId: string, spec: Watch): Promise<unknown> {
  const board = spec.period === null ? boardId : { boardId, kind: 'DAILY', key: leaderboards.period((await leaderboards.getBoard(boardId))!, { kind: 'DAILY' }).key };
  if (spec.kind === 'rank') return shown((await leaderboards.entries(board, [spec.player]))[0]);
  if (spec.kind === 'top') return (await leaderboards.page(board, { limit: spec.first })).entries.map(shown);
  return ((await leaderboards.around(board, spec.player, spec.radius))?.entries ?? []).map(shown);
}

function subscribe(board: string, spec: Watch): Promise<LiveStream<unknown>> {
  const period = spec.period && { kind: spec.period };
  if (spec.kind === 'rank') return live.rankChanged(board, spec.player, null, period) as Promise<LiveStream<unknown>>;
  if (spec.kind === 'top') return live.topChanged(board, spec.first, period) as Promise<LiveStream<unknown>>;
  return live.aroundChanged(board, spec.player, spec.radius, null, period) as Promise<LiveStream<unknown>>;
}

/** Resolves once `check()` holds, trying again whenever a payload arrives; fails with the last difference after a while. */
function until(check: () => { actual: unknown; expected: unknown }, arrived: Set<() => void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const { actual, expected } = check();
      if (!isDeepStrictEqual(actual, expected)) return false;
      arrived.delete(attempt);
      clearTimeout(timer);
      resolve();
      return true;
    };
    const timer = setTimeout(() => {
      arrived.delete(attempt);
      const { actual, expected } = check();
      reject(new Error(`subscriptions never showed a fresh read:\n${JSON.stringify(actual)}\n${JSON.stringify(expected)}`));
    }, 3_000);
    arrived.add(attempt);
    attempt();
  });
}

it('keeps every watch equal to a fresh read after every write, from the events alone', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(player, fc.integer({ min: 0, max: 5 })), { maxLength: 12 }),
      fc.array(watch, { minLength: 1, maxLength: 8 }),
      fc.array(write, { minLength: 1, maxLength: 25 }),
      async (initial, specs, writes) => {
        const board = uniqueId('live-property');
        await leaderboards.createBoard({ id: board, sortOrder: 'DESCENDING', updatePolicy: 'LATEST', periods: { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] } });
        const config = (await leaderboards.getBoard(board))!;
        const today = leaderboards.period(config, { kind: 'DAILY' });
        const day = new ReferenceBoard('DESCENDING', 'LATEST');
        /** Submits, and applies to the model of the day what lands in it (a removal reaches every period). */
        const submit = async (items: { playerId: string; score: number; reachedAtMicros?: number }[]) => {
          const results = await leaderboards.submit(items.map((item) => ({ boardId: board, ...item })));
          items.forEach(({ playerId, score, reachedAtMicros }, i) => {
            const moment = reachedAtMicros ?? results[i].entry.reachedAtMicros;
            if (moment >= today.start && moment < today.end!) day.submit(playerId, score, moment, reachedAtMicros !== undefined);
          });
        };
        if (initial.length) await submit(initial.map(([playerId, score]) => ({ playerId, score })));
        const streams = await Promise.all(specs.map((spec) => subscribe(board, spec)));
        const latest: unknown[] = specs.map(() => undefined);
        const arrived = new Set<() => void>();
        const reading = streams.map(async (stream, i) => {
          for await (const payload of stream) {
            latest[i] = payload;
            arrived.forEach((check) => check());
          }
        });
        const settled = async () => {
          const expected = await Promise.all(specs.map((spec) => fresh(board, spec)));
          await until(() => ({ actual: specs.map((spec, i) => view(spec, latest[i])), expected }), arrived);
          const ranked = day.ranking().map((entry) => [entry.playerId, entry.rank, entry.sharedRank, entry.score]);
          specs.forEach((spec, i) => {
            if (spec.period !== 'DAILY' || spec.kind === 'around') return;
            const modelled = spec.kind === 'top' ? ranked.slice(0, spec.first) : ranked.find(([id]) => id === spec.player) ?? null;
            expect(view(spec, latest[i])).toEqual(modelled);
          });
        };
        const playerReads = jest.spyOn(leaderboards.store, 'entriesAt');
        try {
          await settled(); // the snapshots
          playerReads.mockClear();
          const past = Date.now() * 1000 - 3_600_000_000;
          for (const step of writes) {
            if (step.kind === 'remove') {
              await leaderboards.remove(board, step.player);
              day.remove(step.player);
            } else {
              const reachedAtMicros = step.backdated === null ? undefined : past + step.backdated;
              await submit([{ playerId: step.player, score: step.score, reachedAtMicros }]);
            }
            await settled();
          }
          // The live layer looked up no player (its reads are `entriesAt`; this test's are `entries`).
          expect(playerReads).not.toHaveBeenCalled();
        } finally {
          playerReads.mockRestore();
          await Promise.all(streams.map((stream) => stream.return()));
          await Promise.all(reading);
          await leaderboards.deleteBoard(board);
        }
      },
    ),
    { numRuns: 25 },
  );
}, 120_000);
