--[[
  Removes many entries of one board at once, all or nothing: every entry whose score lies in a
  range, every entry ranked below the first N, or a list of players.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  KEYS[3] distinct scores zset st:{b}:d (kept only when the board's 'dense' field is set)
  ARGV[1] the board's event channel (st:{b}:events)
  ARGV[2] the bucket hashes' key prefix (st:{b}:b:): which players go is only known in here, so
          their bucket hashes are reached by name (they share the board's hash tag and slot)
  ARGV[3] the most entries one call may remove
  ARGV[4] 'range', 'below' or 'players'
  ARGV[5..] range: min, '1' when min is exclusive, max, '1' when max is exclusive, a bound ''
          being open (as page.lua); below: N, the entries kept; players: the player ids
  Reply: how many entries were removed.
  When any was, bumps the board's version and publishes 'v <version>' and one line per removed
  entry as remove.lua does ('r <player> <previous score> <previous rank0> <total>'), each with
  the rank and board size of its own removal: ranges go from the bottom up, players in the
  order given.
  Errors: NOT_FOUND (no such board); BAD_USER_INPUT [min | count | playerIds] when more than
  ARGV[3] entries would go (nothing is removed), naming the input field a smaller call changes.
]]
-- @include "members"
-- @include "numbers"
-- @include "distinct"
-- @include "range"

local cfgKey, ranking, distinct = KEYS[1], KEYS[2], KEYS[3]
local cfg = redis.call('HMGET', cfgKey, 'sortOrder', 'buckets', 'dense')
if not cfg[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
local dir, buckets, max, mode = direction(cfg[1]), tonumber(cfg[2]), tonumber(ARGV[3]), ARGV[4]
local total = redis.call('ZCARD', ranking)

-- FNV-1a over the id's bytes, as the store's bucketOf (src/store/leaderboardStore.ts). Products
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

local events = {}
local function removeAt(member, stored, player, rank)
  redis.call('ZREM', ranking, member)
  redis.call('HDEL', ARGV[2] .. bucketOf(player), player)
  if cfg[3] then dropScore(distinct, ranking, tonumber(stored)) end
  total = total - 1
  events[#events + 1] = table.concat({'r', player, fmt(dir * tonumber(stored)), rank, total}, ' ')
end

-- The input field to change for a smaller call: a range's lower bound (raise it), how many are kept (keep
-- more first, then come down), the players (fewer).
local CALL_SIZE_FIELD = {range = 'min', below = 'count', players = 'playerIds'}
local function tooMany(count)
  return redis.error_reply('BAD_USER_INPUT [' .. CALL_SIZE_FIELD[mode] .. '] this would remove ' .. count ..
    ' entries; at most ' .. ARGV[3] .. ' go in one call: narrow it and repeat')
end

if mode == 'players' then
  local members, order = {}, {}
  for i = 5, #ARGV do
    local player = ARGV[i]
    local token = redis.call('HGET', ARGV[2] .. bucketOf(player), player)
    -- A bucket entry whose member is gone (left by a board deleted and created again) stays, as
    -- in remove.lua; a player listed twice goes once.
    if token and not members[player] then
      local member = memberOf(token, player)
      if redis.call('ZSCORE', ranking, member) then
        members[player] = member
        order[#order + 1] = player
      end
    end
  end
  if #order > max then return tooMany(#order) end
  for _, player in ipairs(order) do
    local member = members[player]
    removeAt(member, redis.call('ZSCORE', ranking, member), player, redis.call('ZRANK', ranking, member))
  end
else
  local from, to
  if mode == 'range' then
    from, to = scoreRange(ranking, dir, total, ARGV[5], ARGV[6], ARGV[7], ARGV[8])
  else
    from, to = math.min(tonumber(ARGV[5]), total), total
  end
  if to - from > max then return tooMany(to - from) end
  if to > from then
    local items = redis.call('ZRANGE', ranking, from, to - 1, 'WITHSCORES')
    for i = #items - 1, 1, -2 do
      removeAt(items[i], items[i + 1], playerIdOf(items[i]), from + (i - 1) / 2)
    end
  end
end

if #events == 0 then return 0 end
local version = redis.call('HINCRBY', cfgKey, 'version', 1)
redis.call('SPUBLISH', ARGV[1], 'v ' .. version .. '\n' .. table.concat(events, '\n'))
return #events
