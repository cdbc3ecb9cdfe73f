-- Exact text for a double: Lua's tostring keeps only 14 significant digits.
local function fmt(x)
  return string.format('%.17g', x)
end

-- Scores are stored as dir * score so that ascending sorted-set order is rank order for both
-- kinds of board, and equal scores fall back to the member bytes (the token) in the same way.
local function direction(sortOrder)
  if sortOrder == 'DESCENDING' then return -1 end
  return 1
end
