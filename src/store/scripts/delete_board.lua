--[[
  Deletes a board's config, ranking and distinct scores, so reads and writes see it gone at once; the caller
  then unlinks the bucket hashes (their count is returned) outside this script.
  KEYS[1] config hash  st:{b}:cfg
  KEYS[2] ranking zset st:{b}:z
  KEYS[3] distinct scores zset st:{b}:d
  ARGV[1] the board's event channel (st:{b}:events); 'd' is published there
  Reply: the bucket count, or -1 when the board did not exist.
]]
local buckets = redis.call('HGET', KEYS[1], 'buckets')
if not buckets then return -1 end
redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3])
redis.call('SPUBLISH', ARGV[1], 'd')
return tonumber(buckets)
