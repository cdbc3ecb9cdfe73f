--[[
  Removes one player from a board.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  KEYS[3] the player's bucket hash
  ARGV[1] the bucket count the caller used to pick the bucket key
  ARGV[2] player id
  ARGV[3] player code (member suffix)
  Returns the player's 0-based rank before removal, or -1 when the player was not on the board.
  Errors: STALE_BUCKETS (the board was re-created with another bucket count: refresh, retry)
]]
-- @include "common"

local buckets = redis.call('HGET', KEYS[1], 'buckets')
if not buckets then return -1 end
if buckets ~= ARGV[1] then return redis.error_reply(STALE_BUCKETS) end
local token = redis.call('HGET', KEYS[3], ARGV[2])
if not token then return -1 end
redis.call('HDEL', KEYS[3], ARGV[2])
local member = memberOf(token, ARGV[3])
local rank = redis.call('ZRANK', KEYS[2], member)
if not rank then return -1 end
redis.call('ZREM', KEYS[2], member)
return rank
