--[[
  The score at a rank, or at a percentile of a board.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  ARGV[1] 'rank' or 'percent'
  ARGV[2] the rank (1-based), or the percentile (0 < p <= 100)
  Reply: the score (%.17g), or nil when the board is unknown, empty, or has no such rank.
  Percentile p: the board's scores from the last rank (p = 0) to the first (p = 100) are
  v[0..n-1]; h = (n - 1) * p / 100, i = floor(h), and the score is
  v[i] + (h - i) * (v[i + 1] - v[i]): numpy's default ('linear', Excel's PERCENTILE.INC).
]]
-- @include "numbers"

local sortOrder = redis.call('HGET', KEYS[1], 'sortOrder')
if not sortOrder then return false end
local ranking, dir = KEYS[2], direction(sortOrder)
-- The score at 0-based rank from the top.
local function scoreAt(rank0)
  local items = redis.call('ZRANGE', ranking, rank0, rank0, 'WITHSCORES')
  return items[2] and dir * tonumber(items[2])
end

if ARGV[1] == 'rank' then
  local score = scoreAt(tonumber(ARGV[2]) - 1)
  return score and fmt(score)
end
local n = redis.call('ZCARD', ranking)
if n == 0 then return false end
local h = (n - 1) * tonumber(ARGV[2]) / 100
local i = math.floor(h)
local low = scoreAt(n - 1 - i)
if h == i then return fmt(low) end
return fmt(low + (h - i) * (scoreAt(n - 2 - i) - low))
