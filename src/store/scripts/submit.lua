--[[
  Applies score submissions to one board, in order and atomically, in every period each lands
  in: every check that can fail runs before the first write, so an error leaves the board as it was.
  A slot is one period of the board (ALL_TIME's keys are the board's own, st:{b}:z and :b:<n>).
  KEYS[1]        config hash  st:{b}:cfg
  KEYS[2]        watched kinds hash  st:{b}:watched (kind -> until, ms by this script's clock)
  KEYS[3..2+m]   each slot's ranking zset
  KEYS[..]       each submission's bucket hashes, one per slot it lists, in its list's order
  KEYS[..]       idempotency keys, one per submission that has one, in submission order
  KEYS[last]     distinct scores zset st:{b}:d (kept only when the board's 'dense' field is set;
                 dense ranks are ALL_TIME's only)
  ARGV[1]        the bucket count the caller used to pick bucket keys
  ARGV[2]        n, the number of submissions
  ARGV[3]        idempotency TTL in seconds
  ARGV[4]        the board's event channel (st:{b}:events)
  ARGV[5]        the periods fingerprint the caller planned with ('' for ALL_TIME only)
  ARGV[6]        w, the number of live windows, then two per window: from, to (µs, to '' = never):
                 for each kept kind, the stretch around the caller's now in which its period (or,
                 between seasons, none) holds. Every live moment this call stamps must lie in all.
  ARGV[..]       m, the number of slots, then three per slot: kind, key, expiry in ms ('' = never)
  ARGV[..]       five per submission: player id, score (%.17g), reachedAt in µs ('' for a live
                 submission), '1' when it has an idempotency key, and its slots: 1-based slot
                 numbers separated by spaces, the one answered for first
  Reply {sortOrder, results, replayed}: replayed holds 1 for each submission answered with the
    record saved by an earlier one with the same idempotency key, else 0
  Reply results, one record per submission, for its first slot still kept:
    {member, stored, rank0, sharedRank, total, previous, previousRank0, changed, kind, key}:
    stored and previous are stored scores (score for ASCENDING boards, -score for DESCENDING
    ones), previous '' and previousRank0 -1 for a new player, changed 0/1 (in any slot), kind and
    key the slot's (the period the entry is on). The record is what an idempotency key saves, so
    a replay after a rollover answers as the first time did.
  When anything changed, bumps the board's version and publishes (SPUBLISH, so it works on
  Cluster too) one message: 'v <version>', then a line per change in ALL_TIME:
    's <player> <score> <rank0> <sharedRank> <previous score or -> <previous rank0 or -1> <reachedAt µs> <total>'
  then, for each other period with changes, 'p <kind> <key>' and its 's' lines. A period whose
  kind is not watched (KEYS[2]: no field, or one past) and that is not the one answered for gets
  lines without ranks, 's <player> <score> - - <previous score or -> - <reachedAt µs> -': ranks
  cost four calls per period per change, and only live feeds read them.
  Errors: NOT_FOUND (no such board); STALE_BUCKETS (the board was re-created with another
  bucket count or other periods: refresh it and retry); STALE_PERIODS <moment> (a live moment
  lies outside a window: plan again at that moment and retry); BAD_USER_INPUT (reachedAt in the
  future or outside every kept period, or an INCREMENT whose total leaves |score| <= 2^53 - 1).
]]
-- @include "buckets"
-- @include "members"
-- @include "numbers"
-- @include "distinct"
-- @include "now"

local MAX_SCORE = 9007199254740991
local cfgKey, distinct = KEYS[1], KEYS[#KEYS]
local n, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])

local cfg = redis.call('HMGET', cfgKey, 'sortOrder', 'updatePolicy', 'clock', 'buckets', 'version', 'dense', 'pv')
if not cfg[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
if cfg[4] ~= ARGV[1] or (cfg[7] or '') ~= ARGV[5] then return redis.error_reply(STALE_BUCKETS) end
local dir, policy, clock = direction(cfg[1]), cfg[2], tonumber(cfg[3])
local now = clockNow()

local windows, at = {}, 7
for _ = 1, tonumber(ARGV[6]) do
  windows[#windows + 1] = {tonumber(ARGV[at]), tonumber(ARGV[at + 1])}
  at = at + 2
end
local slots = {}
local m = tonumber(ARGV[at]); at = at + 1
-- An imported moment's periods were chosen by the caller; those that have expired by Redis'
-- clock since are left out (kept false).
for s = 1, m do
  local expiry = ARGV[at + 2]
  slots[s] = {kind = ARGV[at], key = ARGV[at + 1], expiry = expiry, ranking = KEYS[2 + s], allTime = ARGV[at] == 'ALL_TIME',
    kept = expiry == '' or tonumber(expiry) * 1000 > now}
  at = at + 3
end

local items, nextKey, live = {}, 3 + m, 0
for i = 1, n do
  local item = {player = ARGV[at], code = playerCode(ARGV[at]), score = tonumber(ARGV[at + 1]), at = ARGV[at + 2], buckets = {}, slots = {}}
  for s in string.gmatch(ARGV[at + 4], '%d+') do
    item.slots[#item.slots + 1] = tonumber(s)
    item.buckets[#item.buckets + 1] = KEYS[nextKey]
    nextKey = nextKey + 1
  end
  item.hasIdem = ARGV[at + 3] == '1'
  if item.at == '' then live = live + 1 end
  items[i] = item
  at = at + 5
end
for i = 1, n do
  if items[i].hasIdem then items[i].idem = KEYS[nextKey]; nextKey = nextKey + 1 end
end

-- Live submissions are stamped first, first + 1, ...: one clock for the deployment (Redis'),
-- strictly increasing per board. When a window boundary falls among those moments, the call
-- starts at the boundary, so that it lands whole in one set of periods: ahead of Redis' clock by
-- less than the number of submissions in µs, as a busy board's clock already runs.
local first = math.max(now, clock + 1)
if live > 0 then
  for _, w in ipairs(windows) do
    for _, boundary in ipairs(w) do
      if boundary > first and boundary < first + live then first = boundary end
    end
  end
  for _, w in ipairs(windows) do
    if first < w[1] or (w[2] and first + live > w[2]) then
      return redis.error_reply('STALE_PERIODS ' .. string.format('%.0f', first))
    end
  end
end

-- The kinds some server follows live (src/domain/live): one read per call, and none for a
-- board that keeps ALL_TIME only, whose ranks are answered anyway.
local watched = {}
if m > 1 then
  local marks = redis.call('HGETALL', KEYS[2])
  for i = 1, #marks, 2 do
    if tonumber(marks[i + 1]) * 1000 > now then watched[marks[i]] = true end
  end
end

-- The player's current member and stored score in a slot, ignoring a bucket entry whose member
-- is gone (left behind by a board deleted and created again, or a period expired). `guess` is a
-- member the player may have there: a member ends with the player's code, so one the ranking
-- holds is the player's entry, found without reading the bucket.
local function current(item, j, guess)
  if guess then
    local stored = redis.call('ZSCORE', slots[item.slots[j]].ranking, guess)
    if stored then return guess, dir * tonumber(stored) end
  end
  local token = redis.call('HGET', item.buckets[j], item.player)
  if not token then return nil end
  local member = memberWith(token, item.code)
  local stored = redis.call('ZSCORE', slots[item.slots[j]].ranking, member)
  if not stored then return nil end
  return member, dir * tonumber(stored)
end

local function nextScore(old, submitted)
  if not old then return submitted end
  if policy == 'INCREMENT' then return old + submitted end
  if policy == 'BEST' and dir * submitted >= dir * old then return old end
  return submitted
end

-- Checks first. INCREMENT totals are followed through the batch per slot, since one player may
-- appear in it more than once.
local simulated, seenIdem = {}, {}
for s = 1, m do simulated[s] = {} end
for i, item in ipairs(items) do
  if item.at ~= '' then
    if tonumber(item.at) > now then
      return redis.error_reply('BAD_USER_INPUT item ' .. (i - 1) .. ': reachedAt is in the future')
    end
    local landing = false
    for _, s in ipairs(item.slots) do landing = landing or slots[s].kept end
    if not landing then
      return redis.error_reply('BAD_USER_INPUT item ' .. (i - 1) .. ': reachedAt is in no period the board still keeps')
    end
  end
  local key = item.idem
  local replayed = key and (seenIdem[key] or redis.call('EXISTS', key) == 1)
  if key then seenIdem[key] = true end
  if policy == 'INCREMENT' and not replayed then
    for j, s in ipairs(item.slots) do
      local old = simulated[s][item.player]
      if old == nil then
        local _, stored = current(item, j)
        old = stored
      end
      local total = nextScore(old, item.score)
      if math.abs(total) > MAX_SCORE then
        return redis.error_reply('BAD_USER_INPUT item ' .. (i - 1) .. ': the total would leave |score| <= 2^53 - 1')
      end
      simulated[s][item.player] = total
    end
  end
end

-- A bucket hash keeps a token without its import-sequence byte when that is 0 (a live
-- submission): one byte less per player in the listpack. memberOf (members.lua) puts it back.
local function storedToken(token)
  if #token == 8 and string.byte(token, 8) == 0 then return string.sub(token, 1, 7) end
  return token
end

-- 7-byte big-endian moment, then the import sequence as an order-preserving varint.
local function token(moment, seq)
  local out = {}
  local function push(value, width)
    local bytes = {}
    for b = width, 1, -1 do
      local byte = value % 256
      bytes[b] = string.char(byte)
      value = (value - byte) / 256
    end
    out[#out + 1] = table.concat(bytes)
  end
  push(moment, 7)
  if seq < 128 then
    out[#out + 1] = string.char(seq)
  else
    local width, limit = 1, 256
    while seq >= limit do width, limit = width + 1, limit * 256 end
    out[#out + 1] = string.char(128 + width)
    push(seq, width)
  end
  return table.concat(out)
end

-- A submission's event lines give its score and previous score in every period it moved, under
-- LATEST one score and mostly one previous score: each text is made once per call. Not 0's, since
-- -0 == 0 (one table key) but their texts differ.
local texts = {}
local function text(x)
  if x == 0 then return fmt(x) end
  local t = texts[x]
  if not t then
    t = fmt(x)
    texts[x] = t
  end
  return t
end

local results, replayed, events, nextLive = {}, {}, {}, first
for s = 1, m do events[s] = {} end
for i, item in ipairs(items) do
  local saved = item.idem and redis.call('GET', item.idem)
  if saved then
    results[i], replayed[i] = cmsgpack.unpack(saved), 1
  else
    local moment, tok, bucketToken, momentText, changedAny, result, guess
    if item.at == '' then moment, nextLive = nextLive, nextLive + 1 end
    for j, s in ipairs(item.slots) do
      local slot = slots[s]
      if slot.kept then
        local bucket = item.buckets[j]
        local member, old = current(item, j, guess)
        -- Under LATEST and INCREMENT a write that moves a player's entry moves it in every period
        -- the player is in, with one token: their entries in the other periods are likely this one.
        if member and not guess and policy ~= 'BEST' then guess = member end
        local score = nextScore(old, item.score)
        local changed = old == nil or score ~= old
        -- Ranks for the slot answered for, and for a watched period's event when it changed: the
        -- periods a submission leaves as they were cost one read each.
        local answered = result == nil
        local ranked = answered or slot.allTime or watched[slot.kind]
        local previousRank = -1
        if member and (answered or (changed and ranked)) then previousRank = redis.call('ZRANK', slot.ranking, member) end
        if changed then
          if not tok then
            local seq = 0
            if item.at ~= '' then moment, seq = tonumber(item.at), redis.call('HINCRBY', cfgKey, 'seq', 1) end
            if moment > clock then clock = moment end
            tok = token(moment, seq)
            bucketToken, momentText = storedToken(tok), string.format('%.0f', moment)
          end
          changedAny = true
          -- A period's keys expire with it, from when a write creates them, so nothing needs
          -- scheduling. The new entry goes in before the old one leaves, so a ranking this write
          -- finds is never emptied and recreated, and only a player new to the period can create it.
          local previous = member
          member = tok .. item.code
          redis.call('ZADD', slot.ranking, dir * score, member)
          if previous then
            redis.call('ZREM', slot.ranking, previous)
            if slot.allTime and cfg[6] then dropScore(distinct, slot.ranking, dir * old) end
          elseif slot.expiry ~= '' and redis.call('ZCARD', slot.ranking) == 1 then
            redis.call('PEXPIREAT', slot.ranking, slot.expiry)
          end
          if slot.allTime and cfg[6] then redis.call('ZADD', distinct, dir * score, scoreMember(dir * score)) end
          if redis.call('HSET', bucket, item.player, bucketToken) == 1 and slot.expiry ~= '' and redis.call('HLEN', bucket) == 1 then
            redis.call('PEXPIREAT', bucket, slot.expiry)
          end
        end
        if changed and not ranked then
          events[s][#events[s] + 1] = 's ' .. item.player .. ' ' .. text(score) .. ' - - ' .. (old and text(old) or '-') .. ' - ' .. momentText .. ' -'
        elseif answered or changed then
          local stored = fmt(dir * score)
          local rank, total = redis.call('ZRANK', slot.ranking, member), redis.call('ZCARD', slot.ranking)
          local shared = redis.call('ZCOUNT', slot.ranking, '-inf', '(' .. stored) + 1
          if answered then result = {member, stored, rank, shared, total, old and fmt(dir * old) or '', previousRank, 0, slot.kind, slot.key} end
          if changed then
            events[s][#events[s] + 1] = table.concat({'s', item.player, text(score), rank, shared, old and text(old) or '-',
              previousRank, momentText, total}, ' ')
          end
        end
      end
    end
    if changedAny then result[8] = 1 end
    if item.idem then redis.call('SET', item.idem, cmsgpack.pack(result), 'EX', ttl) end
    results[i], replayed[i] = result, 0
  end
end
local lines = {}
for s = 1, m do
  if #events[s] > 0 then
    if not slots[s].allTime then lines[#lines + 1] = 'p ' .. slots[s].kind .. ' ' .. slots[s].key end
    for _, line in ipairs(events[s]) do lines[#lines + 1] = line end
  end
end
if #lines > 0 then
  -- The clock only moves when something changed, so one HSET keeps both.
  local version = (tonumber(cfg[5]) or 0) + 1
  redis.call('HSET', cfgKey, 'clock', string.format('%.0f', clock), 'version', version)
  redis.call('SPUBLISH', ARGV[4], 'v ' .. version .. '\n' .. table.concat(lines, '\n'))
end
return {cfg[1], results, replayed}
