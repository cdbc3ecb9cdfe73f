import * as v8 from 'node:v8';

/** The old generation may grow to four times what survived the last full collection before the next one. */
export const HEAP_GROWING_PERCENT = 300;
const FLAG = /--heap[-_]growing[-_]percent\b/;

/**
 * Fixes how far V8 lets the old generation grow between full (mark-compact) collections, unless
 * the operator chose it (`--heap-growing-percent` on Node's command line).
 *
 * Why: once V8's memory reducer has run (it does when one of its periodic checks sees a low
 * allocation rate, as a server with steady light traffic often looks), V8 grows the heap "slowly"
 * until committed memory grows by a tenth. With a live heap of a few tens of MB, the next limit
 * then sits closer than the young generation's size, so a full collection (marking the whole
 * heap) starts at once after each one, and the same steady load never ends that loop
 * (bench/notes/heap-growth.md). A fixed factor of four, the most V8 chooses by
 * itself for a server-sized heap (when allocation is heavy), keeps the limit clear of the young
 * generation whatever mode V8 is in: the server never collects more often than V8 would have it
 * under load, and V8 still bounds the limit by the maximum heap size. What it gives up is the
 * memory reducer's smaller heap while idle.
 *
 * Takes effect at the next full collection (V8 reads the flag whenever it sets a limit), so
 * calling it once at start-up is enough.
 */
export function fixHeapGrowth(): void {
  if (process.execArgv.some((arg) => FLAG.test(arg))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
