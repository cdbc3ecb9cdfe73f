--[[
  Applies score submissions to one board, in order and atomically: every check that can fail
  runs before the first write, so an error leaves the board as it was.
  KEYS[1]        config hash  st:{b}:cfg
  KEYS[2]        ranking zset st:{b}:z
  KEYS[3..2+n]   the bucket hash of each submission's player
  KEYS[3+n..]    idempotency keys, one per submission that has one, in submission order
  KEYS[last]     distinct scores zset st:{b}:d (kept only when the board's 'dense' field is set)
  ARGV[1]        the bucket count the caller used to pick bucket keys
  ARGV[2]        n, the number of submissions
  ARGV[3]        idempotency TTL in seconds
  ARGV[4]        the board's event channel (st:{b}:events)
  ARGV[5..]      four per submission: player id, score (%.17g),
                 reachedAt in µs ('' for a live submission), '1' when it has an idempotency key
  Reply {sortOrder, results, replayed}: replayed holds 1 for each submission answered with the
    record saved by an earlier one with the same idempotency key, else 0
  Reply results, one record per submission:
    {member, stored, rank0, sharedRank, total, previous, previousRank0, changed}: stored and
    previous are stored scores (score for ASCENDING boards, -score for DESCENDING ones),
    previous '' and previousRank0 -1 for a new player, changed 0/1. The record is what an
    idempotency key saves.
  When anything changed, bumps the board's version and publishes (SPUBLISH, so it works on
  Cluster too) one message: 'v <version>', then a line per change:
    's <player> <score> <rank0> <sharedRank> <previous score or -> <previous rank0 or -1> <reachedAt µs> <total>'
  Errors: NOT_FOUND (no such board); STALE_BUCKETS (the board was re-created with another
  bucket count: refresh it and retry); BAD_USER_INPUT (reachedAt in the future, or an INCREMENT
  whose total leaves |score| <= 2^53 - 1).
]]
-- @include "buckets"
-- @include "members"
-- @include "numbers"
-- @include "distinct"

local MAX_SCORE = 9007199254740991
local cfgKey, ranking, distinct = KEYS[1], KEYS[2], KEYS[#KEYS]
local n, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])

local cfg = redis.call('HMGET', cfgKey, 'sortOrder', 'updatePolicy', 'clock', 'buckets', 'version', 'dense')
if not cfg[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
if cfg[4] ~= ARGV[1] then return redis.error_reply(STALE_BUCKETS) end
local dir, policy, clock = direction(cfg[1]), cfg[2], tonumber(cfg[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])

local function arg(i, field) return ARGV[4 + (i - 1) * 4 + field] end

local idemKeys, nextIdem = {}, 3 + n
for i = 1, n do
  if arg(i, 4) == '1' then idemKeys[i] = KEYS[nextIdem]; nextIdem = nextIdem + 1 end
end

-- The player's current member and stored score, ignoring a bucket entry whose member is gone
-- (left behind by a board deleted and created again).
local function current(i)
  local token = redis.call('HGET', KEYS[2 + i], arg(i, 1))
  if not token then return nil end
  local member = memberOf(token, arg(i, 1))
  local stored = redis.call('ZSCORE', ranking, member)
  if not stored then return nil end
  return member, dir * tonumber(stored)
end

local function nextScore(old, submitted)
  if not old then return submitted end
  if policy == 'INCREMENT' then return old + submitted end
  if policy == 'BEST' and dir * submitted >= dir * old then return old end
  return submitted
end

-- Checks first. INCREMENT totals are followed through the batch, since one player may appear
-- in it more than once.
local simulated, seenIdem = {}, {}
for i = 1, n do
  local at, key = arg(i, 3), idemKeys[i]
  if at ~= '' and tonumber(at) > now then
    return redis.error_reply('BAD_USER_INPUT item ' .. (i - 1) .. ': reachedAt is in the future')
  end
  local replayed = key and (seenIdem[key] or redis.call('EXISTS', key) == 1)
  if key then seenIdem[key] = true end
  if policy == 'INCREMENT' and not replayed then
    local player = arg(i, 1)
    local old = simulated[player]
    if old == nil then
      local _, stored = current(i)
      old = stored
    end
    local total = nextScore(old, tonumber(arg(i, 2)))
    if math.abs(total) > MAX_SCORE then
      return redis.error_reply('BAD_USER_INPUT item ' .. (i - 1) .. ': the total would leave |score| <= 2^53 - 1')
    end
    simulated[player] = total
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

local results, replayed, events = {}, {}, {}
for i = 1, n do
  local key = idemKeys[i]
  local saved = key and redis.call('GET', key)
  if saved then
    results[i], replayed[i] = cmsgpack.unpack(saved), 1
  else
    local player, submitted, at = arg(i, 1), tonumber(arg(i, 2)), arg(i, 3)
    local member, old = current(i)
    local previousRank = member and redis.call('ZRANK', ranking, member) or -1
    local score = nextScore(old, submitted)
    local changed, moment = 0, nil
    if old == nil or score ~= old then
      changed = 1
      local seq
      if at == '' then
        -- One clock for the deployment (Redis'), strictly increasing per board.
        moment, seq = math.max(now, clock + 1), 0
      else
        moment, seq = tonumber(at), redis.call('HINCRBY', cfgKey, 'seq', 1)
      end
      if moment > clock then clock = moment end
      local tok = token(moment, seq)
      if member then
        redis.call('ZREM', ranking, member)
        if cfg[6] then dropScore(distinct, ranking, dir * old) end
      end
      member = tok .. playerCode(player)
      redis.call('ZADD', ranking, dir * score, member)
      if cfg[6] then redis.call('ZADD', distinct, dir * score, scoreMember(dir * score)) end
      redis.call('HSET', KEYS[2 + i], player, storedToken(tok))
    end
    local stored = fmt(dir * score)
    local rank, shared = redis.call('ZRANK', ranking, member), redis.call('ZCOUNT', ranking, '-inf', '(' .. stored) + 1
    local total = redis.call('ZCARD', ranking)
    local result = {member, stored, rank, shared, total, old and fmt(dir * old) or '', previousRank, changed}
    if key then redis.call('SET', key, cmsgpack.pack(result), 'EX', ttl) end
    if changed == 1 then
      events[#events + 1] = table.concat({'s', player, fmt(score), rank, shared, old and fmt(old) or '-',
        previousRank, string.format('%.0f', moment), total}, ' ')
    end
    results[i], replayed[i] = result, 0
  end
end
if #events > 0 then
  -- The clock only moves when something changed, so one HSET keeps both.
  local version = (tonumber(cfg[5]) or 0) + 1
  redis.call('HSET', cfgKey, 'clock', string.format('%.0f', clock), 'version', version)
  redis.call('SPUBLISH', ARGV[4], 'v ' .. version .. '\n' .. table.concat(events, '\n'))
end
return {cfg[1], results, replayed}
