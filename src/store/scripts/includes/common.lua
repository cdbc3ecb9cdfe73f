-- Shared helpers, pasted in front of the scripts that say `-- @include "common"`.

-- Callers pick bucket keys from a bucket count they cache; a board deleted and created again
-- may have another count, and this error tells the caller to refresh it and retry.
local STALE_BUCKETS = 'STALE_BUCKETS bucket count changed'

-- Bucket hashes hold each player's token without the import-sequence byte when it is 0 (a
-- live submission): one byte less per player in the listpack. These two functions are the
-- only places that know it.
local function memberOf(stored, code)
  if #stored == 7 then return stored .. '\0' .. code end
  return stored .. code
end

local function storedToken(token)
  if #token == 8 and string.byte(token, 8) == 0 then return string.sub(token, 1, 7) end
  return token
end

-- Exact text for a double: Lua's tostring keeps only 14 significant digits.
local function fmt(x)
  return string.format('%.17g', x)
end

-- Scores are stored as dir * score so that ascending sorted-set order is rank order for both
-- kinds of board, and equal scores fall back to the member bytes (the token) in the same way.
local function direction(sortOrder)
  if sortOrder == 'DESCENDING' then return -1 end
  return 1
end

-- memcmp order, as Redis compares members; Lua's `<` on strings follows the server's locale.
local function bytesLess(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- Entries [start, stop] (0-based, top-down) with their stored scores, and the shared rank of
-- the first one; later shared ranks follow from comparing neighbouring scores.
local function slice(ranking, start, stop)
  if stop < start then return 0, {} end
  local items = redis.call('ZRANGE', ranking, start, stop, 'WITHSCORES')
  if #items == 0 then return 0, items end
  return redis.call('ZCOUNT', ranking, '-inf', '(' .. items[2]) + 1, items
end

-- The reply shape every window read shares: header fields, then member/score pairs.
local function windowReply(header, items)
  for i = 1, #items do header[#header + 1] = items[i] end
  return header
end
