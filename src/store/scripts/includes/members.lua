-- A member ends with the player's code: type byte 0 and the raw id, or, for an id that is a
-- canonical decimal of up to 15 digits, type byte n and the number in n big-endian bytes
-- (src/store/memberCodec.ts decodes it). Short members fit jemalloc's 16-byte class.

-- The type byte and the number in one struct.pack, by the number's size in bytes: building the
-- bytes one by one made this a sizeable part of a read of many players.
local CODE_FORMATS = {'>BI1', '>BI2', '>BI3', '>BI4', '>BI5', '>BI6', '>BI7'}

local function playerCode(id)
  if #id <= 15 and (id == '0' or string.find(id, '^[1-9]%d*$')) then
    local n = tonumber(id)
    local size = 7
    if n < 0x100 then size = 1
    elseif n < 0x10000 then size = 2
    elseif n < 0x1000000 then size = 3
    elseif n < 0x100000000 then size = 4
    elseif n < 0x10000000000 then size = 5
    elseif n < 0x1000000000000 then size = 6
    end
    return struct.pack(CODE_FORMATS[size], size, n)
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
