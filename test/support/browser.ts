// Headless Chromium for the browser tests, driven by playwright-core: Debian's chromium (never a
// downloaded build), every request to anything but 127.0.0.1 refused, a screenshot per test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const ROOT = path.join(__dirname, '..', '..');
/** The browser binary: STANDINGS_CHROMIUM, else Debian's (`apt-get install chromium`; .ci/run does). */
export const CHROMIUM = process.env.STANDINGS_CHROMIUM || '/usr/bin/chromium';
/** Where each test leaves its screenshot for a reviewer: STANDINGS_SCREENSHOTS, else test-artifacts/screenshots. */
export const SCREENSHOT_DIR = path.resolve(ROOT, process.env.STANDINGS_SCREENSHOTS || path.join('test-artifacts', 'screenshots'));

/** A browser launched before the file's tests and closed after them. */
export function useBrowser(): { browser: Browser } {
  const held = {} as { browser: Browser };
  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: apt-get install chromium, or set STANDINGS_CHROMIUM`);
    held.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(() => held.browser?.close());
  return held;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Requests refused because they left the machine (a CDN, fonts...): a self-hosted page makes none. */
  blocked: string[];
  /** Console errors and uncaught exceptions, CSP violations among them. */
  problems: string[];
}

/** A page in a context of its own (fresh storage), with the network cut off but for 127.0.0.1. */
export async function openPage(browser: Browser, options: { width?: number; height?: number } = {}): Promise<TestPage> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1100, height: options.height ?? 800 } });
  const blocked: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    blocked.push(url.href);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, context, blocked, problems };
}

/** Saves the page as `<name>.png` in SCREENSHOT_DIR and returns the file. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Saves the page as docs/images/`<name>`.png, the picture the docs show: made by the browser tests
 * on every run, so it shows the page as it is and cannot go stale.
 */
export async function docsScreenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ROOT, 'docs', 'images', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  return file;
}

/** Resolves once nothing on the page is animating (rows sliding or flashing), for a still screenshot. */
export function settled(page: Page): Promise<unknown> {
  return page.waitForFunction(() => (globalThis as unknown as { document: { getAnimations(): unknown[] } }).document.getAnimations().length === 0);
}
