-- Shared helpers, pasted in front of the scripts that say `-- @include "common"`.

-- Callers pick bucket keys from a bucket count they cache; a board deleted and created again
-- may have another count, and this error tells the caller to refresh it and retry.
local STALE_BUCKETS = 'STALE_BUCKETS bucket count changed'

-- A member ends with the player's code: type byte 0 and the raw id, or, for an id that is a
-- canonical decimal of up to 15 digits, type byte n and the number in n big-endian bytes
-- (src/store/memberCodec.ts decodes it). Short members fit jemalloc's 16-byte class.
local function playerCode(id)
  if #id <= 15 and (id == '0' or string.match(id, '^[1-9]%d*$')) then
    local n, bytes = tonumber(id), {}
    repeat
      local byte = n % 256
      table.insert(bytes, 1, string.char(byte))
      n = (n - byte) / 256
    until n == 0
    return string.char(#bytes) .. table.concat(bytes)
  end
  return '\0' .. id
end

-- Bucket hashes hold each player's token without the import-sequence byte when it is 0 (a
-- live submission): one byte less per player in the listpack. These two functions are the
-- only places that know it.
local function memberOf(stored, playerId)
  if #stored == 7 then return stored .. '\0' .. playerCode(playerId) end
  return stored .. playerCode(playerId)
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
