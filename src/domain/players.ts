import { badInput } from '../errors';
import type { PlayerProfile, PlayerStore } from '../store/playerStore';
import { checkBatchSize, checkId, checkText } from './validation';

const MAX_DISPLAY_NAME_LENGTH = 64;
const MAX_AVATAR_URL_LENGTH = 2048;
const COUNTRY_PATTERN = /^[A-Z]{2}$/;

export interface PlayerProfileInput {
  id: string;
  displayName?: string | null;
  country?: string | null;
  avatarUrl?: string | null;
}

/** Player profiles: validates, then calls the store (same role as Leaderboards for boards). */
export class Players {
  constructor(readonly store: PlayerStore) {}

  /** Replaces the whole profile: fields left out become null. */
  upsert(profile: PlayerProfileInput): Promise<PlayerProfile> {
    return this.store.upsertPlayer({
      id: checkId(profile.id, 'id'),
      displayName: checkDisplayName(profile.displayName),
      country: checkCountry(profile.country),
      avatarUrl: checkAvatarUrl(profile.avatarUrl),
    });
  }

  /** Deletes the profile, after which `get` answers null for the player; false when there was none. */
  async delete(id: string): Promise<boolean> {
    return this.store.deletePlayer(checkId(id, 'id'));
  }

  /** Up to MAX_BATCH_SIZE profiles in one round trip, in input order, null where there is none. */
  async get(ids: readonly string[]): Promise<(PlayerProfile | null)[]> {
    if (ids.length === 0) return [];
    checkBatchSize(ids.length, 'ids');
    return this.store.getPlayers(ids.map((id) => checkId(id, 'id')));
  }
}

function checkDisplayName(value: string | null | undefined): string | null {
  return value == null ? null : checkText(value, 'displayName', MAX_DISPLAY_NAME_LENGTH, 1);
}

function checkCountry(value: string | null | undefined): string | null {
  if (value == null) return null;
  if (!COUNTRY_PATTERN.test(value)) {
    throw badInput('country must be an ISO 3166-1 alpha-2 code such as SE', { field: 'country' });
  }
  return value;
}

function checkAvatarUrl(value: string | null | undefined): string | null {
  if (value == null) return null;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below with the other cases
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || value.length > MAX_AVATAR_URL_LENGTH) {
    throw badInput(`avatarUrl must be an http(s) URL of at most ${MAX_AVATAR_URL_LENGTH} characters`, { field: 'avatarUrl' });
  }
  return value;
}
