--[[
  Reads every player of some bucket hashes of one board's rankings, for a combined view's build.
  A build reads its sources a few buckets a call, so that no call holds Redis for long; a
  player is in one bucket (the same index in every ranking of the board), so each is read once,
  in one call for all the sources, and its entries in them are as of one moment.
  KEYS[1]      config hash  st:{b}:cfg
  KEYS[2..]    for each source in turn: its ranking zset, then the bucket hashes this call reads
  ARGV[1]      the bucket count the caller used to pick bucket keys
  ARGV[2]      how many bucket keys follow each ranking
  Errors: STALE_BUCKETS (the board was re-created with another bucket count: refresh, retry)
  Reply: one list per source, in the order of KEYS (none for an unknown board), each holding
    its entries end to end: member, stored score (exact, as Redis writes it), member, stored...
]]
-- @include "buckets"
-- @include "members"

local buckets = redis.call('HGET', KEYS[1], 'buckets')
if not buckets then return {} end
if buckets ~= ARGV[1] then return redis.error_reply(STALE_BUCKETS) end
local perSource = tonumber(ARGV[2])
local reply = {}
for at = 2, #KEYS, perSource + 1 do
  local ranking, entries = KEYS[at], {}
  for b = at + 1, at + perSource do
    local fields = redis.call('HGETALL', KEYS[b])
    if #fields > 0 then
      local members = {}
      for f = 1, #fields, 2 do members[#members + 1] = memberOf(fields[f + 1], fields[f]) end
      -- One ZMSCORE per bucket: a call from Lua costs Redis more than the lookup it makes.
      local scores = redis.call('ZMSCORE', ranking, unpack(members))
      for m = 1, #members do
        if scores[m] then
          entries[#entries + 1] = members[m]
          entries[#entries + 1] = scores[m]
        end
      end
    end
  end
  reply[#reply + 1] = entries
end
return reply
