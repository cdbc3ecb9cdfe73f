// The spectator page, /live/<boardId>: the top of a board and the window around a player, live
// over graphql-ws on the API's own URL; `?period=DAILY` (any kind the board keeps, and `&key=` for
// one past period) shows a period, the current one rolling over at its boundary with the subscription. The viewer's key stays in this tab (sessionStorage) and
// goes only into the socket's connection_init, never into a URL.
import { type Client, createClient, type Sink } from 'graphql-ws';
import { AROUND, BOARD, TOP } from './operations';
import { type Entry, Rows } from './rows';
import './style.css';

const GRAPHQL_PATH = '/graphql';
const KEY_STORAGE = 'standings.key';
const DEFAULT_TOP = 10;
const AROUND_RADIUS = 5;
/** Failed connection attempts in a row after which the server counts as offline rather than reconnecting. */
const OFFLINE_AFTER = 3;
/** graphql-ws' close code for a refused key (see README, Access and limits). */
const CLOSE_FORBIDDEN = 4403;

type State = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'refused';


const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const boardId = decodeURIComponent(location.pathname.replace(/^\/live\//, '').replace(/\/+$/, ''));
const query = new URLSearchParams(location.search);
const first = Math.min(100, Math.max(1, Number(query.get('top')) || DEFAULT_TOP));
/** The period asked for (none: the board's default one); the server refuses a kind the board does not keep. */
const period = query.get('period') ? { kind: query.get('period')!.toUpperCase(), ...(query.get('key') ? { key: query.get('key') } : {}) } : null;
const top = new Rows($('top'));
const around = new Rows($('around'));
const status = $('status');
const message = $('message');
const aroundNote = $('around-note');

/** Whether the server has Redis, as it said in connection_ack and its pings (see README, Spectator page). */
let serverReady = true;
let failedAttempts = 0;
let aroundPlayer: string | null = null;
/** Everything tied to one client: replaced as a whole when the key changes or the socket failed for good. */
let session: { client: Client; subscriptions: Set<() => void> } | null = null;
let endAround: (() => void) | undefined;
let restartTimer: ReturnType<typeof setTimeout> | undefined;

function setState(next: State): void {
  status.dataset.state = next;
  status.textContent = next === 'refused' ? 'key refused' : next;
}

function showMessage(text: string | null): void {
  message.hidden = text === null;
  message.textContent = text ?? '';
}

function connectionState(): State {
  if (!navigator.onLine || failedAttempts >= OFFLINE_AFTER) return 'offline';
  return failedAttempts > 0 || !serverReady ? 'reconnecting' : 'live';
}

function start(): void {
  const key = sessionStorage.getItem(KEY_STORAGE) ?? '';
  const client = createClient({
    url: new URL(GRAPHQL_PATH, location.href).href.replace(/^http/, 'ws'),
    connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    retryAttempts: Infinity,
    // Up to 10 s apart, so a restarted server is found again soon after it is back.
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** retries) * (0.75 + Math.random() / 2))),
    shouldRetry: (event) => !isClose(event, CLOSE_FORBIDDEN),
    keepAlive: 15_000,
    on: {
      connected: (_socket, payload) => {
        failedAttempts = 0;
        serverReady = redisUp(payload, serverReady);
        setState(connectionState());
      },
      // The server pings every connection when it loses Redis and when it has it back.
      ping: (received, payload) => {
        if (!received || session?.client !== client) return;
        serverReady = redisUp(payload, serverReady);
        setState(connectionState());
      },
      closed: (event) => {
        // A client this page let go of (a new key, a new session) closes too: not a failure.
        if (session?.client !== client) return;
        if (isClose(event, CLOSE_FORBIDDEN)) return refused((event as CloseEvent).reason);
        failedAttempts += 1;
        setState(connectionState());
      },
    },
  });
  session = { client, subscriptions: new Set() };
  void loadTitle(client);
  follow(TOP, { board: boardId, first, period }, (data) => {
    showPeriod(data.topChanged.period);
    $('top-note').hidden = data.topChanged.entries.length > 0;
    top.show(data.topChanged.entries);
  });
  if (aroundPlayer !== null) followAround(aroundPlayer);
}

function stop(): void {
  clearTimeout(restartTimer);
  const ending = session;
  session = null;
  if (!ending) return;
  for (const end of [...ending.subscriptions]) end();
  void ending.client.dispose();
}

/** Ends the session and starts a new one after `delayMs` (a changed key: at once). */
function restart(delayMs: number): void {
  stop();
  restartTimer = setTimeout(start, delayMs);
}

function refused(reason: string): void {
  setState('refused');
  const detail = reason.replace(/^\w+: /, '');
  const hasKey = Boolean(sessionStorage.getItem(KEY_STORAGE));
  showMessage(
    hasKey
      ? `The server refused this key (${detail}). Check it and enter it again above.`
      : `This board needs a key: enter a reader key above (${detail}).`,
  );
  stop();
}

interface Period {
  kind: string;
  key: string;
  start: string;
  end: string | null;
}

interface Update {
  topChanged: { period: Period; entries: Entry[] };
  aroundChanged: { entries: Entry[] };
}

/**
 * Subscribes for the session's life, or until the returned function is called. A failure that
 * passes (Redis down at set-up, a socket closed for good) starts the session again shortly.
 */
function follow(query: string, variables: Record<string, unknown>, next: (data: Update) => void): () => void {
  const current = session;
  if (!current) return () => undefined;
  const sink: Sink<{ data?: Update | null; errors?: unknown }> = {
    next: ({ data }) => {
      if (!data) return;
      // Data comes only from a server that has Redis.
      serverReady = true;
      setState(connectionState());
      next(data);
    },
    error: (error) => {
      const code = errorCode(error);
      if (code === 'NOT_FOUND') return showMessage(`There is no board "${boardId}".`);
      if (code === 'BAD_USER_INPUT') return showMessage(`Cannot show this: ${errorMessage(error)}`);
      if (isClose(error, CLOSE_FORBIDDEN)) return;
      // Redis was down when it was set up, or the socket closed for good: try again shortly.
      serverReady = code !== 'UNAVAILABLE' && serverReady;
      setState(connectionState() === 'live' ? 'reconnecting' : connectionState());
      if (session === current) restart(2_000);
    },
    // The server ends a subscription only when the board is deleted.
    complete: () => {
      if (!ended) showMessage(`The board "${boardId}" was deleted.`);
    },
  };
  let ended = false;
  const unsubscribe = current.client.subscribe({ query, variables }, sink);
  const end = () => {
    ended = true;
    current.subscriptions.delete(end);
    unsubscribe();
  };
  current.subscriptions.add(end);
  return end;
}

function followAround(playerId: string): void {
  aroundNote.hidden = true;
  endAround?.();
  endAround = follow(AROUND, { board: boardId, player: playerId, radius: AROUND_RADIUS, period }, (data) => {
    const entries = data.aroundChanged.entries;
    aroundNote.hidden = entries.length > 0;
    aroundNote.textContent = entries.length > 0 ? '' : `${playerId} has no score on this board yet.`;
    around.show(entries, playerId);
  });
}

/** Which period the top is of: it changes when a subscription to the current period rolls over. */
function showPeriod({ kind, key }: Period): void {
  const shown = $('period');
  // ALL_TIME is what a board without periods shows: nothing to say.
  shown.hidden = kind === 'ALL_TIME';
  shown.dataset.kind = kind;
  shown.dataset.key = key;
  shown.textContent = `${kind.charAt(0)}${kind.slice(1).toLowerCase().replace('_', ' ')} · ${key}`;
}

async function loadTitle(client: Client): Promise<void> {
  const result = await new Promise<{ data?: { leaderboard: { title: string | null; id: string } | null } | null }>((resolve) => {
    let value = {};
    client.subscribe({ query: BOARD, variables: { board: boardId } }, {
      next: (received) => (value = received),
      error: () => resolve({}),
      complete: () => resolve(value),
    });
  });
  const board = result.data?.leaderboard;
  if (result.data && board === null) showMessage(`There is no board "${boardId}".`);
  const title = board ? board.title || board.id : boardId;
  $('title').textContent = title;
  document.title = `${title} · Standings live`;
}

/** Whether a connection_ack or ping payload says the server has Redis (`{ redis: "up" | "down" }`); `otherwise` when it says nothing. */
function redisUp(payload: unknown, otherwise: boolean): boolean {
  const redis = typeof payload === 'object' && payload !== null ? (payload as { redis?: unknown }).redis : undefined;
  return redis === 'up' ? true : redis === 'down' ? false : otherwise;
}

function errorCode(error: unknown): string | undefined {
  const first = Array.isArray(error) ? error[0] : undefined;
  return first?.extensions?.code;
}

function errorMessage(error: unknown): string {
  return Array.isArray(error) ? String(error[0]?.message) : String(error);
}

function isClose(event: unknown, code: number): boolean {
  return typeof event === 'object' && event !== null && (event as CloseEvent).code === code;
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('key');
  const key = input.value.trim();
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
  input.value = '';
  input.placeholder = key ? 'key set for this tab (empty: forget it)' : 'reader key (kept in this tab only)';
  showMessage(null);
  failedAttempts = 0;
  setState('connecting');
  restart(0);
});

$('search').addEventListener('submit', (event) => {
  event.preventDefault();
  const playerId = $<HTMLInputElement>('player').value.trim();
  aroundPlayer = playerId || null;
  around.clear();
  if (aroundPlayer !== null) followAround(aroundPlayer);
  else {
    endAround?.();
    aroundNote.hidden = true;
  }
});

addEventListener('online', () => setState(connectionState()));
addEventListener('offline', () => setState('offline'));
if (sessionStorage.getItem(KEY_STORAGE)) $<HTMLInputElement>('key').placeholder = 'key set for this tab (empty: forget it)';
start();
