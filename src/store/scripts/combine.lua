--[[
  Builds a combined view: every player of the sources ranked by the aggregate of their weighted
  scores, as ZUNIONSTORE's AGGREGATE, into keys a board's read scripts read unchanged (see keys.ts
  viewKeys). The view replaces the one before as a whole, and expires on its own.
  KEYS[1]     the view's config hash
  KEYS[2]     the view's ranking zset
  KEYS[3]     the view's player id -> token hash (its only bucket)
  KEYS[4..]   the sources' ranking zsets (periods of one board, or copies of other boards' in
              the view's slot), each with stored scores dir * score for the view's sort order
  ARGV[1]     SUM, MAX or MIN
  ARGV[2]     the sort order of every source, and so of the view
  ARGV[3]     how long the view's keys live, ms
  ARGV[4]     '1' when the sources are copies made for this build: deleted, whatever the outcome
  ARGV[5..]   each source's weight (%.17g), in the order of KEYS[4..]
  Errors: OUT_OF_RANGE <aggregate> when a player's weighted or summed score leaves
    |score| <= 2^53 - 1: the view is left as it was
  Reply the number of entries in the view
  Ties: the view's token (moment, import sequence) is, under MAX and MIN, the earliest of those
  with which the winning value was reached, under SUM the latest of the player's tokens (the
  moment the total was complete); equal aggregates then rank by it as on a board.
]]
-- @include "bytes"
-- @include "numbers"

local MAX_SCORE = 9007199254740991
local CHUNK = 4000 -- values per ZADD or HSET: well inside what unpack can pass
local sortOrder, dir = ARGV[2], direction(ARGV[2])
local sum, max = ARGV[1] == 'SUM', ARGV[1] == 'MAX'
local sbyte, ssub = string.byte, string.sub

-- By player code (what a member holds after its token): {aggregate in score terms, the member
-- that decides the view's tie order (its token, and the code), that token's moment}.
local players, codes, count = {}, {}, 0

-- A token's moment: its first 7 bytes, big-endian µs.
local function momentOf(b1, b2, b3, b4, b5, b6, b7)
  return (((((b1 * 256 + b2) * 256 + b3) * 256 + b4) * 256 + b5) * 256 + b6) * 256 + b7
end

for s = 1, #KEYS - 3 do
  local weight = dir * tonumber(ARGV[4 + s])
  local items = redis.call('ZRANGE', KEYS[3 + s], 0, -1, 'WITHSCORES')
  for i = 1, #items, 2 do
    local member = items[i]
    local b1, b2, b3, b4, b5, b6, b7, b8 = sbyte(member, 1, 8)
    -- 7 moment bytes, then the sequence: one byte below 0x80, else 0x80 + n and n more bytes.
    local code = ssub(member, b8 < 128 and 9 or b8 - 119)
    local value = tonumber(items[i + 1]) * weight
    local player = players[code]
    if player == nil then
      count = count + 1
      codes[count] = code
      players[code] = { value, member, momentOf(b1, b2, b3, b4, b5, b6, b7) }
    elseif sum then
      player[1] = player[1] + value
      -- The latest token: moments, then import sequences (the rest of the members differ only there).
      local moment = momentOf(b1, b2, b3, b4, b5, b6, b7)
      if moment > player[3] or (moment == player[3] and bytesLess(player[2], member)) then player[2], player[3] = member, moment end
    elseif value ~= player[1] then
      if (value > player[1]) == max then player[1], player[2], player[3] = value, member, momentOf(b1, b2, b3, b4, b5, b6, b7) end
    else
      -- The winning value again: the earliest token.
      local moment = momentOf(b1, b2, b3, b4, b5, b6, b7)
      if moment < player[3] or (moment == player[3] and bytesLess(member, player[2])) then player[2], player[3] = member, moment end
    end
  end
end

if ARGV[4] == '1' then redis.call('DEL', unpack(KEYS, 4)) end

-- The id a player code stands for (members.lua's playerCode, backwards): a number for a decimal
-- id, which redis.call writes as its exact decimal text.
local function playerId(code)
  local kind = sbyte(code, 1)
  if kind == 0 then return ssub(code, 2) end
  local n = 0
  for i = 2, kind + 1 do n = n * 256 + sbyte(code, i) end
  return n
end

local ranking, bucket = {}, {}
for i = 1, count do
  local code = codes[i]
  local player = players[code]
  local value = player[1]
  if not (value >= -MAX_SCORE and value <= MAX_SCORE) then
    return redis.error_reply('OUT_OF_RANGE ' .. fmt(value))
  end
  local member = player[2]
  -- redis.call writes a number argument exactly (%.17g, or as an integer); + 0 makes a -0 stored 0.
  ranking[2 * i - 1], ranking[2 * i] = dir * value + 0, member
  bucket[2 * i - 1], bucket[2 * i] = playerId(code), ssub(member, 1, #member - #code)
end

redis.call('DEL', KEYS[2], KEYS[3])
for from = 1, #ranking, CHUNK do
  local to = math.min(from + CHUNK - 1, #ranking)
  redis.call('ZADD', KEYS[2], unpack(ranking, from, to))
  redis.call('HSET', KEYS[3], unpack(bucket, from, to))
end
redis.call('HSET', KEYS[1], 'sortOrder', sortOrder, 'buckets', '1')
redis.call('HINCRBY', KEYS[1], 'version', 1)
for key = 1, 3 do redis.call('PEXPIRE', KEYS[key], ARGV[3]) end
return count
