--[[
  Removes entries of one board at once, all or nothing: every entry whose score lies in a range,
  or every entry ranked below the first N, in one period; or a list of players, in every period
  listed (a removal of players reaches every period the board keeps, so that a removed player
  leaves no trace in today's or this week's ranking either).
  A slot is one period of the board (ALL_TIME's keys are the board's own, st:{b}:z and :b:<n>).
  KEYS[1]        config hash  st:{b}:cfg
  KEYS[2]        distinct scores zset st:{b}:d (kept only when the board's 'dense' field is set;
                 dense ranks are ALL_TIME's only)
  KEYS[3..2+m]   each slot's ranking zset
  ARGV[1]        the board's event channel (st:{b}:events)
  ARGV[2]        the most entries one call may remove from one slot
  ARGV[3]        the periods fingerprint the caller listed the slots with ('' for ALL_TIME only)
  ARGV[4]        'range', 'below' (one slot) or 'players' (any number)
  ARGV[5]        m, the number of slots, then three per slot: kind, key, and the prefix of its bucket
                 hashes (st:{b}:b: or st:{b}:p:<kind>:<key>:b:): which players go is only known
                 in here, so their bucket hashes are reached by name (they share the board's hash
                 tag and slot); ALL_TIME, when listed, comes first
  ARGV[..]       range: min, '1' when min is exclusive, max, '1' when max is exclusive, a bound ''
                 being open (as page.lua); below: N, the entries kept; players: the player ids
  Reply: how many players were removed (a player removed from several periods counts once).
  When any was, bumps the board's version and publishes 'v <version>' and one line per removed
  entry as 'r <player> <previous score> <previous rank0> <total>', each with the rank and size of
  its own removal (ranges go from the bottom up, players in the order given): ALL_TIME's lines
  first, then for each other period with removals 'p <kind> <key>' and its lines, as submit.lua.
  Errors: NOT_FOUND (no such board); STALE_BUCKETS (the board's periods changed since the caller
  listed them: refresh and retry); BAD_USER_INPUT [min | count | playerIds] when more than ARGV[2]
  entries would go from a slot (nothing is removed), naming the input field a smaller call changes.
]]
-- @include "buckets"
-- @include "members"
-- @include "numbers"
-- @include "distinct"
-- @include "range"

local cfgKey, distinct = KEYS[1], KEYS[2]
local cfg = redis.call('HMGET', cfgKey, 'sortOrder', 'buckets', 'dense', 'pv')
if not cfg[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
if (cfg[4] or '') ~= ARGV[3] then return redis.error_reply(STALE_BUCKETS) end
local dir, buckets, max, mode = direction(cfg[1]), tonumber(cfg[2]), tonumber(ARGV[2]), ARGV[4]
local m = tonumber(ARGV[5])
local slots = {}
for s = 1, m do
  local at = 3 + 3 * s
  slots[s] = {ranking = KEYS[2 + s], kind = ARGV[at], key = ARGV[at + 1], bucketPrefix = ARGV[at + 2]}
end
local modeArgs = 6 + 3 * m

-- FNV-1a over the id's bytes, as the store's bucketOf (src/store/commands/arguments.ts). Products
-- are split so that none passes 2^53: 16777619 = 2^24 + 403.
local function bucketOf(id)
  local hash = 2166136261
  for i = 1, #id do
    hash = bit.bxor(hash, string.byte(id, i)) % 4294967296
    hash = (hash * 403 + (hash % 256) * 16777216) % 4294967296
  end
  return hash % buckets
end

-- The player id at the end of a member (src/store/memberCodec.ts reads it the same way).
local function playerIdOf(member)
  local first = string.byte(member, 8)
  local at = first < 128 and 9 or 9 + first - 128
  local kind = string.byte(member, at)
  if kind == 0 then return string.sub(member, at + 1) end
  local n = 0
  for i = at + 1, at + kind do n = n * 256 + string.byte(member, i) end
  return string.format('%.0f', n)
end

-- The input field to change for a smaller call: a range's lower bound (raise it), how many are kept (keep
-- more first, then come down), the players (fewer).
local CALL_SIZE_FIELD = {range = 'min', below = 'count', players = 'playerIds'}
local function tooMany(count)
  return redis.error_reply('BAD_USER_INPUT [' .. CALL_SIZE_FIELD[mode] .. '] this would remove ' .. count ..
    ' entries; at most ' .. ARGV[2] .. ' go in one call: narrow it and repeat')
end

-- Every removal of a slot, found before any is made, so that a refusal leaves everything as it was:
-- its member, player and stored score, and for a range its rank (bottom up, so that each removal's
-- rank is also its place when it goes; a player's is read when it goes, as others go before it).
local removals, removedPlayers, removedCount = {}, {}, 0
for s, slot in ipairs(slots) do
  local found = {}
  slot.total = redis.call('ZCARD', slot.ranking)
  if mode == 'players' then
    local seen = {}
    for i = modeArgs, #ARGV do
      local player = ARGV[i]
      local token = redis.call('HGET', slot.bucketPrefix .. bucketOf(player), player)
      -- A bucket entry whose member is gone (left by a board deleted and created again, or a
      -- period expired) stays; a player listed twice goes once.
      if token and not seen[player] then
        seen[player] = true
        local member = memberOf(token, player)
        local stored = redis.call('ZSCORE', slot.ranking, member)
        if stored then found[#found + 1] = {member = member, player = player, stored = stored} end
      end
    end
  else
    local from, to
    if mode == 'range' then
      from, to = scoreRange(slot.ranking, dir, slot.total, ARGV[modeArgs], ARGV[modeArgs + 1], ARGV[modeArgs + 2], ARGV[modeArgs + 3])
    else
      from, to = math.min(tonumber(ARGV[modeArgs]), slot.total), slot.total
    end
    if to > from then
      local items = redis.call('ZRANGE', slot.ranking, from, to - 1, 'WITHSCORES')
      for i = #items - 1, 1, -2 do
        found[#found + 1] = {member = items[i], player = playerIdOf(items[i]), stored = items[i + 1], rank = from + (i - 1) / 2}
      end
    end
  end
  if #found > max then return tooMany(#found) end
  removals[s] = found
end

local lines = {}
for s, slot in ipairs(slots) do
  local found = removals[s]
  if #found > 0 and slot.kind ~= 'ALL_TIME' then lines[#lines + 1] = 'p ' .. slot.kind .. ' ' .. slot.key end
  for _, entry in ipairs(found) do
    local rank = entry.rank or redis.call('ZRANK', slot.ranking, entry.member)
    redis.call('ZREM', slot.ranking, entry.member)
    redis.call('HDEL', slot.bucketPrefix .. bucketOf(entry.player), entry.player)
    if slot.kind == 'ALL_TIME' and cfg[3] then dropScore(distinct, slot.ranking, tonumber(entry.stored)) end
    slot.total = slot.total - 1
    lines[#lines + 1] = table.concat({'r', entry.player, fmt(dir * tonumber(entry.stored)), rank, slot.total}, ' ')
    if not removedPlayers[entry.player] then removedPlayers[entry.player], removedCount = true, removedCount + 1 end
  end
end

if removedCount == 0 then return 0 end
local version = redis.call('HINCRBY', cfgKey, 'version', 1)
redis.call('SPUBLISH', ARGV[1], 'v ' .. version .. '\n' .. table.concat(lines, '\n'))
return removedCount
