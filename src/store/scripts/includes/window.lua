-- Entries [start, stop] (0-based, top-down) as member, stored score pairs, and the shared rank
-- of the first one; later shared ranks follow from comparing neighbouring scores.
local function slice(ranking, start, stop)
  if stop < start then return 0, {} end
  local items = redis.call('ZRANGE', ranking, start, stop, 'WITHSCORES')
  if #items == 0 then return 0, items end
  return redis.call('ZCOUNT', ranking, '-inf', '(' .. items[2]) + 1, items
end
