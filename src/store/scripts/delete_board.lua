--[[
  Deletes a board's config and ranking, so reads and writes see it gone at once; the caller
  then unlinks the bucket hashes (their count is returned) outside this script.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  Returns the bucket count, or -1 when the board did not exist.
]]
local buckets = redis.call('HGET', KEYS[1], 'buckets')
if not buckets then return -1 end
redis.call('UNLINK', KEYS[1], KEYS[2])
return tonumber(buckets)
