import type { Cluster, Redis } from 'ioredis';
import { afterFirstWrite } from '../errors';
import { BOARD_INDEX_KEY, boardKeys } from './keys';
import { redisRead, redisWrite } from './redisCall';
import {
  aroundReply, createBoardReply, decodeCursor, deleteBoardReply, entriesReply, pageReply, removeReply, submitReply,
} from './replies';
import { runScript, type ScriptArg, type ScriptName } from './scripts';
import type {
  BoardConfig, CreateBoardInput, Entry, Page, PageOptions, RankWindow, Submission, SubmitResult,
} from './types';

const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * Bucket hashes stay compact (listpack) only below hash-max-listpack-entries, 128 by default.
 * At 96 players per bucket on average, a board at its capacity has almost no bucket past 128
 * (Poisson tail ~0.05%), and each bucket key's own overhead is shared by many players.
 */
const PLAYERS_PER_BUCKET = 96;
const UNLINK_CHUNK = 1000;

export function bucketCount(capacity: number): number {
  return Math.max(1, Math.ceil(capacity / PLAYERS_PER_BUCKET));
}

/** FNV-1a over the id's UTF-8 bytes: cheap, stable across processes and versions. */
function bucketOf(playerId: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(playerId, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % buckets;
}

/**
 * The Redis store: every read and write of a board is one Lua script call (one round trip).
 * Inputs are assumed validated by the domain layer; Redis-side checks (unknown board, score
 * overflow under INCREMENT, reachedAt in the future) come back as StandingsErrors, and a Redis
 * that cannot be reached as UNAVAILABLE.
 */
export class LeaderboardStore {
  /** Bucket counts by board: fixed for a board's life, and checked by every script that uses one. */
  private readonly buckets = new Map<string, number>();

  constructor(readonly redis: Redis | Cluster) {}

  async createBoard(input: CreateBoardInput): Promise<{ board: BoardConfig; created: boolean }> {
    const keys = boardKeys(input.id);
    const title = input.title ?? null;
    const created = createBoardReply(input.id, await this.write('create_board', [keys.config], [
      input.sortOrder, input.updatePolicy, title ?? '', title === null ? '' : '1',
      bucketCount(input.capacity ?? 1_000_000), keys.events,
    ]));
    // The index lives outside the board's slot, so it is written after the board itself.
    await redisWrite(this.redis, () => this.redis.zadd(BOARD_INDEX_KEY, 0, input.id)).catch(afterFirstWrite);
    this.buckets.set(input.id, created.board.buckets);
    return created;
  }

  async getBoard(id: string): Promise<BoardConfig | null> {
    const [sortOrder, updatePolicy, title, createdAt, buckets] = await redisRead(this.redis, () =>
      this.redis.hmget(boardKeys(id).config, 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets'),
    );
    if (!sortOrder) {
      this.buckets.delete(id);
      return null;
    }
    this.buckets.set(id, Number(buckets));
    return {
      id,
      title,
      sortOrder: sortOrder as BoardConfig['sortOrder'],
      updatePolicy: updatePolicy as BoardConfig['updatePolicy'],
      createdAt: Number(createdAt),
      buckets: Number(buckets),
    };
  }

  async listBoards(limit: number, afterId?: string): Promise<{ ids: string[]; hasMore: boolean }> {
    const ids = await redisRead(this.redis, () =>
      this.redis.zrangebylex(BOARD_INDEX_KEY, afterId === undefined ? '-' : `(${afterId}`, '+', 'LIMIT', 0, limit + 1),
    );
    return { ids: ids.slice(0, limit), hasMore: ids.length > limit };
  }

  async deleteBoard(id: string): Promise<boolean> {
    const keys = boardKeys(id);
    await redisWrite(this.redis, () => this.redis.zrem(BOARD_INDEX_KEY, id));
    try {
      const buckets = deleteBoardReply(await this.write('delete_board', [keys.config, keys.ranking], [keys.events]));
      this.buckets.delete(id);
      if (buckets === undefined) return false;
      for (let from = 0; from < buckets; from += UNLINK_CHUNK) {
        const chunk: string[] = [];
        for (let i = from; i < Math.min(buckets, from + UNLINK_CHUNK); i++) chunk.push(keys.bucket(i));
        await redisWrite(this.redis, () => this.redis.unlink(...chunk));
      }
      await this.unlinkMatching(keys.idempotencyPattern);
      return true;
    } catch (err) {
      return afterFirstWrite(err);
    }
  }

  async size(boardId: string): Promise<number> {
    return redisRead(this.redis, () => this.redis.zcard(boardKeys(boardId).ranking));
  }

  async submit(boardId: string, submissions: Submission[]): Promise<SubmitResult[]> {
    const keys = boardKeys(boardId);
    return submitReply(await this.withBuckets(boardId, (buckets) => {
      const bucketKeys: string[] = [];
      const idempotencyKeys: string[] = [];
      const args: ScriptArg[] = [buckets, submissions.length, IDEMPOTENCY_TTL_SECONDS, keys.events];
      for (const s of submissions) {
        bucketKeys.push(keys.bucket(bucketOf(s.playerId, buckets)));
        if (s.idempotencyKey !== undefined) idempotencyKeys.push(keys.idempotency(s.idempotencyKey));
        args.push(
          s.playerId, formatScore(s.score),
          s.reachedAtMicros === undefined ? '' : String(s.reachedAtMicros), s.idempotencyKey === undefined ? '' : '1',
        );
      }
      return this.write('submit', [keys.config, keys.ranking, ...bucketKeys, ...idempotencyKeys], args);
    }));
  }

  async remove(boardId: string, playerId: string): Promise<boolean> {
    const keys = boardKeys(boardId);
    return removeReply(await this.withBuckets(boardId, (buckets) =>
      this.write('remove', [keys.config, keys.ranking, keys.bucket(bucketOf(playerId, buckets))], [
        buckets, playerId, keys.events,
      ]),
    ));
  }

  async entries(boardId: string, playerIds: string[]): Promise<(Entry | null)[]> {
    return (await this.entriesAt(boardId, playerIds)).entries;
  }

  /** As `entries`, with the board's change counter at the read: live updates apply the events after it. */
  async entriesAt(boardId: string, playerIds: string[]): Promise<{ entries: (Entry | null)[]; version: number }> {
    const keys = boardKeys(boardId);
    return entriesReply(await this.withBuckets(boardId, (buckets) => {
      const bucketKeys = playerIds.map((id) => keys.bucket(bucketOf(id, buckets)));
      return this.read('entries', [keys.config, keys.ranking, ...bucketKeys], [buckets, ...playerIds]);
    }), playerIds.length);
  }

  async page(boardId: string, options: PageOptions): Promise<Page> {
    const cursor = options.after === undefined ? undefined : decodeCursor(options.after);
    const { entries, total, hasMore, version } = await this.readPage(boardId, [
      options.limit, options.fromBottom ? '1' : '', options.offset ?? 0,
      cursor?.stored ?? '', cursor?.member ?? '', '',
    ]);
    if (options.fromBottom) entries.reverse();
    return { entries, total, hasMore, version };
  }

  async topPercent(boardId: string, percent: number, limit: number) {
    const { entries, total, count } = await this.readPage(boardId, [limit, '', 0, '', '', String(percent)]);
    return { entries, total, count };
  }

  async around(boardId: string, playerId: string, radius: number): Promise<RankWindow | null> {
    return (await this.aroundAt(boardId, playerId, radius)).window;
  }

  /** As `around` (window null when the player has no entry), with the board's change counter and size at the read. */
  async aroundAt(boardId: string, playerId: string, radius: number): Promise<{ window: RankWindow | null; total: number; version: number }> {
    const keys = boardKeys(boardId);
    const { entries, total, center, version } = aroundReply(await this.withBuckets(boardId, (buckets) =>
      this.read('around', [keys.config, keys.ranking, keys.bucket(bucketOf(playerId, buckets))], [
        radius, 'player', playerId, buckets,
      ]),
    ));
    const window = center === null ? null : { center: entries[center - (entries[0].rank - 1)], entries, total };
    return { window, total, version };
  }

  async aroundScore(boardId: string, score: number, radius: number): Promise<RankWindow> {
    const keys = boardKeys(boardId);
    const { entries, total } = aroundReply(
      await this.read('around', [keys.config, keys.ranking], [radius, 'score', formatScore(score)]),
    );
    return { center: null, entries, total };
  }

  private async readPage(boardId: string, args: ScriptArg[]) {
    const keys = boardKeys(boardId);
    return pageReply(await this.read('page', [keys.config, keys.ranking], args));
  }

  /** Runs `op` with the board's bucket count, refreshing it once if the board was re-created. */
  private async withBuckets<T>(boardId: string, op: (buckets: number) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let buckets = this.buckets.get(boardId);
      if (buckets === undefined) {
        const board = await this.getBoard(boardId);
        // Unknown board: any count will do, the script reports it (NOT_FOUND or empty).
        buckets = board?.buckets ?? 1;
      }
      try {
        return await op(buckets);
      } catch (err) {
        if (attempt > 0 || !(err instanceof Error) || !err.message.startsWith('STALE_BUCKETS')) throw err;
        this.buckets.delete(boardId);
      }
    }
  }

  private async unlinkMatching(pattern: string): Promise<void> {
    const nodes = this.redis.isCluster ? (this.redis as Cluster).nodes('master') : [this.redis as Redis];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, found] = await redisRead(node, () => node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
        if (found.length) await redisWrite(node, () => node.unlink(...found));
        cursor = next;
      } while (cursor !== '0');
    }
  }

  private read(name: ScriptName, keys: string[], args: ScriptArg[]): Promise<unknown> {
    return redisRead(this.redis, () => runScript(this.redis, name, keys, args));
  }

  private write(name: ScriptName, keys: string[], args: ScriptArg[]): Promise<unknown> {
    return redisWrite(this.redis, () => runScript(this.redis, name, keys, args));
  }
}

/** JavaScript's shortest round-trip text: Lua's tonumber (strtod) reads back the same double. */
function formatScore(score: number): string {
  return String(score);
}
