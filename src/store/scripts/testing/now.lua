-- Tests only: the caller's moment in µs, the last ARGV, in place of Redis' TIME (see
-- scriptLoader.ts, clock 'caller'). Loaded only by a LeaderboardStore built with the test option testNow.
local function clockNow()
  return tonumber(ARGV[#ARGV])
end
