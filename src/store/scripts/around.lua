--[[
  Reads the window of a board around a player, or around where a score would rank.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  KEYS[3] the player's bucket hash (player mode only)
  ARGV[1] radius
  ARGV[2] 'player' or 'score'
  ARGV[3] player id, or the score (%.17g)
  ARGV[4] the bucket count the caller used to pick the bucket key (player mode)
  Errors: STALE_BUCKETS (player mode: the board was re-created with another bucket count)
  Reply {sortOrder, total, start, firstShared, center, entries, version}, {} for an unknown board: start
    is the first entry's rank0 and firstShared its shared rank, center the player's rank0 (nil
    in score mode, and when the player is not on the board: then entries is empty), entries
    member, stored score pairs, top-down, version the board's change counter (live updates
    apply only the events published after this read)
  Player mode: the player and up to `radius` entries each side, filled out from the other side
  at the edges (2 * radius + 1 entries when the board is big enough). Score mode: position p =
  entries that would rank above a new arrival with that score (so after equal scores); up to
  `radius` above p and `radius` from p down, filled out likewise (2 * radius entries).
]]
-- @include "buckets"
-- @include "members"
-- @include "numbers"
-- @include "window"

local cfg = redis.call('HMGET', KEYS[1], 'sortOrder', 'buckets', 'version')
local version = tonumber(cfg[3]) or 0
local sortOrder = cfg[1]
if not sortOrder then return {} end
local ranking = KEYS[2]
local radius = tonumber(ARGV[1])
local total = redis.call('ZCARD', ranking)

local center, first, size = false, 0, 0
if ARGV[2] == 'player' then
  if cfg[2] ~= ARGV[4] then return redis.error_reply(STALE_BUCKETS) end
  local token = redis.call('HGET', KEYS[3], ARGV[3])
  center = token and redis.call('ZRANK', ranking, memberOf(token, ARGV[3]))
  if not center then return {sortOrder, total, 0, 0, false, {}, version} end
  first, size = center - radius, 2 * radius + 1
else
  local position = redis.call('ZCOUNT', ranking, '-inf', fmt(direction(sortOrder) * tonumber(ARGV[3])))
  first, size = position - radius, 2 * radius
end
local start = math.max(0, math.min(first, total - size))
local shared, items = slice(ranking, start, math.min(total - 1, start + size - 1))
return {sortOrder, total, start, shared, center, items, version}
