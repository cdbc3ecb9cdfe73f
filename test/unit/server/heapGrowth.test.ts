import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { HEAP_GROWING_PERCENT } from '../../../src/server/heapGrowth';

const MODULE = path.resolve(__dirname, '../../../src/server/heapGrowth.ts');

/**
 * The factor V8 applied to the old generation's limit at a full collection, in a fresh Node
 * process that calls fixHeapGrowth (unless `fix` is false) and then collects: read from V8's own
 * trace, since the flag has no getter. With a small maximum heap, for which V8 by itself would
 * choose a smaller factor: with Node's default, it chooses four for this heap too.
 */
function appliedFactor(nodeFlags: string[], fix = true): number {
  const script = `${fix ? `require(${JSON.stringify(MODULE)}).fixHeapGrowth();` : ''} const kept = []; for (let i = 0; i < 2e5; i++) kept.push({ i }); gc();`;
  const trace = execFileSync(
    process.execPath,
    ['--expose-gc', '--trace-gc-verbose', '--max-old-space-size=256', ...nodeFlags, '-r', 'ts-node/register/transpile-only', '-e', script],
    { encoding: 'utf8' },
  );
  // Node 20's V8 ends its "Limit:" line with the factor applied; later V8 (Node 24) prints that
  // factor on a line of its own, "factor 4.0 based on ...", which Node 20's V8 prints too but
  // before the flag overrides it.
  const ending = [...trace.matchAll(/\[HeapController\] Limit: .* \((\d+\.\d+)\)/g)];
  const factors = ending.length > 0 ? ending : [...trace.matchAll(/\[HeapController\] factor (\d+\.\d+) based on/g)];
  if (factors.length === 0) throw new Error(`no [HeapController] factor in V8's trace:\n${trace}`);
  return Number(factors[factors.length - 1][1]);
}

describe('fixHeapGrowth', () => {
  it("sets the old generation's growing factor that V8 applies at the next full collection", () => {
    expect(appliedFactor([], false)).toBeLessThan(1 + HEAP_GROWING_PERCENT / 100);
    expect(appliedFactor([])).toBe(1 + HEAP_GROWING_PERCENT / 100);
  });

  it("keeps the operator's own --heap-growing-percent", () => {
    expect(appliedFactor(['--heap-growing-percent=50'])).toBe(1.5);
  });
});
