// The spectator page, /live/<boardId>, in headless Chromium against a real server and Redis.
// Waits are on the page's DOM (waitForFunction), never sleeps; a live change has 1 s to show.
import * as zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { onOwnRedis, TEST_KEYS, TestServer } from '../support/harness';
import { DurableRedis, uniqueId } from '../support/redis';
import { openPage, screenshot, settled, type TestPage, useBrowser } from '../support/browser';
import { SteppedClock } from '../support/fakeClock';
import { seedBoard, submit } from './fixtures';

const LIVE_CHANGE_MS = 1_000;
const PAGE_LOAD_MS = 10_000;
/** The server pings the page when it loses Redis and when it has it back; a deadline, not a wait. */
const HEALTH_CHECK_MS = 8_000;

const held = useBrowser();

/** A server (with or without anonymous reads) and a seeded board, for a describe block. */
function onSeededBoard(anonymousReads: boolean): { server: TestServer; board: string } {
  const own = {} as { server: TestServer; board: string };
  beforeAll(async () => {
    own.server = await TestServer.start(undefined, { anonymousReads });
    own.board = uniqueId('live');
    await seedBoard(own.server, own.board);
  });
  afterAll(() => own.server?.stop());
  return own;
}

/**
 * Waits until an element matching `selector` is there (Playwright's auto-waiting: the page's CSP
 * allows no string evaluation, and selectors need none).
 */
const until = (page: Page, selector: string, timeout = LIVE_CHANGE_MS) => page.locator(selector).first().waitFor({ timeout });
const state = (page: Page) => page.locator('#status').getAttribute('data-state');
/** Each row's cells (rank, shared rank, name, id, country, score, time), space-separated. */
const topRows = (page: Page) =>
  page.locator('#top .row').evaluateAll((rows) =>
    rows.map((row) => [...(row as unknown as { querySelectorAll(s: string): Iterable<{ firstChild: { textContent: string } }> }).querySelectorAll('span')]
      .map((cell) => cell.firstChild.textContent).join(' ')));
/** Live, with the top `rows` shown. */
async function untilLive(page: Page, rows: number, timeout = PAGE_LOAD_MS): Promise<void> {
  await until(page, status('live'), timeout);
  await until(page, `#top .row:nth-child(${rows}):last-child`, timeout);
}
const status = (name: string) => `#status[data-state="${name}"]`;

describe('the spectator page', () => {
  const own = onSeededBoard(true);
  let tab: TestPage;
  beforeEach(async () => {
    tab = await openPage(held.browser);
  });
  afterEach(() => tab?.context.close());

  it('shows the top with ranks, shared ranks, names and countries, and moves a row that changes the top 3', async () => {
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    expect(await page.locator('#title').textContent()).toBe('Blitz · Round 7');
    const rows = await topRows(page);
    expect(rows[0]).toMatch(/^1 Märta Lindqvist p01 SE 2,412 /);
    // Kenji and Amara tie at 2398: Kenji reached it first.
    expect(rows[1]).toMatch(/^2 Kenji Watanabe p02 JP 2,398 /);
    expect(rows[2]).toMatch(/^3 =2 Amara Okafor p03 NG 2,398 /);
    // No profile: the player id stands in.
    expect(rows[5]).toMatch(/^6 =5 p06 2,350 /);

    // The row is marked so that the one found on top afterwards is known to be it, moved.
    await page.locator('#top .row[data-player="p08"]').evaluate((row) => (row as unknown as { dataset: Record<string, string> }).dataset.mark = 'moved');
    expect(await submit(server, board, 'p08', 2405)).toBe(2);
    const moved = page.locator('#top .row:nth-child(2)[data-player="p08"][data-rank="2"][data-mark="moved"]');
    await moved.waitFor({ timeout: LIVE_CHANGE_MS });
    // It slides from where it was (FLIP) rather than jumping.
    expect(await moved.evaluate((row) => (row as unknown as { getAnimations(): unknown[] }).getAnimations().length)).toBeGreaterThan(0);
    expect((await topRows(page))[1]).toMatch(/^2 Arjun Mehta p08 IN 2,405 /);
    expect(await state(page)).toBe('live');
    await screenshot(page, 'spectator-top');
    expect(tab.blocked).toEqual([]);
    expect(tab.problems).toEqual([]);
  });

  it('shows the window around a searched player, live', async () => {
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}?top=5`);
    await untilLive(page, 5);
    await page.locator('#player').fill('p10');
    await page.locator('#search button').click();
    await until(page, '#around .row.me[data-player="p10"]', PAGE_LOAD_MS);
    expect(await page.locator('#around .row').count()).toBe(11);

    const rankBefore = Number(await page.locator('#around .row.me').getAttribute('data-rank'));
    await submit(server, board, 'p12', 2295);
    await until(page, `#around .row.me[data-rank="${rankBefore + 1}"]`);
    await settled(page);
    await screenshot(page, 'spectator-around');

    await page.locator('#player').fill('nobody');
    await page.locator('#search button').click();
    await page.getByText('nobody has no score on this board yet.').waitFor({ timeout: PAGE_LOAD_MS });
  });

  it('is usable at phone width', async () => {
    await tab.context.close();
    tab = await openPage(held.browser, { width: 390, height: 844 });
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    const { scrollWidth, innerWidth } = await page.evaluate(() => {
      const page = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
      return { scrollWidth: page.document.documentElement.scrollWidth, innerWidth: page.innerWidth };
    });
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await screenshot(page, 'spectator-phone');
  });

  it('is served with a strict Content-Security-Policy, and its script stays within its budget', async () => {
    const { server, board } = own;
    const response = await fetch(`${server.baseUrl}/live/${board}`);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'/);
    const script = /<script type="module" src="(\/assets\/live-\w+\.js)">/.exec(await response.text())![1];
    const asset = await fetch(`${server.baseUrl}${script}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(zlib.gzipSync(Buffer.from(await asset.arrayBuffer())).length).toBeLessThan(60 * 1024);
  });
});

describe('the spectator page where reads need a key', () => {
  const own = onSeededBoard(false);

  it('asks for a key, says clearly when one is wrong, and keeps a good one in the tab only', async () => {
    const tab = await openPage(held.browser);
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await until(page, status('refused'), PAGE_LOAD_MS);
    expect(await page.locator('#message').textContent()).toMatch(/^This board needs a key: enter a reader key above/);

    await page.locator('#key').fill('not-a-key-that-exists-0001');
    await page.locator('#key-form button').click();
    await page.getByText(/^The server refused this key/).waitFor({ timeout: PAGE_LOAD_MS });
    expect(await state(page)).toBe('refused');
    await screenshot(page, 'spectator-wrong-key');

    await page.locator('#key').fill(TEST_KEYS.reader);
    await page.locator('#key-form button').click();
    await untilLive(page, 10);
    expect(await page.locator('#message').isHidden()).toBe(true);
    expect(page.url()).toBe(`${server.baseUrl}/live/${board}`);
    const storage = await page.evaluate(() => {
      const page = globalThis as unknown as { sessionStorage: { getItem(key: string): string | null }; localStorage: { length: number } };
      return { key: page.sessionStorage.getItem('standings.key'), local: page.localStorage.length };
    });
    expect(storage).toEqual({ key: TEST_KEYS.reader, local: 0 });
    await tab.context.close();
  });
});

describe('the spectator page across a Redis restart', () => {
  const own = onOwnRedis(() => DurableRedis.start(), (redis) => redis.close(), { anonymousReads: true });

  it('shows "reconnecting" while the server has no Redis, then recovers by itself', async () => {
    const board = uniqueId('restart');
    await seedBoard(own.server, board);
    const tab = await openPage(held.browser);
    try {
      const { page } = tab;
      // The server says when it has lost Redis: the page asks nothing (N viewers, no N probes).
      const probes: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/readyz') probes.push(request.url());
      });
      await page.goto(`${own.server.baseUrl}/live/${board}`);
      await untilLive(page, 10);

      await own.redis.restart(async () => {
        await until(page, status('reconnecting'), HEALTH_CHECK_MS);
        await screenshot(page, 'spectator-reconnecting');
      });
      await untilLive(page, 10, HEALTH_CHECK_MS);

      await submit(own.server, board, 'p12', 2500);
      await until(page, '#top .row:first-child[data-player="p12"]');
      expect(probes).toEqual([]);
    } finally {
      await tab.context.close();
    }
  }, 60_000);
});

describe('the spectator page across a server restart', () => {
  it('shows "reconnecting" while the server is gone, then reconnects and follows the new one', async () => {
    const first = await TestServer.start(undefined, { anonymousReads: true });
    const board = uniqueId('server-restart');
    await seedBoard(first, board);
    const tab = await openPage(held.browser);
    let second: TestServer | undefined;
    try {
      const { page } = tab;
      await page.goto(`${first.baseUrl}/live/${board}`);
      await untilLive(page, 10);

      // "reconnecting" lasts only until the page's third failed attempt in a row (then "offline"),
      // which can come before a graceful stop has finished: watch for it from before the stop.
      const reconnecting = until(page, status('reconnecting'), PAGE_LOAD_MS);
      await first.stop();
      await reconnecting;
      second = await TestServer.start(undefined, { anonymousReads: true, port: Number(new URL(first.baseUrl).port) });
      await untilLive(page, 10);

      await submit(second, board, 'p11', 2500);
      await until(page, '#top .row:first-child[data-player="p11"]');
    } finally {
      await tab.context.close();
      await second?.stop();
    }
  }, 60_000);
});

describe('the spectator page on a period', () => {
  /** 2026-12-01T23:59:58 in Tokyo: the server's clocks (scripts' test-only now, periods, live timers) are the test's. */
  const START = Date.UTC(2026, 11, 1, 14, 59, 58);
  const clock = new SteppedClock(START);
  const own = {} as { server: TestServer; board: string };
  beforeAll(async () => {
    own.server = await TestServer.start(undefined, { anonymousReads: true, now: () => clock.nowMicros(), liveClock: clock });
    own.board = uniqueId('daily');
    await seedBoard(own.server, own.board, 'Daily blitz', { timeZone: 'Asia/Tokyo', kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] });
  });
  afterAll(() => own.server?.stop());

  it("shows which day it shows, and rolls over to the new (empty) day at Tokyo's midnight with the subscription", async () => {
    const tab = await openPage(held.browser);
    try {
      const { page } = tab;
      await page.goto(`${own.server.baseUrl}/live/${own.board}?period=DAILY`);
      await untilLive(page, 10);
      await until(page, '#period[data-kind="DAILY"][data-key="2026-12-01"]:visible');
      expect(await page.locator('#period').textContent()).toBe('Daily · 2026-12-01');
      await screenshot(page, 'spectator-daily');

      clock.advance(2_000); // midnight in Tokyo
      await until(page, '#period[data-key="2026-12-02"]');
      await until(page, '#top-note:visible');
      expect(await page.locator('#top .row').count()).toBe(0);

      // The new day fills from its own writes.
      await submit(own.server, own.board, 'p05', 10);
      clock.advance(100);
      await until(page, '#top .row[data-player="p05"][data-rank="1"]');
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});
