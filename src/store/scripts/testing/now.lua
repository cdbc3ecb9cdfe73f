-- Tests only: the caller's moment in µs, the last ARGV, in place of Redis' TIME (see
-- loadScriptSource's `callerNow`). Loaded only by a LeaderboardStore built with a test clock.
local function clockNow()
  return tonumber(ARGV[#ARGV])
end
