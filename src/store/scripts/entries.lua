--[[
  Reads many players of one board in one call.
  KEYS[1]      config hash  st:{b}:cfg
  KEYS[2]      ranking zset st:{b}:z
  KEYS[3..]    the bucket hash of each player
  ARGV[1]      the bucket count the caller used to pick bucket keys
  ARGV[2..]    the player ids, in the order of KEYS[3..]
  Errors: STALE_BUCKETS (the board was re-created with another bucket count: refresh, retry)
  Returns {} for an unknown board, else {sortOrder, total, then four per player:
          member or '', stored score or '', rank0 or -1, sharedRank or -1}
]]
-- @include "common"

local cfg = redis.call('HMGET', KEYS[1], 'sortOrder', 'buckets')
local sortOrder = cfg[1]
if not sortOrder then return {} end
if cfg[2] ~= ARGV[1] then return redis.error_reply(STALE_BUCKETS) end
local ranking = KEYS[2]
local reply = {sortOrder, redis.call('ZCARD', ranking)}
for i = 1, #KEYS - 2 do
  local token = redis.call('HGET', KEYS[2 + i], ARGV[1 + i])
  local member = token and memberOf(token, ARGV[1 + i])
  local stored = member and redis.call('ZSCORE', ranking, member)
  if stored then
    reply[#reply + 1] = member
    reply[#reply + 1] = stored
    reply[#reply + 1] = redis.call('ZRANK', ranking, member)
    reply[#reply + 1] = redis.call('ZCOUNT', ranking, '-inf', '(' .. stored) + 1
  else
    reply[#reply + 1] = ''
    reply[#reply + 1] = ''
    reply[#reply + 1] = -1
    reply[#reply + 1] = -1
  end
end
return reply
