// `npm run demo` against a running server (STANDINGS_URL, STANDINGS_KEY), with a small board: what
// it prints for the person who started it, and that Ctrl-C stops it cleanly.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { runMain } from '../support/mainProcess';
import { testRedisUrl, uniqueId } from '../support/redis';

const DEMO = path.join(__dirname, '..', '..', 'scripts', 'demo.ts');
const KEY = 'demo-test-admin-key-1';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

it("prints the welcome with the key it uses and its board's spectator page, and stops on Ctrl-C", async () => {
  const server = runMain({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'test', STANDINGS_API_KEYS: `admin:${KEY}` });
  children.push(server.child);
  const [, api] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
  const board = uniqueId('demo');
  const demo = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', DEMO, '--board', board, '--players', '50', '--rate', '5'], {
    env: { PATH: process.env.PATH ?? '', STANDINGS_URL: api.replace(/\/graphql$/, ''), STANDINGS_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(demo);
  let output = '';
  const exited = once(demo, 'exit').then(([code]) => code as number | null);
  await new Promise<void>((resolve, reject) => {
    demo.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Submitting 5 results a second/.test(output)) resolve();
    });
    void exited.then((code) => reject(new Error(`the demo exited (${code}):\n${output}`)));
  });
  demo.kill('SIGINT');
  expect(await exited).toBe(0);

  expect(output.split('\n')).toEqual(
    expect.arrayContaining([
      'Standings is ready.',
      `  GraphQL API:     ${api}`,
      `  Demo board:      ${api.replace('/graphql', `/live/${board}`)}?top=20`,
      `Admin key: ${KEY}`,
      `  export KEY=${KEY}`,
    ]),
  );
  // Printed once the board exists and before it is filled, so its page can be opened meanwhile.
  expect(output.indexOf('Standings is ready.')).toBeLessThan(output.indexOf('Putting 50 players'));
});
