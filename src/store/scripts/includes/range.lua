-- Positions [from, to) (0-based, top-down) of the entries whose score lies between min and max:
-- each a score's exact text, or '' for no bound, with '1' when it is exclusive. Scores are stored
-- as dir * score, so a DESCENDING board's max is its stored lower bound. Two ZCOUNTs at most.
local function scoreRange(ranking, dir, total, min, minExclusive, max, maxExclusive)
  local lo, loExclusive, hi, hiExclusive = min, minExclusive, max, maxExclusive
  if dir < 0 then lo, loExclusive, hi, hiExclusive = max, maxExclusive, min, minExclusive end
  -- Entries stored before `bound`, and also those at it when `through`.
  local function before(bound, through)
    return redis.call('ZCOUNT', ranking, '-inf', (through and '' or '(') .. fmt(dir * tonumber(bound)))
  end
  local from = lo == '' and 0 or before(lo, loExclusive == '1')
  local to = hi == '' and total or before(hi, hiExclusive ~= '1')
  return from, math.max(from, to)
end
