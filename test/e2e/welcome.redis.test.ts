// What a person sees when they start the server: the real entry point on a pseudo-terminal
// (util-linux `script`, so process.stdout.isTTY is true as in a terminal window), stopped with
// Ctrl-C typed into that terminal; and the same entry point writing to a pipe.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { runMain } from '../support/mainProcess';
import { testRedisUrl, uniqueId } from '../support/redis';

const MAIN = path.join(__dirname, '..', '..', 'src', 'server', 'main.ts');
const WELCOME = /^Standings is ready\.$/m;
const CTRL_C = '\x03';

interface Terminal {
  /** Everything the terminal showed, with the terminal's \r\n turned back into \n. */
  screen: () => string;
  /** Resolves once the screen shows `pattern`; rejects if the session ends first. */
  shows(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Types Ctrl-C, as a person stops the server, and resolves with the server's exit code. */
  interrupt(): Promise<number | null>;
}

const sessions = new Set<ChildProcess>();
afterEach(() => {
  for (const session of sessions) if (session.exitCode === null) process.kill(-session.pid!, 'SIGKILL');
  sessions.clear();
});

function startOnTerminal(env: Record<string, string>): Terminal {
  // -e: script exits with the server's code; -f: every write reaches us at once.
  const session = spawn('script', ['-qefc', `exec '${process.execPath}' -r ts-node/register/transpile-only '${MAIN}'`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
    // Its own process group, so that the SIGKILL of a failed test reaches the server too.
    detached: true,
  });
  sessions.add(session);
  let screen = '';
  session.stdout!.on('data', (chunk: Buffer) => {
    screen += chunk.toString().replace(/\r\n/g, '\n');
    session.stdout!.emit('screen');
  });
  const exited = once(session, 'exit').then(([code]) => code as number | null);
  return {
    screen: () => screen,
    shows: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(screen);
          if (match) {
            session.stdout!.off('screen', look);
            resolve(match);
          }
        };
        session.stdout!.on('screen', look);
        look();
        void exited.then((code) => reject(new Error(`the session ended (${code}) before showing ${pattern}:\n${screen}`)));
      }),
    interrupt: () => {
      session.stdin!.write(CTRL_C);
      return exited;
    },
  };
}

/** The welcome's lines, from its heading to its last line. */
function welcomeBlock(screen: string): string[] {
  const lines = screen.split('\n');
  const start = lines.findIndex((line) => WELCOME.test(line));
  const end = lines.findIndex((line, i) => i > start && line.startsWith('Then follow'));
  return lines.slice(start, end + 1);
}

/**
 * The server logs "ready" just before it handles signals; once it has answered a request it does,
 * so a signal sent after this stops it as it would stop a server that has run for a while.
 */
const servedOnce = async (api: string) => expect((await fetch(api.replace('/graphql', '/readyz'))).status).toBe(200);

const createBoard = (api: string, key: string) =>
  fetch(api, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: `mutation { createLeaderboard(input: { id: "${uniqueId('welcome')}", sortOrder: DESCENDING, updatePolicy: BEST }) { leaderboard { id } } }` }),
  }).then((response) => response.json());

it('on a terminal in development, prints the URLs, the admin key and the next command on lines of their own', async () => {
  const terminal = startOnTerminal({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'development' });
  await terminal.shows(/^Then follow the README's tour\.$/m);
  const block = welcomeBlock(terminal.screen());

  const [, api] = /^ {2}GraphQL API: +(http:\/\/127\.0\.0\.1:\d+\/graphql)$/m.exec(block.join('\n'))!;
  const [, key] = /^Admin key: (\S+)$/m.exec(block.join('\n'))!;
  expect(block).toEqual(
    expect.arrayContaining([
      `  Explorer:        ${api}  (open it in a browser)`,
      `  Spectator pages: ${api.replace('/graphql', '/live/<boardId>')}`,
      `  export KEY=${key}`,
      expect.stringMatching(/^ {2}curl -s http:\/\/127\.0\.0\.1:\d+\/graphql -H "authorization: Bearer \$KEY" .* -d '\{"query": "mutation \{ createLeaderboard/),
    ]),
  );
  // The key printed is the run's admin key, the same the JSON log line names.
  expect(terminal.screen()).toContain(`this run's admin key is ${key} `);
  expect(await createBoard(api, key)).toMatchObject({ data: { createLeaderboard: { leaderboard: { id: expect.any(String) } } } });

  expect(await terminal.interrupt()).toBe(0);
  expect(terminal.screen()).toMatch(/"msg":"SIGINT: finishing in-flight requests, then stopping"/);
});

it('with workers, the primary prints the welcome once', async () => {
  const terminal = startOnTerminal({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'development', STANDINGS_WORKERS: '2' });
  await terminal.shows(/ready at \S+ \(NODE_ENV=development, 2 workers\)/);
  await terminal.shows(/^Then follow the README's tour\.$/m);
  const [, api] = /^ {2}GraphQL API: +(\S+)$/m.exec(terminal.screen())!;
  const [, key] = /^Admin key: (\S+)$/m.exec(terminal.screen())!;
  expect(await createBoard(api, key)).toMatchObject({ data: { createLeaderboard: { leaderboard: { id: expect.any(String) } } } });

  // Ctrl-C reaches the workers as well as the primary, which may see a worker exit before its
  // own SIGINT: the exit code is workers.ts' business (test/e2e/workers.redis.test.ts).
  await terminal.interrupt();
  expect(terminal.screen().match(new RegExp(WELCOME.source, 'gm'))).toHaveLength(1);
  // Three processes start under ts-node on a shared machine.
}, 90_000);

it('on a terminal in production, writes JSON log lines only', async () => {
  const terminal = startOnTerminal({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'production', HOST: '127.0.0.1', STANDINGS_API_KEYS: 'admin:welcome-test-admin-key-1' });
  const [, url] = await terminal.shows(/ready at (\S+) \(NODE_ENV=production\)/);
  await servedOnce(url);
  expect(await terminal.interrupt()).toBe(0);
  // The terminal echoes the Ctrl-C itself as ^C.
  const lines = terminal.screen().replace('^C', '').split('\n').filter(Boolean);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('Stopped');
});

it('writing to a pipe in development, keeps to JSON log lines, the admin key among them', async () => {
  const server = runMain({ REDIS_URL: testRedisUrl(), PORT: '0', NODE_ENV: 'development' });
  try {
    const [, url] = await server.waitFor(/ready at (http:\/\/\S+\/graphql)/);
    await servedOnce(url);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // messages() fails on any line that is not JSON.
    expect(server.messages()).toEqual(expect.arrayContaining([expect.stringMatching(/^No API keys configured \(STANDINGS_API_KEYS\): this run's admin key is \S+ /)]));
    expect(server.output()).not.toMatch(WELCOME);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
});
