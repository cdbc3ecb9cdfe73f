--[[
  Reads one page of a board's ranking.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  ARGV[1] limit
  ARGV[2] '1' to read backward: the entries that end at the last rank, or right before the cursor
  ARGV[3] offset (used when there is no cursor and no percent)
  ARGV[4] cursor: stored score of the last entry already read ('' for none)
  ARGV[5] cursor: member of that entry
  ARGV[6] percent: read the top ARGV[6]% of the board, at most `limit` entries ('' for none)
  ARGV[7..10] only to read a score range (never with a percent): min, '1' when min is
          exclusive, max, '1' when max is exclusive; a bound '' is open. The page, offset and
          cursor then run over the entries in the range only
  Reply {sortOrder, total, start, firstShared, hasMore, count, version, entries, rangeStart},
    {} for an unknown board: start is the first entry's rank0 and firstShared its shared rank,
    hasMore 0/1, count the top-percent size or the number of entries in the score range,
    version the board's change counter (bumped by every write that changed something), entries
    member, stored score pairs, top-down whichever way the page is read (hasMore then says
    whether entries precede the page), rangeStart the rank0 where the score range starts (0
    without one)
]]
-- @include "numbers"
-- @include "range"
-- @include "window"

-- memcmp order, as Redis compares members; Lua's `<` on strings follows the server's locale.
local function bytesLess(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local cfg = redis.call('HMGET', KEYS[1], 'sortOrder', 'version')
local sortOrder = cfg[1]
if not sortOrder then return {} end
local ranking = KEYS[2]
local limit, backward = tonumber(ARGV[1]), ARGV[2] == '1'
local total = redis.call('ZCARD', ranking)

-- How many entries come strictly before the cursor's place in the order, and whether the
-- entry is still there. An entry that moved or left is located by its old (score, member).
local function cursorPosition(stored, member)
  local now = redis.call('ZSCORE', ranking, member)
  if now and tonumber(now) == tonumber(stored) then return redis.call('ZRANK', ranking, member), true end
  local lo = redis.call('ZCOUNT', ranking, '-inf', '(' .. stored)
  local hi = redis.call('ZCOUNT', ranking, '-inf', stored)
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if bytesLess(member, redis.call('ZRANGE', ranking, mid, mid)[1]) then hi = mid else lo = mid + 1 end
  end
  return lo, false
end

local start, stop, count = 0, -1, 0
-- The entries read are those at positions [from, to): the whole board, or a score range.
local from, to = 0, total
if ARGV[7] then
  from, to = scoreRange(ranking, direction(sortOrder), total, ARGV[7], ARGV[8], ARGV[9], ARGV[10])
  count = to - from
end
if ARGV[6] ~= '' then
  count = math.min(total, math.ceil(total * tonumber(ARGV[6]) / 100))
  start, stop = 0, math.min(count, limit) - 1
elseif ARGV[4] ~= '' then
  local before, present = cursorPosition(ARGV[4], ARGV[5])
  if backward then
    stop = math.min(before, to) - 1
    start = math.max(from, stop - limit + 1)
  else
    start = math.max(from, before + (present and 1 or 0))
    stop = start + limit - 1
  end
else
  local offset = tonumber(ARGV[3])
  if backward then
    stop = to - 1 - offset
    start = math.max(from, stop - limit + 1)
  else
    start = from + offset
    stop = start + limit - 1
  end
end
stop = math.min(stop, to - 1)

local shared, items = slice(ranking, start, stop)
local hasMore
if backward then hasMore = start > from and stop >= from else hasMore = stop < to - 1 end
return {sortOrder, total, start, shared, hasMore and 1 or 0, count, tonumber(cfg[2] or 0), items, from}
