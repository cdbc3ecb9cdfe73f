import { randomBytes } from 'node:crypto';
import { unavailable, WriteOutcome } from '../errors';
import type { ChainableCommander } from 'ioredis';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PeriodRef, ViewSpec } from '../model';
import { readBuckets } from './commands/read_buckets';
import type { StaleLayout } from './commands/scriptErrors';
import { Combiner, type CombinedEntry } from './combiner';
import { boardKeys, slotKeys, viewKeys } from './keys';
import { playerIdOf } from './memberCodec';
import { redisRead, redisWrite } from './redisCall';
import type { ScriptRunner } from './scriptRunner';

/**
 * Entries per ZADD or HSET when a view is written: Redis serves other clients between two, and
 * the server other requests while it encodes the next (a millisecond or two each).
 */
export const ENTRIES_PER_WRITE = 2_000;
/** Entries a call of read_buckets.lua reads, about: a millisecond or two of Redis, and of the server to parse the reply. */
const ENTRIES_PER_READ = 2_000;
/** Bucket keys per source in one read_buckets.lua call, however sparse the buckets. */
const MAX_BUCKETS_PER_READ = 512;

/** The replies of a MULTI or a pipeline, or the first error among them. */
export async function repliesOf(batch: ChainableCommander): Promise<unknown[]> {
  const results = (await batch.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0];
  return results.map(([, reply]) => reply);
}

/** The positions of the sources on each board, by board id. */
function indexesByBoard(sources: readonly PeriodRef[]): Map<string, number[]> {
  const byBoard = new Map<string, number[]>();
  sources.forEach(({ boardId }, i) => byBoard.set(boardId, [...(byBoard.get(boardId) ?? []), i]));
  return byBoard;
}

/** A board of a view was re-created with another bucket count while the view read it (see combineSources). */
class ReadAgain extends Error {}

/** Runs `op` with a board's bucket count, read again once when it answers STALE_LAYOUT (LeaderboardStore.withBuckets). */
export type WithBuckets = <T>(boardId: string, op: (buckets: number) => Promise<T | StaleLayout>) => Promise<T>;

/** Combined views built into their own keys from their sources' entries: the store's `buildView` and `sourceSizes`. */
export class ViewBuilds {
  constructor(
    private readonly scripts: ScriptRunner,
    private readonly withBuckets: WithBuckets,
  ) {}

  /**
   * Builds a combined view into its keys (viewKeys), replacing the one before as a whole; they
   * expire after `ttlMs`. The sources are read a few buckets a call (readSources), so that no
   * call holds Redis for long: each player is read once, as of the call that read it, with its
   * entries in every source on one board as of one moment. The entries are combined here
   * (combiner.ts), written into keys of this build alone, in chunks that leave Redis free for
   * other clients in between, then put in place by one MULTI, so a reader sees the view before
   * or after, never half-built. BAD_USER_INPUT, and nothing written, when an aggregate leaves
   * |score| <= 2^53 - 1. The number of entries of the view.
   */
  async buildView(view: ViewSpec, ttlMs: number): Promise<number> {
    const combined = await this.combineSources(view);
    const keys = viewKeys(view.id, view.boardId);
    const build = keys.build(randomBytes(6).toString('hex'));
    const size = combined.size;
    if (size > 0) await this.writeBuild(build, combined.slices(ENTRIES_PER_WRITE), ttlMs);
    await redisWrite(this.scripts.redis, () => {
      const swap = this.scripts.redis.multi();
      if (size > 0) swap.rename(build.ranking, keys.ranking).rename(build.bucket, keys.bucket);
      else swap.del(keys.ranking, keys.bucket);
      swap.hset(keys.config, 'sortOrder', view.sortOrder, 'buckets', '1').hincrby(keys.config, 'version', 1);
      for (const key of [keys.config, keys.ranking, keys.bucket]) swap.pexpire(key, ttlMs);
      return repliesOf(swap);
    }, keys.config);
    return size;
  }

  /** How many entries each source ranking holds now: what building a view of them reads. */
  async sourceSizes(sources: readonly PeriodRef[]): Promise<number[]> {
    const sizes: number[] = [];
    // One round trip per board: its rankings share its hash tag.
    await Promise.all([...indexesByBoard(sources)].map(([boardId, indexes]) => redisRead(this.scripts.redis, async () => {
      const keys = boardKeys(boardId);
      const read = this.scripts.redis.multi();
      for (const i of indexes) read.zcard(slotKeys(keys, sources[i]).ranking);
      (await repliesOf(read)).forEach((size, n) => (sizes[indexes[n]] = size as number));
    })));
    return sizes;
  }

  /**
   * The view's entries: every entry of each source, board by board, read by read_buckets.lua a
   * range of bucket indexes a call (about ENTRIES_PER_READ entries of all the board's sources
   * together, going by their sizes when the read begins; each call a few milliseconds of Redis)
   * and folded into the view's players as it comes (combiner.ts), then completed a slice of
   * players per turn of the event loop. A board re-created with another bucket count while it is
   * read leaves a part of it folded in already: the build starts again, once.
   */
  private async combineSources(view: ViewSpec): Promise<Combiner> {
    const { sources } = view;
    for (let attempt = 0; ; attempt++) {
      const combiner = new Combiner(sources.map((source) => source.weight), view.aggregate, view.sortOrder);
      try {
        await this.readSources(sources, combiner);
        const steps = combiner.complete(ENTRIES_PER_WRITE);
        while (!steps.next().done) await nextTurn();
        return combiner;
      } catch (err) {
        if (!(err instanceof ReadAgain)) throw err;
        if (attempt > 0) throw unavailable('the boards of the view changed twice while it was built; retry', WriteOutcome.NOT_APPLIED);
      }
    }
  }

  private async readSources(sources: readonly PeriodRef[], combiner: Combiner): Promise<void> {
    const sizes = await this.sourceSizes(sources);
    for (const [boardId, indexes] of indexesByBoard(sources)) {
      const slots = indexes.map((i) => sources[i]);
      const entries = indexes.reduce((total, i) => total + sizes[i], 0);
      let folded = false;
      await this.withBuckets(boardId, async (buckets) => {
        if (folded) throw new ReadAgain();
        const perCall = Math.max(1, Math.min(MAX_BUCKETS_PER_READ, Math.floor((ENTRIES_PER_READ * buckets) / Math.max(1, entries))));
        for (let from = 0; from < buckets; from += perCall) {
          const read = await readBuckets(this.scripts, boardId, slots, buckets, from, Math.min(buckets, from + perCall));
          // An unknown board (deleted meanwhile) has no entries.
          if (read === null) break;
          if (!Array.isArray(read)) return read;
          indexes.forEach((i, n) => combiner.add(i, read[n]));
          folded = true;
        }
        return undefined;
      });
    }
  }

  /**
   * A view's entries into a build's own keys, a slice (ENTRIES_PER_WRITE) a command. Each chunk is one MULTI
   * that also sets the keys' expiry, so a build cut short leaves nothing that stays. The next
   * chunk is made while Redis writes the one before, and sent once that one is done: the write in
   * flight is awaited before anything else is, so its failure ends the build with a handler
   * already on it. Writes collected and awaited at the end would each be without one while the
   * loop waited, and a chunk failing then (Redis not answering) was a rejection nobody handled.
   * The first chunk waits for a turn of the event loop as each later one waits for a write, so
   * one chunk is made per turn.
   */
  private async writeBuild(build: { ranking: string; bucket: string }, slices: Iterable<CombinedEntry[]>, ttlMs: number): Promise<void> {
    let before: Promise<unknown> = nextTurn();
    for (const slice of slices) {
      const ranking: (string | Buffer)[] = [];
      const bucket: (string | Buffer)[] = [];
      for (const { stored, member, tokenLength } of slice) {
        ranking.push(String(stored), member);
        bucket.push(playerIdOf(member, tokenLength), member.subarray(0, tokenLength));
      }
      await before;
      before = redisWrite(this.scripts.redis, () => repliesOf(this.scripts.redis.multi()
        .zadd(build.ranking, ...ranking).hset(build.bucket, ...bucket).pexpire(build.ranking, ttlMs).pexpire(build.bucket, ttlMs)), build.ranking);
    }
    await before;
  }
}
