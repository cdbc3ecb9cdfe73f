--[[
  Adds seasons to a board: its periods become the caller's text, which the caller built from the
  periods it read (src/domain/periods/settings.ts: addSeasons), if the board still has those.
  KEYS[1] config hash  st:{b}:cfg
  ARGV[1] the fingerprint ('pv') of the periods the caller built on ('' for ALL_TIME only)
  ARGV[2] the periods with the seasons added, as canonical text
  ARGV[3] the earliest start among the seasons added, in µs
  ARGV[4] the board's event channel (st:{b}:events)
  Reply {sortOrder, updatePolicy, title, createdAt, buckets, denseRanks, periods}: as update_board.lua's
  'pv' becomes the new text's SHA-1, so a submission planned with the periods before is refused by
  submit.lua as stale and planned again with these. Bumps the board's version and publishes
  'v <version>\nu', which every process's cached board config follows.
  A season added must start after every moment the board has stamped and after Redis' now: a
  submission (or import) made before this call then cannot have a moment in it.
  Errors: NOT_FOUND (no such board); PERIODS_CHANGED (the board's periods are no longer those the
  caller built on: read them again); TOO_EARLY <moment> (a season added starts at or before
  <moment>, the latest of Redis' now and the board's clock, in µs).
]]
-- @include "now"

local cfg = KEYS[1]
local board = redis.call('HMGET', cfg, 'sortOrder', 'updatePolicy', 'title', 'createdAt', 'buckets', 'dense', 'pv', 'clock')
if not board[1] then return redis.error_reply('NOT_FOUND leaderboard does not exist') end
if (board[7] or '') ~= ARGV[1] then return redis.error_reply('PERIODS_CHANGED the board\'s periods changed') end
-- µs of 16 digits are exact as Lua numbers; only printing them needs %.0f.
local latest = math.max(clockNow(), tonumber(board[8]) or 0)
if tonumber(ARGV[3]) <= latest then return redis.error_reply('TOO_EARLY ' .. string.format('%.0f', latest)) end
redis.call('HSET', cfg, 'periods', ARGV[2], 'pv', redis.sha1hex(ARGV[2]))
local version = redis.call('HINCRBY', cfg, 'version', 1)
redis.call('SPUBLISH', ARGV[4], 'v ' .. version .. '\nu')
return {board[1], board[2], board[3], tonumber(board[4]), tonumber(board[5]), board[6] and 1 or 0, ARGV[2]}
