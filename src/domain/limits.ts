/** Limits every entry point (GraphQL today, others later) enforces the same way. */
export const MAX_SAFE_SCORE = Number.MAX_SAFE_INTEGER; // 2^53 - 1: beyond it integers stop being exact
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const MAX_TITLE_LENGTH = 200;
export const MAX_PAGE_SIZE = 1000;
export const MAX_RADIUS = 500;
export const MAX_BATCH_SIZE = 1000;
export const DEFAULT_CAPACITY = 1_000_000;
export const MAX_CAPACITY = 1_000_000_000;
