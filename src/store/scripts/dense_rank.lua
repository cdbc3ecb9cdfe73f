--[[
  Dense ranks (1, 2, 2, 3) of scores on one board: how many distinct scores rank above each,
  plus one.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] distinct scores zset st:{b}:d
  ARGV[1..] the scores (exact text)
  Reply: the dense rank of each score in order; {} for an unknown board, or one created without
    dense ranks (its 'dense' field unset: it keeps no distinct scores).
]]
-- @include "numbers"

local cfg = redis.call('HMGET', KEYS[1], 'sortOrder', 'dense')
if not cfg[2] then return {} end
local dir, ranks = direction(cfg[1]), {}
for i = 1, #ARGV do
  ranks[i] = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. fmt(dir * tonumber(ARGV[i]))) + 1
end
return ranks
