--[[
  Dense ranks (1, 2, 2, 3) of scores on one board: how many distinct scores rank above each,
  plus one.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] distinct scores zset st:{b}:d
  ARGV[1..] the scores (exact text)
  Reply: the dense rank of each score in order; {} for an unknown board.
]]
-- @include "numbers"

local sortOrder = redis.call('HGET', KEYS[1], 'sortOrder')
if not sortOrder then return {} end
local dir, ranks = direction(sortOrder), {}
for i = 1, #ARGV do
  ranks[i] = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. fmt(dir * tonumber(ARGV[i]))) + 1
end
return ranks
