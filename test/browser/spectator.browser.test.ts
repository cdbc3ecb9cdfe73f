// The spectator page, /live/<boardId>, in headless Chromium against a real server and Redis.
// Waits are on the page's DOM (locators), never sleeps; a live change has 1 s to show.
import * as zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { onOwnRedis, TEST_KEYS, TestServer } from '../support/harness';
import { DurableRedis, uniqueId } from '../support/redis';
import { docsScreenshot, openPage, screenshot, settled, type TestPage, useBrowser } from '../support/browser';
import { SteppedClock } from '../support/fakeClock';
import { seedBoard, submit } from './fixtures';
import { lowContrast } from './spectatorContrast';

const LIVE_CHANGE_MS = 1_000;
const PAGE_LOAD_MS = 10_000;
/** The server pings the page when it loses Redis and when it has it back; a deadline, not a wait. */
const HEALTH_CHECK_MS = 8_000;
/** The main board keeps these, so that the page has tabs (and no MONTHLY, for the refused period). */
const KEPT = { timeZone: 'UTC', kinds: [{ kind: 'ALL_TIME' as const }, { kind: 'DAILY' as const }, { kind: 'WEEKLY' as const }] };

const held = useBrowser();

/** A server (with or without anonymous reads) and a seeded board, for a describe block. */
function onSeededBoard(anonymousReads: boolean): { server: TestServer; board: string } {
  const own = {} as { server: TestServer; board: string };
  beforeAll(async () => {
    own.server = await TestServer.start(undefined, { anonymousReads });
    own.board = uniqueId('live');
    await seedBoard(own.server, own.board, undefined, KEPT);
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
/** Each row's cells (rank, shared rank, movement, name, id, country, score, time), space-separated. */
const topRows = (page: Page) =>
  page.locator('#top .row[data-player]').evaluateAll((rows) =>
    rows.map((row) => [...(row as unknown as { querySelectorAll(s: string): Iterable<{ firstChild: { textContent: string } | null }> }).querySelectorAll('span')]
      .map((cell) => cell.firstChild?.textContent ?? '').join(' ')));
/** Live, with the top `rows` shown. */
async function untilLive(page: Page, rows: number, timeout = PAGE_LOAD_MS): Promise<void> {
  await until(page, status('live'), timeout);
  await until(page, `#top .row[data-player]:nth-child(${rows}):last-child`, timeout);
}
const status = (name: string) => `#status[data-state="${name}"]`;
/** The page's WebSockets, and a promise per socket of its close. */
function socketsOf(page: Page): Promise<unknown>[] {
  const closes: Promise<unknown>[] = [];
  page.on('websocket', (socket) => closes.push(new Promise((resolve) => socket.on('close', resolve))));
  return closes;
}

describe('the spectator page', () => {
  const own = onSeededBoard(true);
  let tab: TestPage;
  beforeEach(async () => {
    tab = await openPage(held.browser);
  });
  afterEach(() => tab?.context.close());

  it('shows the top with ranks, names and countries, each move since the viewer came, and the latest scores', async () => {
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    expect(await page.locator('#title').textContent()).toBe('Blitz · Round 7');
    // Anonymous reads work here: nothing asks for a key.
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    const rows = await topRows(page);
    expect(rows[0]).toMatch(/^1 {2}Märta Lindqvist p01 SE 2,412 /);
    // Kenji and Amara tie at 2398: Kenji reached it first.
    expect(rows[1]).toMatch(/^2 {2}Kenji Watanabe p02 JP 2,398 /);
    expect(rows[2]).toMatch(/^3 =2 {2}Amara Okafor p03 NG 2,398 /);
    // No profile: the player id stands in.
    expect(rows[5]).toMatch(/^6 =5 {2}p06 2,350 /);
    expect(await page.locator('.latest').isHidden()).toBe(true);

    // The row is marked so that the one found on top afterwards is known to be it, moved.
    await page.locator('#top .row[data-player="p08"]').evaluate((row) => (row as unknown as { dataset: Record<string, string> }).dataset.mark = 'moved');
    expect(await submit(server, board, 'p08', 2405)).toBe(2);
    const moved = page.locator('#top .row[data-player]:nth-child(2)[data-player="p08"][data-rank="2"][data-mark="moved"]');
    await moved.waitFor({ timeout: LIVE_CHANGE_MS });
    // It opens its new place rather than jumping.
    expect(await moved.evaluate((row) => (row as unknown as { getAnimations(): unknown[] }).getAnimations().length)).toBeGreaterThan(0);
    expect((await topRows(page))[1]).toMatch(/^2 ▲6 Arjun Mehta p08 IN 2,405 /);
    // Those it passed went down one each.
    expect((await topRows(page))[2]).toMatch(/^3 ▼1 Kenji Watanabe/);
    await until(page, '#ticker .tick[data-player="p08"]');
    expect(await page.locator('#ticker .tick').first().textContent()).toMatch(/^Arjun Mehta2,405#2▲6/);

    // A player new to the board: the ticker keeps the five latest, newest first.
    for (const [player, score] of [['p13', 100], ['p14', 101], ['p15', 102], ['p16', 103], ['p17', 104]] as const) await submit(server, board, player, score);
    await until(page, '#ticker .tick:first-child[data-player="p17"]');
    expect(await page.locator('#ticker .tick').evaluateAll((ticks) => ticks.map((tick) => (tick as unknown as { dataset: { player: string } }).dataset.player)))
      .toEqual(['p17', 'p16', 'p15', 'p14', 'p13']);
    expect(await page.locator('#ticker .tick:first-child .move').textContent()).toBe('new');
    expect(await state(page)).toBe('live');
    await settled(page);
    await screenshot(page, 'spectator-top');
    expect(tab.blocked).toEqual([]);
    expect(tab.problems).toEqual([]);
  });

  it('animates rows entering and leaving the top without any row covering another', async () => {
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    // From the first change of the list to the end of its animations, every frame: each visible
    // row's box, and whether a row grows in.
    await page.evaluate(() => {
      type Box = { top: number; bottom: number };
      interface Row { dataset: Record<string, string>; classList: { contains(name: string): boolean }; getBoundingClientRect(): Box; getAnimations(): unknown[] }
      const page = globalThis as unknown as {
        document: { getElementById(id: string): { querySelectorAll(s: string): Iterable<Row>; getAnimations(o: { subtree: boolean }): { constructor: { name: string } }[] } };
        requestAnimationFrame(callback: () => void): void;
        MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { childList: boolean }): void; disconnect(): void };
        samples: { frames: number; overlaps: string[]; entering: string[]; leaving: number };
      };
      const list = page.document.getElementById('top');
      const samples = { frames: 0, overlaps: [] as string[], entering: [] as string[], leaving: 0 };
      const sample = () => {
        const boxes = [...list.querySelectorAll('.row')].map((row) => ({ row, box: row.getBoundingClientRect() })).filter(({ box }) => box.bottom - box.top > 0.5);
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const overlap = Math.min(boxes[i].box.bottom, boxes[j].box.bottom) - Math.max(boxes[i].box.top, boxes[j].box.top);
            if (overlap > 0.5) samples.overlaps.push(`${boxes[i].row.dataset.player ?? 'leaving'} / ${boxes[j].row.dataset.player ?? 'leaving'}: ${overlap}px`);
          }
        }
        for (const { row } of boxes) if (row.dataset.player && row.getAnimations().length > 0 && !samples.entering.includes(row.dataset.player)) samples.entering.push(row.dataset.player);
        // The row pushed out shrinks away in its place.
        samples.leaving = Math.max(samples.leaving, boxes.filter(({ row }) => row.classList.contains('leaving')).length);
        samples.frames += 1;
        if (list.getAnimations({ subtree: true }).some((animation) => animation.constructor.name !== 'CSSAnimation')) page.requestAnimationFrame(sample);
        else page.samples = samples;
      };
      const observer = new page.MutationObserver(() => {
        observer.disconnect();
        sample();
      });
      observer.observe(list, { childList: true });
    });
    // A newcomer at rank 2 pushes the others down one and the tenth out.
    await submit(server, board, uniqueId('newcomer').slice(0, 20), 2410);
    const result = await page.waitForFunction(() => (globalThis as unknown as { samples?: unknown }).samples, undefined, { timeout: PAGE_LOAD_MS });
    const samples = (await result.jsonValue()) as { frames: number; overlaps: string[]; entering: string[]; leaving: number };
    expect(samples.frames).toBeGreaterThan(2);
    expect(samples.overlaps).toEqual([]);
    expect(samples.entering).toHaveLength(1);
    expect(samples.entering[0]).toMatch(/^newcomer/);
    expect(samples.leaving).toBe(1);
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

  it('has tabs for the periods the board keeps, each switching the page and its URL', async () => {
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    const tabs = page.locator('#periods a');
    expect(await tabs.allTextContents()).toEqual(['All time', 'Today', 'This week']);
    expect(await page.locator('#periods a[aria-current="page"]').textContent()).toBe('All time');

    await page.getByRole('link', { name: 'This week' }).click();
    await until(page, '#period[data-kind="WEEKLY"]:visible', PAGE_LOAD_MS);
    expect(new URL(page.url()).searchParams.get('period')).toBe('WEEKLY');
    expect(await page.locator('#periods a[aria-current="page"]').textContent()).toBe('This week');
    await untilLive(page, 10);
    // Only this week's scores: the seeded ones were all this week, and so is a new one.
    await submit(server, board, 'p12', 2700);
    await until(page, '#top .row:first-child[data-player="p12"]');

    await page.getByRole('link', { name: 'All time' }).click();
    await until(page, '#periods a[aria-current="page"][data-kind="ALL_TIME"]', PAGE_LOAD_MS);
    expect(new URL(page.url()).searchParams.get('period')).toBe('ALL_TIME');
    expect(tab.problems).toEqual([]);
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

  it.each([
    ['desktop', 'light', { width: 1100, height: 800 }],
    ['desktop', 'dark', { width: 1100, height: 800 }],
    ['phone', 'light', { width: 390, height: 844 }],
    ['phone', 'dark', { width: 390, height: 844 }],
  ] as const)('has WCAG AA contrast for all its text at %s width, %s', async (_width, colorScheme, size) => {
    await tab.context.close();
    tab = await openPage(held.browser, size);
    const { page } = tab;
    const { server, board } = own;
    await page.emulateMedia({ colorScheme });
    await page.goto(`${server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    // Moves up and down, the ticker, a highlighted player: every kind of text the page shows.
    const [last] = (await topRows(page)).slice(-1);
    const climber = /^\d+ \S* *.* (p\d+)/.exec(last)![1];
    await submit(server, board, climber, 2500 + Math.round(Math.random() * 100));
    await until(page, `#top .row[data-player="${climber}"] .move[data-kind="up"]`);
    await until(page, `#ticker .tick[data-player="${climber}"]`);
    await page.locator('#player').fill('p05');
    await page.locator('#search button').click();
    await until(page, '#around .row.me', PAGE_LOAD_MS);
    await settled(page);
    expect(await lowContrast(page)).toEqual([]);

    // The badge in each of its states.
    for (const name of ['connecting', 'reconnecting', 'offline', 'key-needed', 'refused', 'missing', 'unkept', 'ended']) {
      await page.locator('#status').evaluate((badge, value) => (badge as unknown as { dataset: { state: string } }).dataset.state = value, name);
      expect(await lowContrast(page)).toEqual([]);
    }
  });

  it('has a broadcast mode for streams: transparent, large type, no controls', async () => {
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}?overlay=1`);
    await untilLive(page, 10);
    await submit(server, board, 'p11', 2420 + Math.round(Math.random() * 50));
    await until(page, '#ticker .tick[data-player="p11"]');
    await settled(page);
    const look = await page.evaluate(() => {
      interface Element { getBoundingClientRect(): { width: number } }
      const page = globalThis as unknown as {
        document: { documentElement: Element; body: Element; querySelector(s: string): Element; querySelectorAll(s: string): Iterable<Element> };
        getComputedStyle(element: Element): { backgroundColor: string; fontSize: string };
      };
      const { document } = page;
      return {
        root: page.getComputedStyle(document.documentElement).backgroundColor,
        body: page.getComputedStyle(document.body).backgroundColor,
        controls: [...document.querySelectorAll('form, input, button, nav a')].filter((element) => element.getBoundingClientRect().width > 0).length,
        title: parseFloat(page.getComputedStyle(document.querySelector('h1')).fontSize),
        row: parseFloat(page.getComputedStyle(document.querySelector('#top .name')).fontSize),
      };
    });
    expect(look).toEqual({ root: 'rgba(0, 0, 0, 0)', body: 'rgba(0, 0, 0, 0)', controls: 0, title: expect.any(Number), row: expect.any(Number) });
    expect(look.title).toBeGreaterThanOrEqual(36);
    expect(look.row).toBeGreaterThanOrEqual(24);
    // For the picture only: a stand-in for the game the overlay is laid over.
    await page.evaluate(() => {
      const { style } = (globalThis as unknown as { document: { documentElement: { style: { background: string; minHeight: string } } } }).document.documentElement;
      style.background = 'linear-gradient(135deg, #4a6b52, #1d2f4a 60%, #3b2540)';
      style.minHeight = '100vh';
    });
    await docsScreenshot(page, 'spectator-overlay');
  });

  it.each([
    ['spectator', { width: 1100, height: 800 }],
    ['spectator-phone', { width: 390, height: 844 }],
  ] as const)('makes the docs picture %s', async (picture, size) => {
    await tab.context.close();
    tab = await openPage(held.browser, size);
    const { page } = tab;
    const board = uniqueId('docs');
    await seedBoard(own.server, board, 'Blitz · Round 7', KEPT);
    await page.goto(`${own.server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    for (const [player, score] of [['p11', 2380], ['p09', 2405], ['p04', 2420]] as const) {
      await submit(own.server, board, player, score);
      await until(page, `#ticker .tick:first-child[data-player="${player}"]`);
    }
    await settled(page);
    await docsScreenshot(page, picture);
  });

  it('says a board is not there, and stays so (no reconnecting)', async () => {
    const { page } = tab;
    const sockets = socketsOf(page);
    await page.goto(`${own.server.baseUrl}/live/no-such-board`);
    await until(page, status('missing'), PAGE_LOAD_MS);
    expect(await page.locator('#status').textContent()).toBe('not found');
    expect(await page.locator('#message').textContent()).toBe('There is no board "no-such-board". Check the address.');
    // The page lets its socket go: its close is not a failure to reconnect from.
    await Promise.all(sockets);
    expect(sockets).toHaveLength(1);
    expect(await state(page)).toBe('missing');
    expect(await page.locator('#top-note').isHidden()).toBe(true);
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await screenshot(page, 'spectator-missing');
  });

  it('says which period the board does not keep, and offers those it keeps', async () => {
    const { page } = tab;
    const sockets = socketsOf(page);
    await page.goto(`${own.server.baseUrl}/live/${own.board}?period=MONTHLY`);
    await until(page, status('unkept'), PAGE_LOAD_MS);
    expect(await page.locator('#message').textContent()).toBe('This board does not keep MONTHLY periods: pick one it keeps above.');
    await until(page, '#periods a >> nth=2', PAGE_LOAD_MS);
    expect(await page.locator('#periods a').allTextContents()).toEqual(['All time', 'Today', 'This week']);
    await Promise.all(sockets);
    expect(await state(page)).toBe('unkept');
    expect(await page.locator('#top-note').isHidden()).toBe(true);

    await page.getByRole('link', { name: 'Today' }).click();
    await untilLive(page, 10);
    expect(new URL(page.url()).searchParams.get('period')).toBe('DAILY');
    expect(await page.locator('#message').isHidden()).toBe(true);
  });

  it('ends, with no reconnecting, when the board is deleted while watched', async () => {
    const { page } = tab;
    const board = uniqueId('deleted');
    await seedBoard(own.server, board);
    const sockets = socketsOf(page);
    await page.goto(`${own.server.baseUrl}/live/${board}`);
    await untilLive(page, 10);
    expect(await own.server.server.services.leaderboards.deleteBoard(board)).toBe(true);
    await until(page, status('ended'));
    expect(await page.locator('#message').textContent()).toBe(`The board "${board}" was deleted: this page will not change any more.`);
    await Promise.all(sockets);
    expect(await state(page)).toBe('ended');
    expect(await page.locator('#top-note').isHidden()).toBe(true);
    expect(await page.locator('#top').isHidden()).toBe(true);
    await screenshot(page, 'spectator-deleted');
  });

  it('says "offline" while the browser is offline, and comes back by itself', async () => {
    const { page } = tab;
    await page.goto(`${own.server.baseUrl}/live/${own.board}`);
    await untilLive(page, 10);
    await tab.context.setOffline(true);
    await until(page, status('offline'));
    await tab.context.setOffline(false);
    await untilLive(page, 10);
  });
});

describe('the spectator page where reads need a key', () => {
  const own = onSeededBoard(false);

  it('asks for a key, says clearly when one is wrong, and keeps a good one in the tab only', async () => {
    const tab = await openPage(held.browser);
    const { page } = tab;
    const { server, board } = own;
    await page.goto(`${server.baseUrl}/live/${board}`);
    await until(page, status('key-needed'), PAGE_LOAD_MS);
    expect(await page.locator('#status').textContent()).toBe('key needed');
    expect(await page.locator('#message').textContent()).toMatch(/^This board needs a key: enter a reader key above/);
    expect(await page.locator('#key-form').isVisible()).toBe(true);

    await page.locator('#key').fill('not-a-key-that-exists-0001');
    await page.locator('#key-form button').click();
    await page.getByText(/^The server refused this key/).waitFor({ timeout: PAGE_LOAD_MS });
    expect(await state(page)).toBe('refused');
    expect(await page.locator('#status').textContent()).toBe('key refused');
    expect(await lowContrast(page)).toEqual([]);
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

  it('asks for a key in the broadcast mode too (its only control then)', async () => {
    const tab = await openPage(held.browser);
    try {
      const { page } = tab;
      await page.goto(`${own.server.baseUrl}/live/${own.board}?overlay=1`);
      await until(page, status('key-needed'), PAGE_LOAD_MS);
      expect(await page.locator('#key-form').isVisible()).toBe(true);
      await page.locator('#key').fill(TEST_KEYS.reader);
      await page.locator('#key-form button').click();
      await untilLive(page, 10);
      expect(await page.locator('#key-form').isHidden()).toBe(true);
    } finally {
      await tab.context.close();
    }
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
        expect(await lowContrast(page)).toEqual([]);
        await screenshot(page, 'spectator-reconnecting');
      });
      await untilLive(page, 10, HEALTH_CHECK_MS);

      await submit(own.server, board, 'p12', 2500);
      // Bounded like the recovery itself: the server's live connection has just come back.
      await until(page, '#top .row:first-child[data-player="p12"]', HEALTH_CHECK_MS);
      expect(probes).toEqual([]);
    } finally {
      await tab.context.close();
    }
  }, 60_000);
});

describe('the spectator page across a server restart', () => {
  it('shows "reconnecting", then "offline" while the server is gone, then reconnects and follows the new one', async () => {
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
      await until(page, status('offline'), PAGE_LOAD_MS);
      expect(await page.locator('#status').textContent()).toBe('offline');
      second = await TestServer.start(undefined, { anonymousReads: true, port: Number(new URL(first.baseUrl).port) });
      await untilLive(page, 10, 20_000);

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
      await until(page, '#periods a[aria-current="page"][data-kind="DAILY"]', PAGE_LOAD_MS);
      await screenshot(page, 'spectator-daily');

      clock.advance(2_000); // midnight in Tokyo
      await until(page, '#period[data-key="2026-12-02"]');
      await until(page, '#top-note:visible');
      expect(await page.locator('#top .row[data-player]').count()).toBe(0);

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
