import { isViewRef, type PeriodSlot, type RankingRef } from '../model';

/**
 * Every Redis key Standings uses. All keys of one board share the hash tag `{<boardId>}`, so a
 * board's scripts touch one Cluster slot. Board ids cannot contain braces (see the domain's
 * ID_PATTERN), so the tag is always the whole id.
 *
 *   st:{b}:cfg         hash   sortOrder, updatePolicy, title, createdAt, buckets,
 *                             clock (last live moment, µs), seq (import counter), periods
 *                             (the kept periods' canonical text; absent: ALL_TIME only), pv
 *                             (its SHA-1: changes when seasons are added, see add_seasons.lua)
 *   st:{b}:z           zset   the ranking: score = dir * score, member = token + player code
 *   st:{b}:d           zset   the distinct stored scores (score = member = the stored score, the
 *                             member as 8 bytes), for dense ranks; kept by every write script
 *   st:{b}:b:<n>       hash   player id -> token (without a 0 sequence byte), one of
 *                             `buckets` small listpack hashes, n = fnv1a(id) mod buckets
 *   st:{b}:p:<kind>:<key>:z, :b:<n>
 *                      the same for one period of the board other than ALL_TIME (kind DAILY,
 *                             WEEKLY, MONTHLY, YEARLY, HOURLY, SEASON or CYCLE, key 2026-12-01, 2026-W49,
 *                             2026-12, 2026, 2026-12-01T14, the season's id, or a cycle's 2026-12-01T14:00Z or
 *                             2026-12-01); they expire with the period (PEXPIREAT on creation)
 *   st:{b}:v:<view>:cfg, :z, :b
 *                      a combined view of periods of this board (<view>: the view's id, a hash of
 *                             what it combines): config (sortOrder, buckets = 1, version), ranking
 *                             and one player id -> token hash, as a board's, so the read scripts
 *                             read it unchanged; a snapshot rebuilt as a whole (the store's
 *                             buildView), expiring on its own
 *   st:{b}:v:<view>:new:<build>:z, :b
 *                      what one build writes, renamed into the view's :z and :b once complete
 *   st:{view#<view>}:cfg, :z, :b, :new:<build>:z, :b
 *                      the same for a view over several boards, under a tag of its own ('#' is in
 *                             no board id)
 *   st:{b}:watched     hash   period kind -> until (ms): the kinds some server's live feed follows,
 *                             whose ranks submit.lua puts in its events; each feed refreshes its
 *                             kinds well before they lapse, and the hash expires when none does
 *   st:{b}:idem:<key>  string the packed result of an idempotent submission (expires)
 *   st:{b}:events      channel (sharded pub/sub) where every change is published
 *   st:boards          zset   all board ids (score 0), for listing in id order
 *   st:{players}:profiles  hash  player id -> profile JSON; one key so a page of profiles is one HMGET
 *   st:rl:<scope>:<id>     string requests in the current rate-limit window (expires with it);
 *                             scope `key` (id: the API key's id) or `ip` (id: the client address);
 *                             `view-key`, `view-ip`: entries read by the view builds they caused
 */
const PREFIX = 'st:';

const tag = (boardId: string) => `${PREFIX}{${boardId}}:`;

export const boardKeys = (boardId: string) => {
  const base = tag(boardId);
  const bucketPrefix = `${base}b:`;
  return {
    config: `${base}cfg`,
    ranking: `${base}z`,
    distinct: `${base}d`,
    bucket: (index: number) => `${bucketPrefix}${index}`,
    /** What `bucket(n)` puts before n: for scripts that find a player's bucket themselves. */
    bucketPrefix,
    /** The keys of one period other than ALL_TIME (whose keys are the board's own). */
    period: (kind: string, key: string) => {
      const prefix = `${base}p:${kind}:${key}:`;
      const periodBuckets = `${prefix}b:`;
      return { ranking: `${prefix}z`, bucket: (index: number) => `${periodBuckets}${index}`, bucketPrefix: periodBuckets };
    },
    /** Every key of the board's periods (p:) and of the combined views of its periods (v:), for delete: one SCAN for both. */
    periodAndViewPattern: `${base}[pv]:*`,
    watched: `${base}watched`,
    idempotency: (key: string) => `${base}idem:${key}`,
    idempotencyPattern: `${base}idem:*`,
    events: `${base}events`,
  };
};

/**
 * The keys of a combined view: under its one board's tag when every source is on that board (one
 * MULTI reads the sources in that slot), else under a tag of its own.
 */
export const viewKeys = (viewId: string, boardId?: string) => {
  const base = boardId === undefined ? `${PREFIX}{view#${viewId}}:` : `${tag(boardId)}v:${viewId}:`;
  return {
    config: `${base}cfg`,
    ranking: `${base}z`,
    bucket: `${base}b`,
    /** The ranking and id -> token hash one build writes before they replace the view's (renamed). */
    build: (build: string) => ({ ranking: `${base}new:${build}:z`, bucket: `${base}new:${build}:b` }),
  };
};

/** One period's keys; ALL_TIME's are the board's own. */
export const slotKeys = (keys: ReturnType<typeof boardKeys>, { kind, key }: PeriodSlot) => (kind === 'ALL_TIME' ? keys : keys.period(kind, key));

/** The keys a read of the board, of one of its periods or of a combined view takes: ALL_TIME's are the board's own. */
export function rankingKeys(board: RankingRef) {
  if (isViewRef(board)) {
    const keys = viewKeys(board.view.id, board.view.boardId);
    return { config: keys.config, ranking: keys.ranking, bucket: () => keys.bucket };
  }
  const keys = boardKeys(typeof board === 'string' ? board : board.boardId);
  const period = typeof board === 'string' ? keys : slotKeys(keys, board);
  return { config: keys.config, ranking: period.ranking, bucket: period.bucket };
}

export const BOARD_INDEX_KEY = `${PREFIX}boards`;

export const PLAYER_PROFILES_KEY = `${PREFIX}{players}:profiles`;

/**
 * What a rate limit counts by: requests of an API key or a client address, or the entries that
 * combined views built for one read (`view-key`, `view-ip`).
 */
export type RateLimitScope = 'key' | 'ip' | 'view-key' | 'view-ip';
export const rateLimitKey = (scope: RateLimitScope, id: string) => `${PREFIX}rl:${scope}:${id}`;
