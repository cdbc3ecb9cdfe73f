--[[
  Counts one request, or what one request spends (entries a combined view reads), in a fixed window.
  KEYS[1] the window's counter  st:rl:<scope>:<id>
  ARGV[1] window length, ms
  ARGV[2] how much to count
  Reply {count, resetInMs}: what was counted in the window so far (this included), and ms
    until the window ends
  The first request of a window starts it: the counter expires when the window ends.
]]
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
