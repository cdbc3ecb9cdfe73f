/**
 * Contender: Standings with fair ties switched off. The real server and domain layer, but a
 * store whose submit is what a leaderboard without fair ties does: a bare ZADD of the player id
 * and a ZREVRANK (plus ZCARD for the percentile), pipelined in one round trip. Equal scores then
 * rank by player id, and the moment comes from this process' clock. Only submitScore is
 * benchmarked against it; every read still goes to the fair board.
 */
import { LeaderboardStore } from '../../src/store/leaderboardStore';
import { redisWrite } from '../../src/store/redisCall';
import { percentile } from '../../src/store/replies';
import type { Submission, SubmitResult } from '../../src/store/types';
import { bareRankingKey } from '../fixtures';
import { hostPeer } from './host';
import { startStandings } from './standingsServer';

class UnfairStore extends LeaderboardStore {
  override async submit(boardId: string, submissions: Submission[]): Promise<SubmitResult[]> {
    const key = bareRankingKey(boardId);
    const pipeline = this.redis.pipeline();
    for (const { playerId, score } of submissions) pipeline.zadd(key, 'CH', score, playerId).zrevrank(key, playerId);
    pipeline.zcard(key);
    const replies = (await redisWrite(this.redis, () => pipeline.exec()))!.map(([err, value]) => {
      if (err) throw err;
      return value as number;
    });
    const total = replies[replies.length - 1];
    return submissions.map(({ playerId, score }, i) => {
      const rank = replies[2 * i + 1] + 1;
      return {
        // A bare sorted set knows no shared rank without another command; rank stands in.
        entry: { playerId, score, rank, sharedRank: rank, reachedAtMicros: Date.now() * 1000, percentile: percentile(rank, total), total, cursor: '' },
        previousScore: null,
        previousRank: null,
        changed: replies[2 * i] === 1,
        replayed: false,
      };
    });
  }
}

hostPeer((redis) => startStandings(redis, new UnfairStore(redis)));
