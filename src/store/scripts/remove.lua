--[[
  Removes one player from a board.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  KEYS[3] the player's bucket hash
  KEYS[4] distinct scores zset st:{b}:d (kept only when the board's 'dense' field is set)
  ARGV[1] the bucket count the caller used to pick the bucket key
  ARGV[2] player id
  ARGV[3] the board's event channel (st:{b}:events)
  Reply: the player's 0-based rank before removal, or -1 when the player was not on the board.
  When a player was removed, bumps the board's version and publishes
    'v <version>\nr <player> <previous score> <previous rank0> <total>'.
  Errors: NOT_FOUND (no such board); STALE_BUCKETS (the board was re-created with another bucket count: refresh, retry)
]]
-- @include "buckets"
-- @include "members"
-- @include "numbers"
-- @include "distinct"

local cfg = redis.call('HMGET', KEYS[1], 'buckets', 'sortOrder', 'dense')
if not cfg[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
if cfg[1] ~= ARGV[1] then return redis.error_reply(STALE_BUCKETS) end
local token = redis.call('HGET', KEYS[3], ARGV[2])
if not token then return -1 end
local member = memberOf(token, ARGV[2])
local stored = redis.call('ZSCORE', KEYS[2], member)
-- A bucket entry whose member is gone (left by a board deleted and created again) is left for
-- the next submission to overwrite: a removal changes nothing it does not publish.
if not stored then return -1 end
redis.call('HDEL', KEYS[3], ARGV[2])
local rank = redis.call('ZRANK', KEYS[2], member)
redis.call('ZREM', KEYS[2], member)
if cfg[3] then dropScore(KEYS[4], KEYS[2], tonumber(stored)) end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('SPUBLISH', ARGV[3], 'v ' .. version .. '\n' .. table.concat({'r', ARGV[2], fmt(direction(cfg[2]) * tonumber(stored)), rank,
  redis.call('ZCARD', KEYS[2])}, ' '))
return rank
