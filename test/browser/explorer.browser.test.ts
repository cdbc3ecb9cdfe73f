// The explorer (GraphiQL served by Standings itself) in headless Chromium with every request off
// this machine refused, on a server as a fresh `npm start` makes it: no board yet, anonymous
// reads, and an admin key of its own that the page puts in its headers.
import type { Page } from 'playwright-core';
import { GRAPHQL_PATH } from '../../src/server/app';
import { EXAMPLE_BOARD } from '../../web/explorer/examples';
import { type GraphQLResponse, onOwnRedis, TEST_KEYS, userErrorsIn } from '../support/harness';
import { startDedicatedRedis } from '../support/redis';
import { docsScreenshot, openPage, screenshot, settled, type TestPage, useBrowser } from '../support/browser';
import { submit } from './fixtures';

const PAGE_LOAD_MS = 15_000;
const LIVE_CHANGE_MS = 1_000;
/** The order the explorer opens its example tabs in: Start makes what the others use. */
const TABS = ['Start', 'Board', 'Submit', 'Windows', 'Top'];

const DESKTOP = { width: 1280, height: 800 };
const SMALL_WINDOW = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };

const held = useBrowser();

describe('the explorer, on a fresh server with a development key', () => {
  const own = onOwnRedis(() => startDedicatedRedis(), (redis) => redis.stop(), { anonymousReads: true, developmentKey: TEST_KEYS.admin });

  it('runs every example tab in order without an error, live updates included, with no network but 127.0.0.1', () =>
    withExplorer(own.server.graphqlUrl, DESKTOP, async ({ tab, page, run }) => {
      expect(await page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(TABS);
      for (const name of TABS) {
        const result = await run(name);
        expect({ tab: name, errors: result.errors ?? [], userErrors: userErrorsIn(result.data) }).toEqual({ tab: name, errors: [], userErrors: [] });
      }
      // Top is running: a score submitted elsewhere that enters the top shows in its result.
      await submit(own.server, EXAMPLE_BOARD, 'newcomer', 2_380);
      await page.locator('.graphiql-response').filter({ hasText: 'newcomer' }).waitFor({ timeout: LIVE_CHANGE_MS });
      await screenshot(page, 'explorer-subscription');

      expect(tab.blocked).toEqual([]);
      expect(tab.problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem))).toEqual([]);
    }), 60_000);

  it('fills a 1280x800 window with the docs open, and again with them closed', () =>
    withExplorer(own.server.graphqlUrl, DESKTOP, async (explorer) => {
      const { page } = explorer;
      await expectTopTenBesideDocs(explorer, { ...DESKTOP_EDITORS, '.graphiql-plugin': { width: 250, height: 600 } });
      await docsScreenshot(await still(page), 'explorer');

      await page.getByRole('button', { name: 'Hide Documentation Explorer' }).click();
      await page.locator(DOCS).waitFor({ state: 'detached' });
      await expectFitsWindow(page, DESKTOP_EDITORS);
      await screenshot(page, 'explorer-docs-closed');

      // An operation longer than its editor scrolls inside the editor, not the page.
      await page.locator('.graphiql-tab-button[title="Start"]').click();
      await page.locator(QUERY_EDITOR).filter({ hasText: 'mutation Start' }).waitFor();
      await expectFitsWindow(page, DESKTOP_EDITORS);
    }), 60_000);

  it('fits a 1024x768 window with the docs open: the editors above the result, beside the docs', () =>
    withExplorer(own.server.graphqlUrl, SMALL_WINDOW, async (explorer) => {
      await expectTopTenBesideDocs(explorer, {
        [QUERY_EDITOR]: { width: 400, height: 200 },
        '.graphiql-editor-tool': { width: 400, height: 80 },
        '.graphiql-response': { width: 450, height: 250 },
        '.graphiql-plugin': { width: 200, height: 600 },
      });
      await expectStacked(explorer.page);
      await screenshot(explorer.page, 'explorer-small-window');
    }), 60_000);

  it('fits a 390x844 phone: docs closed at first, the editor above the result, the docs over both when opened', () =>
    withExplorer(own.server.graphqlUrl, PHONE, async (explorer) => {
      const { page } = explorer;
      await showTopTen(explorer);

      expect(await page.locator(DOCS).count()).toBe(0);
      await expectFitsWindow(page, PHONE_EDITORS);
      await expectStacked(page);
      await docsScreenshot(await still(page), 'explorer-phone');

      await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
      await page.getByText('Root Types').waitFor({ timeout: PAGE_LOAD_MS });
      await expectFitsWindow(page, { '.graphiql-plugin': { width: PHONE.width - SIDEBAR_MAX_PX, height: 600 } });
      await screenshot(page, 'explorer-phone-docs');
    }), 60_000);
});

/** The docs, in the panel GraphiQL keeps (empty and out of sight) while they are closed. */
const DOCS = '.graphiql-plugin .graphiql-doc-explorer';
/** The operation editor's text area (Monaco), without its toolbar. */
const QUERY_EDITOR = '.graphiql-query-editor .graphiql-editor';
/** What the sidebar of icons (docs, history...) may take of a phone's width. */
const SIDEBAR_MAX_PX = 60;
/** Smallest sizes, in CSS px, of what a desktop window must show at once. */
const DESKTOP_EDITORS: Record<string, Size> = {
  [QUERY_EDITOR]: { width: 300, height: 300 },
  '.graphiql-editor-tool': { width: 350, height: 100 },
  '.graphiql-response': { width: 350, height: 500 },
};
/** ...and a phone's, where the editors are stacked. */
const PHONE_EDITORS: Record<string, Size> = {
  [QUERY_EDITOR]: { width: 250, height: 250 },
  '.graphiql-editor-tool': { width: 250, height: 80 },
  '.graphiql-response': { width: 300, height: 250 },
};

interface Size {
  width: number;
  height: number;
}

interface Explorer {
  tab: TestPage;
  page: Page;
  /** Opens the example tab named `name`, runs it, and resolves with its (first) result. */
  run(name: string): Promise<GraphQLResponse>;
}

/** The explorer at `url`, loaded in a page of its own of the given size, for `use`. */
async function withExplorer(url: string, size: Size, use: (explorer: Explorer) => Promise<void>): Promise<void> {
  const tab = await openPage(held.browser, size);
  try {
    const { page } = tab;
    const resultOf = watchResults(page);
    await page.goto(url);
    await page.locator(QUERY_EDITOR).waitFor({ timeout: PAGE_LOAD_MS });
    const run = async (name: string) => {
      await page.locator(`.graphiql-tab-button[title="${name}"]`).click();
      const result = resultOf(name);
      await page.locator('.graphiql-execute-button').click();
      return result;
    };
    await use({ tab, page, run });
  } finally {
    await tab.context.close();
  }
}

/** Runs Start, then Board: the page shows the top 10 of the example board. */
async function showTopTen({ page, run }: Explorer): Promise<void> {
  await run('Start');
  await run('Board');
  await page.locator('.graphiql-response').filter({ hasText: 'sharedRank' }).waitFor({ timeout: PAGE_LOAD_MS });
}

/**
 * The results the page receives, over HTTP and over its WebSocket: the returned function resolves
 * with the next result of the operation it names.
 */
function watchResults(page: Page): (operationName: string) => Promise<GraphQLResponse> {
  const waiting = new Map<string, (result: GraphQLResponse) => void>();
  const arrived = (operationName: string | undefined, result: GraphQLResponse) => {
    if (operationName === undefined) return;
    waiting.get(operationName)?.(result);
    waiting.delete(operationName);
  };
  page.on('response', async (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || !response.url().endsWith(GRAPHQL_PATH)) return;
    arrived((request.postDataJSON() as { operationName?: string }).operationName, (await response.json()) as GraphQLResponse);
  });
  page.on('websocket', (socket) => {
    const names = new Map<string, string>();
    socket.on('framesent', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { type: string; id: string; payload: { operationName?: string } };
      if (message.type === 'subscribe' && message.payload.operationName) names.set(message.id, message.payload.operationName);
    });
    socket.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { type: string; id: string; payload: unknown };
      if (message.type === 'next') arrived(names.get(message.id), message.payload as GraphQLResponse);
      if (message.type === 'error') arrived(names.get(message.id), { errors: message.payload } as GraphQLResponse);
    });
  });
  return (operationName) => new Promise((resolve) => waiting.set(operationName, resolve));
}

/** With the docs open (as they open at the page's width), shows the top 10 and measures the page. */
async function expectTopTenBesideDocs(explorer: Explorer, regions: Record<string, Size>): Promise<void> {
  await explorer.page.locator(DOCS).waitFor({ timeout: PAGE_LOAD_MS });
  await showTopTen(explorer);
  await expectFitsWindow(explorer.page, regions);
}

/**
 * The page with no tooltip (the mouse moved off the button just clicked) and nothing moving (the
 * editors' scrollbars fade): the docs' pictures change only when the page does.
 */
async function still(page: Page): Promise<Page> {
  const { width, height } = page.viewportSize()!;
  await page.mouse.move(width - 1, height - 1);
  await page.getByRole('tooltip').waitFor({ state: 'detached' });
  await settled(page);
  return page;
}

/** Fails unless the result is below the editors rather than beside them. */
async function expectStacked(page: Page): Promise<void> {
  const editors = (await page.locator('.graphiql-editors').boundingBox())!;
  const response = (await page.locator('.graphiql-response').boundingBox())!;
  expect(response.y).toBeGreaterThanOrEqual(editors.y + editors.height);
}

/**
 * Fails unless the page is exactly the window (nothing to scroll) and each region named by its
 * selector lies inside the window, at least as big as given.
 */
async function expectFitsWindow(page: Page, regions: Record<string, Size>): Promise<void> {
  const measured = await page.evaluate(() => {
    const window = globalThis as unknown as {
      innerWidth: number; innerHeight: number; document: { documentElement: { scrollWidth: number; scrollHeight: number } };
    };
    return {
      window: { width: window.innerWidth, height: window.innerHeight },
      document: { width: window.document.documentElement.scrollWidth, height: window.document.documentElement.scrollHeight },
    };
  });
  expect(measured.document).toEqual(measured.window);
  for (const [selector, least] of Object.entries(regions)) {
    const box = await page.locator(selector).boundingBox();
    expect({ selector, box }).toEqual({ selector, box: expect.anything() });
    const { x, y, width, height } = box!;
    const fits = {
      inside: x >= 0 && y >= 0 && x + width <= measured.window.width && y + height <= measured.window.height,
      wideEnough: width >= least.width,
      tallEnough: height >= least.height,
    };
    expect({ selector, box, ...fits }).toEqual({ selector, box, inside: true, wideEnough: true, tallEnough: true });
  }
}
