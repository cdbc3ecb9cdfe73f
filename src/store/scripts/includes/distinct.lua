-- A board created with dense ranks (its 'dense' field set) keeps its distinct scores (st:{b}:d):
-- one member per stored score present in its ranking, so a dense rank is one ZCOUNT. The member is the stored score as 8 big-endian bytes: exact,
-- and shorter than its text for fractions. Every script that adds a ranking member adds its score
-- (ZADD distinct stored scoreMember(stored)); every one that removes one calls dropScore.
local function scoreMember(stored)
  if stored == 0 then stored = 0 end -- -0 and 0 are one score
  return struct.pack('>d', stored)
end

-- After a member with this stored score left the ranking: the score goes when nobody holds it.
local function dropScore(distinct, ranking, stored)
  local text = fmt(stored)
  if redis.call('ZCOUNT', ranking, text, text) == 0 then redis.call('ZREM', distinct, scoreMember(stored)) end
end
