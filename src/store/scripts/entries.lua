--[[
  Reads many players of one board in one call.
  KEYS[1]      config hash  st:{b}:cfg
  KEYS[2]      ranking zset st:{b}:z
  KEYS[3..]    the bucket hash of each player
  ARGV[1]      the bucket count the caller used to pick bucket keys
  ARGV[2]      '1' to read each player's shared rank, '0' to leave it out (nil in the reply):
               it is a count of the higher scores, two skiplist descents per player
  ARGV[3..]    the player ids, in the order of KEYS[3..]
  Errors: STALE_BUCKETS (the board was re-created with another bucket count: refresh, retry)
  Reply {sortOrder, total, players, version}, {} for an unknown board; version is the board's
    change counter, so that live updates apply only the events published after this read
  Reply players, the fields of each player in order, end to end (a table per player would
    cost Redis time): {member, stored, rank0, sharedRank}, stored being the stored score; all
    nil for a player not on the board
]]
-- @include "buckets"
-- @include "members"

local cfg = redis.call('HMGET', KEYS[1], 'sortOrder', 'buckets', 'version')
local sortOrder = cfg[1]
if not sortOrder then return {} end
if cfg[2] ~= ARGV[1] then return redis.error_reply(STALE_BUCKETS) end
local ranking = KEYS[2]
local withShared = ARGV[2] == '1'
local count = #KEYS - 2
-- Each player's member, then the stored scores of those found in one ZMSCORE: a call from Lua
-- costs Redis more than the lookup it makes.
local members, found = {}, {}
for i = 1, count do
  local token = redis.call('HGET', KEYS[2 + i], ARGV[2 + i])
  members[i] = token and memberOf(token, ARGV[2 + i])
  if token then found[#found + 1] = members[i] end
end
local scores = #found > 0 and redis.call('ZMSCORE', ranking, unpack(found)) or {}
local players, scored = {}, 0
for i = 1, count do
  local member, stored = members[i], false
  if member then
    scored = scored + 1
    stored = scores[scored]
  end
  local at = (i - 1) * 4
  if stored then
    players[at + 1] = member
    players[at + 2] = stored
    players[at + 3] = redis.call('ZRANK', ranking, member)
    players[at + 4] = withShared and redis.call('ZCOUNT', ranking, '-inf', '(' .. stored) + 1
  else
    for field = 1, 4 do players[at + field] = false end
  end
end
return {sortOrder, redis.call('ZCARD', ranking), players, tonumber(cfg[3]) or 0}
