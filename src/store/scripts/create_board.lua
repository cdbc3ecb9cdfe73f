--[[
  Creates a board, or returns the existing one when its config is the same.
  KEYS[1] config hash  st:{b}:cfg
  ARGV[1] sortOrder    DESCENDING | ASCENDING
  ARGV[2] updatePolicy BEST | LATEST | INCREMENT
  ARGV[3] title ('' with ARGV[4] = '' means no title)
  ARGV[4] '1' when a title is given
  ARGV[5] bucket count
  ARGV[6] the board's event channel (st:{b}:events)
  Reply {created, sortOrder, updatePolicy, title, createdAt, buckets}: created 0/1, title nil
    when none, createdAt in ms
  A board it creates is published as 'v 0\nc' (version 0: nothing submitted yet), so that what
  a process kept about the id while no board had it is forgotten.
  Errors: CONFLICT [setting] when the board exists with another sortOrder, updatePolicy or title
    (the first that differs, in that order).
]]
local cfg = KEYS[1]
local title = ARGV[4] == '1' and ARGV[3] or false
local existing = redis.call('HMGET', cfg, 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets')
if existing[1] then
  local settings = {{'sortOrder', ARGV[1]}, {'updatePolicy', ARGV[2]}, {'title', title}}
  for i, setting in ipairs(settings) do
    if existing[i] ~= setting[2] then
      return redis.error_reply('CONFLICT [' .. setting[1] .. '] leaderboard exists with a different ' .. setting[1])
    end
  end
  return {0, existing[1], existing[2], existing[3], tonumber(existing[4]), tonumber(existing[5])}
end
local t = redis.call('TIME')
local createdAt = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', cfg, 'sortOrder', ARGV[1], 'updatePolicy', ARGV[2], 'createdAt', createdAt,
           'buckets', ARGV[5], 'clock', 0, 'seq', 0)
if title then redis.call('HSET', cfg, 'title', title) end
redis.call('SPUBLISH', ARGV[6], 'v 0\nc')
return {1, ARGV[1], ARGV[2], title, createdAt, tonumber(ARGV[5])}
