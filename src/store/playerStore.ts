import type { Redis, Cluster } from 'ioredis';
import { PLAYER_PROFILES_KEY } from './keys';
import { redisRead, redisWrite } from './redisCall';

export interface PlayerProfile {
  id: string;
  displayName: string | null;
  country: string | null;
  avatarUrl: string | null;
}

type StoredProfile = Omit<PlayerProfile, 'id'>;

/**
 * Player profiles live in one hash (id -> JSON) so that reading any number of them is a single
 * HMGET, and the one hash-tagged key keeps that true on Cluster. Inputs are assumed validated.
 */
export class PlayerStore {
  constructor(readonly redis: Redis | Cluster) {}

  async upsertPlayer(profile: PlayerProfile): Promise<PlayerProfile> {
    const stored: StoredProfile = {
      displayName: profile.displayName,
      country: profile.country,
      avatarUrl: profile.avatarUrl,
    };
    await redisWrite(this.redis, () => this.redis.hset(PLAYER_PROFILES_KEY, profile.id, JSON.stringify(stored)), PLAYER_PROFILES_KEY);
    return profile;
  }

  /** Whether there was a profile to delete. */
  async deletePlayer(id: string): Promise<boolean> {
    return (await redisWrite(this.redis, () => this.redis.hdel(PLAYER_PROFILES_KEY, id), PLAYER_PROFILES_KEY)) === 1;
  }

  /** In input order, null for players without a profile. */
  async getPlayers(ids: readonly string[]): Promise<(PlayerProfile | null)[]> {
    if (ids.length === 0) return [];
    const values = await redisRead(this.redis, () => this.redis.hmget(PLAYER_PROFILES_KEY, ...ids));
    return values.map((value, i) => (value === null ? null : { id: ids[i], ...(JSON.parse(value) as StoredProfile) }));
  }
}
