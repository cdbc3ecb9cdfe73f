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
-- live submission): one byte less per player in the listpack. submit.lua's storedToken drops
-- it; this puts it back, given the player's code (submit.lua makes it once for all of a
-- submission's periods).
local function memberWith(stored, code)
  if #stored == 7 then return stored .. '\0' .. code end
  return stored .. code
end

local function memberOf(stored, playerId)
  return memberWith(stored, playerCode(playerId))
end
