/**
 * Contender: Standings with fair ties switched off. The real server and domain layer, but a
 * store whose submit is what a leaderboard without fair ties does: one script on a bare sorted
 * set of player ids (same size as the fair board) that reads the previous score and rank, does a
 * bare ZADD, reads the new rank, shared rank and size, bumps the board's version and publishes
 * the change on the board's channel as the fair write does. Equal scores then rank by player id.
 *
 * It is shaped like the fair write on purpose, so that the difference is the fair-tie
 * bookkeeping alone: one script call per write (a pipeline of three commands costs the API
 * process, which is the bottleneck, about half as much again as one call: bench/notes/service-throughput.md), and
 * the same published event (the read cache and live updates of the server hear every write, as
 * they do for the fair one). Only submitScore is benchmarked against it; reads use the fair board.
 */
import { redisWrite } from '../../src/store/redisCall';
import { boardKeys } from '../../src/store/keys';
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { percentile } from '../../src/store/replies';
import type { Submission, SubmitResult } from '../../src/model';
import { bareRankingKey } from '../fixtures';
import { hostPeer } from './host';
import { startStandings } from './standingsServer';

/*
  KEYS[1] the bare sorted set, KEYS[2] the board's config hash (its version)
  ARGV[1] player id, ARGV[2] score, ARGV[3] the board's channel
  Reply {rank0, sharedRank, total, previous score or false, previous rank0 or -1, micros}
*/
const BARE_SUBMIT = `
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
local oldRank = old and redis.call('ZREVRANK', KEYS[1], ARGV[1]) or -1
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local rank = redis.call('ZREVRANK', KEYS[1], ARGV[1])
local shared = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[2], '+inf') + 1
local total = redis.call('ZCARD', KEYS[1])
local t = redis.call('TIME')
local micros = t[1] .. string.format('%06d', t[2])
local version = redis.call('HINCRBY', KEYS[2], 'version', 1)
redis.call('SPUBLISH', ARGV[3], 'v ' .. version .. '\\ns ' .. table.concat({ARGV[1], ARGV[2], rank, shared, old or '-', oldRank, micros, total}, ' '))
return {rank, shared, total, old or false, oldRank, micros}`;

type BareReply = [number, number, number, string | null, number, string];

class UnfairStore extends LeaderboardStore {
  override async submit(boardId: string, submissions: Submission[]): Promise<{ results: SubmitResult[] }> {
    const keys = boardKeys(boardId);
    const redis = this.redis as unknown as { bareSubmit(...args: (string | number)[]): Promise<BareReply> };
    return { results: await Promise.all(submissions.map(async ({ playerId, score }) => {
      const [rank0, sharedRank, total, previous, previousRank0, micros] =
        await redisWrite(this.redis, () => redis.bareSubmit(bareRankingKey(boardId), keys.config, playerId, score, keys.events));
      const rank = rank0 + 1;
      return {
        entry: { playerId, score, rank, sharedRank, reachedAtMicros: Number(micros), percentile: percentile(rank, total), total, cursor: '' },
        previousScore: previous === null ? null : Number(previous),
        previousRank: previousRank0 < 0 ? null : previousRank0 + 1,
        changed: previous === null || Number(previous) !== score,
        replayed: false,
      };
    })) };
  }
}

hostPeer((redis) => {
  redis.defineCommand('bareSubmit', { numberOfKeys: 2, lua: BARE_SUBMIT });
  return startStandings(redis, new UnfairStore(redis));
});
