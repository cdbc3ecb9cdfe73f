/** Limits every entry point (GraphQL today, others later) enforces the same way. */
export const MAX_SAFE_SCORE = Number.MAX_SAFE_INTEGER; // 2^53 - 1: beyond it integers stop being exact
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const MAX_TITLE_LENGTH = 200;
export const MAX_PAGE_SIZE = 1000;
/** Page size of a connection read with neither `first` nor `last`. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_RADIUS = 500;
/** At most one refresh for changes per board (so one update per subscription) in this time. */
export const UPDATE_INTERVAL_MS = 100;
/** The slowest rate a subscription may ask for (`every`) of updates caused by other players. */
export const MAX_UPDATE_EVERY_MS = 60_000;
/**
 * What the live subscriptions one WebSocket connection holds may cost together
 * (LIVE_COST_PER_CONNECTION), and those of one client over all its connections to one server
 * process (LIVE_COST_PER_CLIENT): a subscription costs the entries each of its updates may carry
 * (src/graphql/liveCost.ts), which is what its updates cost to read, execute and send. The
 * subscriptions cap alone let one connection hold 100 windows of 1,001 entries.
 */
export const DEFAULT_LIVE_COST_PER_CONNECTION = 2_000;
export const DEFAULT_LIVE_COST_PER_CLIENT = 2_000;
export const MAX_BATCH_SIZE = 1000;
/** Entries one bulk removal may take away; past it the call is refused and removes nothing. */
export const MAX_REMOVALS_PER_CALL = 1000;
/** Rankings one combined view may take in (`combined(sources:)`). */
export const MAX_COMBINED_SOURCES = 16;
/** A combined view's weights lie in (0, MAX_COMBINED_WEIGHT]. */
export const MAX_COMBINED_WEIGHT = 1_000_000;
/** How long a built combined view answers reads before it is built again (COMBINED_VIEW_TTL_MS). */
export const DEFAULT_COMBINED_VIEW_TTL_MS = 2_000;
export const MAX_COMBINED_VIEW_TTL_MS = 600_000;
/** Entries the combined-view builds one request starts may read in all (VIEW_ENTRIES_PER_REQUEST). */
export const DEFAULT_VIEW_ENTRIES_PER_REQUEST = 1_000_000;
export const DEFAULT_CAPACITY = 1_000_000;
export const MAX_CAPACITY = 1_000_000_000;

// What one GraphQL document may ask for, over HTTP and WebSocket alike (src/graphql/validationRules.ts).
/** Fields nested in fields; the deepest useful query (entries of an entry's board) needs 8. */
export const MAX_QUERY_DEPTH = 10;
export const MAX_QUERY_ALIASES = 100;
/** Combined views one operation may open: `combined` fields, and Node ids of views or of what is on one. */
export const MAX_OPERATION_VIEWS = 4;
/** Fields resolved, each list field counted as many times as its page or batch size allows. */
export const MAX_QUERY_COST = 20_000;
/**
 * Bounds the parser's work and nesting (it recurses once per level and overflows the stack at a
 * few thousand); send large batches as variables, which do not count.
 */
export const MAX_QUERY_TOKENS = 2_000;
/**
 * Query texts longer than this are parsed and validated on every request instead of being kept:
 * a few thousand tokens may still hold a megabyte of string literals, and caches of a few hundred
 * texts must stay within a few MB whatever clients send. Hot operations are short.
 */
export const MAX_KEPT_QUERY_LENGTH = 8 * 1024;
/** Distinct query texts a cache of parsed documents keeps (clients send the same few). */
export const MAX_KEPT_QUERIES = 500;
