-- Callers pick bucket keys from a bucket count they cache; a board deleted and created again
-- may have another count, and this error tells the caller to refresh it and retry.
local STALE_BUCKETS = 'STALE_BUCKETS bucket count changed'
