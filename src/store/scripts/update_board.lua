--[[
  Changes the settings of a board that can change without rebuilding it: the title and the
  update policy (which only decides how later submissions combine). The sort order and the bucket
  count are what stored scores and bucket keys are built from, and the distinct scores kept for
  dense ranks would have to be rebuilt: asking to change them is refused.
  KEYS[1] config hash  st:{b}:cfg
  ARGV[1] 'keep', 'set' or 'clear': what becomes of the title
  ARGV[2] the new title (with 'set')
  ARGV[3] the new update policy ('' keeps it)
  ARGV[4] the sort order the caller expects ('' for any)
  ARGV[5] the bucket count the caller's capacity makes ('' for any)
  ARGV[6] the board's event channel (st:{b}:events)
  ARGV[7] '1' or '0': whether the caller expects dense ranks ('' for any)
  Reply {changed, sortOrder, updatePolicy, title, createdAt, buckets, denseRanks, periods}: changed 0/1,
    title nil when none, createdAt in ms, denseRanks 0/1, periods as create_board.lua's
  When something changed, bumps the board's version and publishes 'v <version>\nu'.
  Errors: NOT_FOUND (no such board); BAD_USER_INPUT [field] (another sort order, bucket count or denseRanks).
]]
local cfg = KEYS[1]
local existing = redis.call('HMGET', cfg, 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'dense', 'periods')
local dense = existing[6] and 1 or 0
if not existing[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
if ARGV[4] ~= '' and ARGV[4] ~= existing[1] then
  return redis.error_reply('BAD_USER_INPUT [sortOrder] sortOrder cannot change: scores are stored in its order; create another board')
end
if ARGV[5] ~= '' and tonumber(ARGV[5]) ~= tonumber(existing[5]) then
  return redis.error_reply('BAD_USER_INPUT [capacity] capacity cannot change: players are spread over buckets sized by it; create another board')
end
if ARGV[7] ~= '' and tonumber(ARGV[7]) ~= dense then
  return redis.error_reply('BAD_USER_INPUT [denseRanks] denseRanks cannot change: the distinct scores would have to be rebuilt; create another board')
end
local policy, title = existing[2], existing[3]
if ARGV[3] ~= '' then policy = ARGV[3] end
if ARGV[1] == 'set' then title = ARGV[2] elseif ARGV[1] == 'clear' then title = false end
local changed = policy ~= existing[2] or title ~= existing[3]
if changed then
  redis.call('HSET', cfg, 'updatePolicy', policy)
  if title then redis.call('HSET', cfg, 'title', title) else redis.call('HDEL', cfg, 'title') end
  local version = redis.call('HINCRBY', cfg, 'version', 1)
  redis.call('SPUBLISH', ARGV[6], 'v ' .. version .. '\nu')
end
return {changed and 1 or 0, existing[1], policy, title, tonumber(existing[4]), tonumber(existing[5]), dense, existing[7] or ''}
