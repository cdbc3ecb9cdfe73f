--[[
  Counts one request in a fixed window.
  KEYS[1] the window's counter  st:rl:<scope>:<id>
  ARGV[1] window length, ms
  Reply {count, resetInMs}: requests counted in the window so far (this one included), and ms
    until the window ends
  The first request of a window starts it: the counter expires when the window ends.
]]
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
