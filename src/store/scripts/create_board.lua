--[[
  Creates a board, or returns the existing one when its config is the same.
  KEYS[1] config hash  st:{b}:cfg
  ARGV[1] sortOrder    DESCENDING | ASCENDING
  ARGV[2] updatePolicy BEST | LATEST | INCREMENT
  ARGV[3] title ('' with ARGV[4] = '' means no title)
  ARGV[4] '1' when a title is given
  ARGV[5] bucket count
  ARGV[6] the board's event channel (st:{b}:events)
  ARGV[7] '1' or '0': whether a new board keeps its distinct scores, for dense ranks (its
          'dense' field); '' for the default, yes, and to accept an existing board either way
  ARGV[8] the periods the board keeps, as canonical text ('' for ALL_TIME only: stored as no
          'periods' field, so boards from before periods read the same)
  (tests only: a last ARGV, the moment in µs that stands for Redis' clock: see includes/now.lua)
  Reply {created, sortOrder, updatePolicy, title, createdAt, buckets, denseRanks, periods}: created 0/1,
    title nil when none, createdAt in ms, denseRanks 0/1, periods the stored text ('' when none).
    An existing board is answered with its own periods whatever ARGV[8] says: the caller compares
    them (src/domain/periods/settings.ts names the setting that differs) and nothing is written here.
  A board it creates is published as 'v 0\nc' (version 0: nothing submitted yet), so that what
  a process kept about the id while no board had it is forgotten.
  Errors: CONFLICT [setting] when the board exists with another sortOrder, updatePolicy, title
    or denseRanks (the first that differs, in that order).
]]
-- @include "now"
local cfg = KEYS[1]
local title = ARGV[4] == '1' and ARGV[3] or false
local existing = redis.call('HMGET', cfg, 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'dense', 'periods')
if existing[1] then
  local dense = existing[6] and 1 or 0
  local settings = {{'sortOrder', existing[1] == ARGV[1]}, {'updatePolicy', existing[2] == ARGV[2]},
                    {'title', existing[3] == title}, {'denseRanks', ARGV[7] == '' or tonumber(ARGV[7]) == dense}}
  for _, setting in ipairs(settings) do
    if not setting[2] then
      return redis.error_reply('CONFLICT [' .. setting[1] .. '] leaderboard exists with a different ' .. setting[1])
    end
  end
  return {0, existing[1], existing[2], existing[3], tonumber(existing[4]), tonumber(existing[5]), dense, existing[7] or ''}
end
local dense = ARGV[7] == '0' and 0 or 1
local createdAt = math.floor(clockNow() / 1000)
redis.call('HSET', cfg, 'sortOrder', ARGV[1], 'updatePolicy', ARGV[2], 'createdAt', createdAt,
           'buckets', ARGV[5], 'clock', 0, 'seq', 0)
if title then redis.call('HSET', cfg, 'title', title) end
if dense == 1 then redis.call('HSET', cfg, 'dense', 1) end
-- 'pv' lets submit.lua tell a plan made for these periods from one made for a board since re-created.
if ARGV[8] ~= '' then redis.call('HSET', cfg, 'periods', ARGV[8], 'pv', redis.sha1hex(ARGV[8])) end
redis.call('SPUBLISH', ARGV[6], 'v 0\nc')
return {1, ARGV[1], ARGV[2], title, createdAt, tonumber(ARGV[5]), dense, ARGV[8]}
