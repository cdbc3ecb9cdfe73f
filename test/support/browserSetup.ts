// Runs once before the "browser" project: the pages under test are the built ones, as `npm start`
// serves them, so web/ is built first (into dist/web, where the server looks).
import globalSetup from './globalSetup';

export default async function browserSetup(): Promise<void> {
  const { buildWeb } = require('../../scripts/build-web') as { buildWeb(): Promise<unknown> };
  await buildWeb();
  await globalSetup();
}
