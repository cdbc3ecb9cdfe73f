// The explorer (GraphiQL served by Standings itself) in headless Chromium with every request off
// this machine refused: it must load, run a query and a subscription, and show the docs.
import { onOwnRedis } from '../support/harness';
import { startDedicatedRedis } from '../support/redis';
import { openPage, screenshot, settled, useBrowser } from '../support/browser';
import { seedBoard, submit } from './fixtures';

const PAGE_LOAD_MS = 15_000;
const LIVE_CHANGE_MS = 1_000;

const held = useBrowser();

describe('the explorer', () => {
  // A Redis of its own: the example operations use the README's board id, "blitz".
  const own = onOwnRedis(() => startDedicatedRedis(), (redis) => redis.stop(), { anonymousReads: true });
  beforeAll(() => seedBoard(own.server, 'blitz', 'Blitz'));

  it('runs a query and a subscription from its examples and shows the docs, with no network but 127.0.0.1', async () => {
    const tab = await openPage(held.browser, { width: 1400, height: 860 });
    try {
      const { page } = tab;
      await page.goto(own.server.graphqlUrl);
      await page.getByText('Root Types').waitFor({ timeout: PAGE_LOAD_MS });

      const response = page.locator('.graphiql-response');
      await page.locator('.graphiql-execute-button').click();
      await response.filter({ hasText: 'Lindqvist' }).waitFor({ timeout: PAGE_LOAD_MS });
      await settled(page);
      await screenshot(page, 'explorer-query');

      await page.locator('.graphiql-tab', { hasText: 'Top' }).click();
      await page.locator('.graphiql-execute-button').click();
      await response.filter({ hasText: 'p01' }).waitFor({ timeout: PAGE_LOAD_MS });
      await submit(own.server, 'blitz', 'newcomer', 2600);
      await response.filter({ hasText: 'newcomer' }).waitFor({ timeout: LIVE_CHANGE_MS });
      await screenshot(page, 'explorer-subscription');

      expect(tab.blocked).toEqual([]);
      expect(tab.problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem))).toEqual([]);
    } finally {
      await tab.context.close();
    }
  }, 60_000);
});
