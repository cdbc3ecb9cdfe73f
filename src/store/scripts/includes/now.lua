-- Redis' clock in µs: the one clock that stamps moments and decides the period they land in.
-- Tests replace this include (scriptLoader.ts, scripts/testing/now.lua; the test moment: scriptRunner.ts); production scripts hold no other.
local function clockNow()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
