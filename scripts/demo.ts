// `npm run demo`: a board that moves, to look at. Starts a server (or uses STANDINGS_URL), fills a
// board with 100,000 players rated like blitz chess (integer ratings, so thousands of ties), then
// keeps submitting results at a steady rate. It prints what `npm start` prints on a terminal (the
// URLs, the key it uses, a command to try) and the spectator page of its board. Ctrl-C stops it
// (and the server it started). Development tooling: never in the image.
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { welcomeText } from '../src/server/welcome';

const HELP = `npm run demo -- [--board demo-blitz] [--players 100000] [--rate 20]
  --board    board id (created DESCENDING / LATEST if missing)
  --players  players to put on it first
  --rate     results submitted per second afterwards
Environment: STANDINGS_URL (a running server, e.g. http://127.0.0.1:4000) and STANDINGS_KEY (an
admin key for it); without STANDINGS_URL a server is started (PORT, default 4000) and its
development key used.`;

const BATCH = 1_000;
/** Rows the demo's spectator page shows. */
const SPECTATOR_TOP = 20;
const TICK_MS = 100;
const COUNTRIES = ['SE', 'NO', 'DE', 'FR', 'ES', 'IT', 'PL', 'UA', 'IN', 'CN', 'JP', 'KR', 'US', 'BR', 'AR', 'NG', 'EG', 'TR', 'IR', 'VN'];
const SYLLABLES = ['ka', 'ri', 'mo', 'len', 'sa', 'vik', 'to', 'mar', 'el', 'an', 'jo', 'na', 'dre', 'li', 'su', 'ha', 'ro', 'ba', 'ne', 'tor'];

interface Options {
  board: string;
  players: number;
  rate: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { board: { type: 'string', default: 'demo-blitz' }, players: { type: 'string', default: '100000' }, rate: { type: 'string', default: '20' }, help: { type: 'boolean' } },
  });
  if (values.help) return void console.log(HELP);
  const options: Options = { board: values.board!, players: positive(values.players!, '--players'), rate: positive(values.rate!, '--rate') };

  const server: { url: string; key: string; child?: ChildProcess } = process.env.STANDINGS_URL
    ? { url: process.env.STANDINGS_URL.replace(/\/+$/, ''), key: process.env.STANDINGS_KEY ?? '' }
    : await startServer();
  const api = new Api(`${server.url}/graphql`, server.key);
  const inFlight = new Set<Promise<unknown>>();
  let ticker: NodeJS.Timeout | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log('\nStopping...');
    clearInterval(ticker);
    await Promise.allSettled(inFlight);
    if (server.child) await stopChild(server.child);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const random = seeded(15);
  const ratings = Array.from({ length: options.players }, () => blitzRating(random));
  await api.call('mutation ($input: CreateLeaderboardInput!) { createLeaderboard(input: $input) { userErrors { code field message } } }', {
    input: { id: options.board, title: 'Blitz arena (demo)', sortOrder: 'DESCENDING', updatePolicy: 'LATEST', capacity: options.players },
  });
  // The board exists from here on: its page fills in while the players are put on it. The
  // explorer is there on the server the demo starts (development), and assumed on STANDINGS_URL's.
  process.stdout.write(welcomeText({ api: api.url, explorer: true, adminKey: server.key || undefined, board: { id: options.board, top: SPECTATOR_TOP } }));
  console.log(`\nPutting ${options.players.toLocaleString()} players on "${options.board}"...`);
  const profiles = Math.min(options.players, 2_000);
  for (let i = 0; i < profiles && !stopping; i++) {
    await api.call('mutation ($input: UpsertPlayerInput!) { upsertPlayer(input: $input) { userErrors { code field message } } }', {
      input: { id: playerId(i), displayName: displayName(random), country: COUNTRIES[Math.floor(random() * COUNTRIES.length)] },
    });
  }
  for (let start = 0; start < options.players && !stopping; start += BATCH) {
    const ids = range(start, Math.min(options.players, start + BATCH));
    await api.call('mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { userErrors { code field message } } }', {
      inputs: ids.map((i) => ({ leaderboardId: options.board, playerId: playerId(i), score: ratings[i] })),
    });
  }

  console.log(`Submitting ${options.rate} results a second; Ctrl-C stops.\n`);

  let due = 0;
  let sent = 0;
  let failed = 0;
  ticker = setInterval(() => {
    due += (options.rate * TICK_MS) / 1000;
    const count = Math.floor(due);
    due -= count;
    if (count === 0) return;
    const inputs = range(0, count).map(() => {
      const i = pickPlayer(random, ratings);
      // A won or lost blitz game: a few points either way, more against a stronger or weaker rival.
      ratings[i] = Math.max(100, ratings[i] + Math.round((random() < 0.5 ? -1 : 1) * (4 + random() * 12)));
      return { leaderboardId: options.board, playerId: playerId(i), score: ratings[i] };
    });
    const call = api.call('mutation ($inputs: [SubmitScoreInput!]!) { submitScores(inputs: $inputs) { userErrors { code field message } } }', { inputs }).then(
      () => (sent += inputs.length),
      (err: Error) => {
        failed += inputs.length;
        console.error(`submit failed: ${err.message}`);
      },
    );
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
  }, TICK_MS);
  setInterval(() => process.stdout.write(`\r${sent.toLocaleString()} results submitted, ${failed} failed`), 1_000).unref();
}

/** Most results come from anywhere on the board; a fifth from the top 50, so the top moves. */
function pickPlayer(random: () => number, ratings: number[]): number {
  if (random() >= 0.2) return Math.floor(random() * ratings.length);
  const top = topIndices(ratings, 50);
  return top[Math.floor(random() * top.length)];
}

let topCache: { at: number; indices: number[] } | undefined;
function topIndices(ratings: number[], n: number): number[] {
  if (!topCache || Date.now() - topCache.at > 2_000) {
    const indices = ratings.map((_, i) => i).sort((a, b) => ratings[b] - ratings[a]).slice(0, n);
    topCache = { at: Date.now(), indices };
  }
  return topCache.indices;
}

/** Blitz ratings: roughly normal around 1500, integers, so many players share each value. */
function blitzRating(random: () => number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(3300, Math.max(100, Math.round(1500 + 350 * normal)));
}

const playerId = (i: number) => String(100_000 + i);

function displayName(random: () => number): string {
  const word = () => {
    const syllables = 2 + Math.floor(random() * 2);
    const text = range(0, syllables).map(() => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
    return text[0].toUpperCase() + text.slice(1);
  };
  return `${word()} ${word()}`;
}

/** The same board every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

function positive(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return parsed;
}

interface UserError {
  code: string;
  field: string[] | null;
  message: string;
}

class Api {
  constructor(
    readonly url: string,
    private readonly key: string,
  ) {}

  async call(query: string, variables: Record<string, unknown>): Promise<unknown> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.key ? { authorization: `Bearer ${this.key}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length) throw new Error(body.errors.map((error) => `${error.extensions?.code}: ${error.message}`).join('; '));
    // Expected failures (a bad value, a board with other settings) come back in the payload.
    for (const payload of Object.values((body.data ?? {}) as Record<string, { userErrors?: UserError[] } | null>)) {
      if (payload?.userErrors?.length) {
        throw new Error(payload.userErrors.map((error) => `${error.code} at ${error.field?.join('.') ?? '-'}: ${error.message}`).join('; '));
      }
    }
    return body.data;
  }
}

/** The built server (npm run demo builds first) in development, on PORT or 4000, with its printed key. */
async function startServer(): Promise<{ url: string; key: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'server', 'main.js')], {
    env: { ...process.env, NODE_ENV: 'development', PORT: process.env.PORT ?? '4000' },
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its own process group: Ctrl-C reaches the demo alone, which then stops the server once.
    detached: true,
  });
  process.once('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let output = '';
    let key = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      key ||= /this run's admin key is (\S+)/.exec(output)?.[1] ?? '';
      const ready = /ready at (http:\/\/\S+)\/graphql/.exec(output);
      if (ready) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        if (!key) reject(new Error('the server started with API keys configured: set STANDINGS_URL and STANDINGS_KEY instead'));
        else resolve({ url: ready[1], key, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
