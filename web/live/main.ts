// The spectator page, /live/<boardId>: the top of a board, the latest submissions and the window
// around a player, live over graphql-ws on the API's own URL. `?period=DAILY` (any kind the board
// keeps, and `&key=` for one past period) shows a period, the current one rolling over at its
// boundary with the subscription; the tabs switch it. `?overlay=1` is the broadcast mode (for OBS):
// transparent background, large type, no controls. The viewer's key stays in this tab
// (sessionStorage) and goes only into the socket's connection_init, never into a URL.
import { type Client, createClient, type Sink } from 'graphql-ws';
import { RankMovement } from './movement';
import { AROUND, BOARD, SUBMITTED, TOP } from './operations';
import { type Entry, Rows } from './rows';
import { ENDING_STATES, type PageState, type PeriodChoice, STATE_LABELS, whyEnded } from './states';
import { choiceFromUrl, PeriodTabs, tabsOf } from './tabs';
import { type Submission, Ticker } from './ticker';
import './style.css';

const GRAPHQL_PATH = '/graphql';
const KEY_STORAGE = 'standings.key';
const DEFAULT_TOP = 10;
const AROUND_RADIUS = 5;
/** Failed connection attempts in a row after which the server counts as offline rather than reconnecting. */
const OFFLINE_AFTER = 3;
/** graphql-ws' close code for a refused key (see docs/access-and-configuration.md). */
const CLOSE_FORBIDDEN = 4403;
/** How soon a subscription refused for a passing reason (Redis down at set-up, a limit) is asked again. */
const RETRY_MS = 2_000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const boardId = decodeURIComponent(location.pathname.replace(/^\/live\//, '').replace(/\/+$/, ''));
const search = new URLSearchParams(location.search);
const first = Math.min(100, Math.max(1, Number(search.get('top')) || DEFAULT_TOP));
const overlay = search.get('overlay') === '1';
if (overlay) document.documentElement.dataset.overlay = '';
const movement = new RankMovement();
const top = new Rows($('top'), movement.annotate);
const around = new Rows($('around'));
const ticker = new Ticker($('ticker'));
const tabs = new PeriodTabs($('periods'), (choice) => switchPeriod(choice));
const status = $('status');
const message = $('message');
const aroundNote = $('around-note');

/** The period asked for (null: the board's default one); the server refuses a kind the board does not keep. */
let period: PeriodChoice | null = choiceFromUrl(search);
/** Whether the server has Redis, as it said in connection_ack and its pings (see docs/live-updates.md, "Whether the server has Redis"). */
let serverReady = true;
let failedAttempts = 0;
let aroundPlayer: string | null = null;
/** A state that ended the session (no board, a refused key...): connection news no longer changes it. */
let ending: PageState | null = null;
/**
 * Everything tied to one client: replaced as a whole when the key or the period changes. `current`:
 * the top shown is this client's, received since its socket last opened (until then it may be stale).
 */
/** `board`: the board's title and periods being read on the session's socket (see stop). */
let session: { client: Client; subscriptions: Set<() => void>; current: boolean; board: Promise<void> } | null = null;
/** Whether the page has been live once: later gaps are "reconnecting", the first wait "connecting". */
let beenLive = false;
let endAround: (() => void) | undefined;
let restartTimer: ReturnType<typeof setTimeout> | undefined;

function setState(next: PageState): void {
  beenLive ||= next === 'live';
  status.dataset.state = next;
  status.textContent = STATE_LABELS[next];
  const hasKey = Boolean(sessionStorage.getItem(KEY_STORAGE));
  // The key form only while a key is needed, or one is set (to change or forget it; not in the
  // broadcast mode, which shows no controls but what it needs).
  $('key-form').hidden = !(next === 'key-needed' || next === 'refused' || (hasKey && !overlay));
  // A state that ended the session has nothing to show but its message (no stale or empty lists).
  $('content').hidden = ENDING_STATES.has(next);
}

function showMessage(text: string | null): void {
  message.hidden = text === null;
  message.textContent = text ?? '';
}

function connectionState(): PageState {
  if (ending) return ending;
  if (!navigator.onLine || failedAttempts >= OFFLINE_AFTER) return 'offline';
  if (failedAttempts > 0 || !serverReady) return 'reconnecting';
  if (!session?.current) return beenLive ? 'reconnecting' : 'connecting';
  return 'live';
}

/** Ends the session for a reason the page cannot get past alone (it says which). */
function end(state: PageState, text: string): void {
  ending = state;
  setState(state);
  showMessage(text);
  stop();
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
        // A client this page let go of (a new key, a new period, an ended board) closes too: not a failure.
        if (session?.client !== client) return;
        if (isClose(event, CLOSE_FORBIDDEN)) return refused((event as CloseEvent).reason);
        failedAttempts += 1;
        session.current = false;
        setState(connectionState());
      },
    },
  });
  session = { client, subscriptions: new Set(), current: false, board: loadBoard(client) };
  follow<{ topChanged: { period: { kind: string; key: string }; entries: Entry[] } }>(TOP, { board: boardId, first, period }, ({ topChanged }) => {
    session!.current = true;
    setState(connectionState());
    showPeriod(topChanged.period);
    movement.note(topChanged.entries);
    $('top-note').hidden = topChanged.entries.length > 0;
    top.show(topChanged.entries);
  });
  follow<{ entrySubmitted: Submission }>(SUBMITTED, { board: boardId, period }, ({ entrySubmitted }) => {
    movement.submitted(entrySubmitted.entry.playerId, entrySubmitted.previousRank);
    ticker.add(entrySubmitted);
  });
  if (aroundPlayer !== null) followAround(aroundPlayer);
}

function stop(): void {
  clearTimeout(restartTimer);
  const ended = session;
  session = null;
  if (!ended) return;
  for (const unsubscribe of [...ended.subscriptions]) unsubscribe();
  // The board's read goes on the same socket, and a page that ends at once (a period the board
  // does not keep) still needs its tabs: the socket goes once that read is answered.
  void ended.board.finally(() => ended.client.dispose());
}

/** Ends the session and starts a new one after `delayMs` (a changed key or period: at once). */
function restart(delayMs: number): void {
  stop();
  restartTimer = setTimeout(start, delayMs);
}

function refused(reason: string): void {
  const detail = reason.replace(/^\w+: /, '');
  if (sessionStorage.getItem(KEY_STORAGE)) end('refused', `The server refused this key (${detail}). Check it and enter it again above.`);
  else end('key-needed', `This board needs a key: enter a reader key above (${detail}).`);
}

/**
 * Subscribes for the session's life, or until the returned function is called. The server sends
 * a subscription's errors as a result (`next`) and then ends it: the error's code says whether
 * the page can get past it (Redis down at set-up, a limit: asked again shortly) or not (no such
 * board or period). An end with no error is the board's deletion.
 */
function follow<T>(query: string, variables: Record<string, unknown>, next: (data: T) => void): () => void {
  const current = session;
  if (!current) return () => undefined;
  let finished = false;
  const failed = (errors: readonly unknown[]) => {
    finished = true;
    if (session !== current || ending) return;
    const ended = whyEnded(errors, boardId, period);
    if (ended) return end(ended.state, ended.message);
    // Redis was down when it was set up, or a passing refusal: try again shortly.
    serverReady = false;
    setState(connectionState());
    restart(RETRY_MS);
  };
  const sink: Sink<{ data?: T | null; errors?: readonly unknown[] }> = {
    next: ({ data, errors }) => {
      if (errors?.length) return failed(errors);
      if (!data || session !== current) return;
      // Data comes only from a server that has Redis.
      serverReady = true;
      setState(connectionState());
      next(data);
    },
    error: (error) => {
      // A refused key is told by the socket's close (see `closed`).
      if (isClose(error, CLOSE_FORBIDDEN)) return;
      failed(Array.isArray(error) ? (error as unknown[]) : [error]);
    },
    complete: () => {
      if (finished || session !== current || ending) return;
      finished = true;
      end('ended', `The board "${boardId}" was deleted: this page will not change any more.`);
    },
  };
  const unsubscribe = current.client.subscribe({ query, variables }, sink);
  const stopFollowing = () => {
    finished = true;
    current.subscriptions.delete(stopFollowing);
    unsubscribe();
  };
  current.subscriptions.add(stopFollowing);
  return stopFollowing;
}

function followAround(playerId: string): void {
  aroundNote.hidden = true;
  endAround?.();
  endAround = follow<{ aroundChanged: { entries: Entry[] } }>(AROUND, { board: boardId, player: playerId, radius: AROUND_RADIUS, period }, ({ aroundChanged }) => {
    const entries = aroundChanged.entries;
    aroundNote.hidden = entries.length > 0;
    aroundNote.textContent = entries.length > 0 ? '' : `${playerId} has no score on this board yet.`;
    around.show(entries, playerId);
  });
}

/** Follows another period: the lists start again from its snapshot, and movement from there. */
function switchPeriod(choice: PeriodChoice): void {
  period = choice;
  ending = null;
  showMessage(null);
  movement.reset();
  tabs.mark(null);
  ticker.clear();
  top.clear();
  around.clear();
  setState('connecting');
  restart(0);
}

/** Which period the top is of: it changes when a subscription to the current period rolls over. */
function showPeriod(shown: { kind: string; key: string }): void {
  const label = $('period');
  // ALL_TIME is what a board without periods shows: nothing to say.
  label.hidden = shown.kind === 'ALL_TIME';
  label.dataset.kind = shown.kind;
  label.dataset.key = shown.key;
  label.textContent = `${shown.kind.charAt(0)}${shown.kind.slice(1).toLowerCase().replace('_', ' ')} · ${shown.key}`;
  tabs.mark(shown);
}

/** The board's title and the periods it keeps (for the tabs); a missing board is told by the top's error. */
async function loadBoard(client: Client): Promise<void> {
  type Board = { title: string | null; id: string; periods: { kind: string; key: string }[] };
  const result = await new Promise<{ data?: { leaderboard: Board | null } | null }>((resolve) => {
    let value = {};
    client.subscribe({ query: BOARD, variables: { board: boardId } }, {
      next: (received) => (value = received),
      error: () => resolve({}),
      complete: () => resolve(value),
    });
  });
  const board = result.data?.leaderboard;
  if (!board) return;
  const title = board.title || board.id;
  $('title').textContent = title;
  document.title = `${title} · Standings live`;
  tabs.show(tabsOf(board.periods));
}

/** Whether a connection_ack or ping payload says the server has Redis (`{ redis: "up" | "down" }`); `otherwise` when it says nothing. */
function redisUp(payload: unknown, otherwise: boolean): boolean {
  const redis = typeof payload === 'object' && payload !== null ? (payload as { redis?: unknown }).redis : undefined;
  return redis === 'up' ? true : redis === 'down' ? false : otherwise;
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
  ending = null;
  setState('connecting');
  restart(0);
});

$('search').addEventListener('submit', (event) => {
  event.preventDefault();
  const playerId = $<HTMLInputElement>('player').value.trim();
  aroundPlayer = playerId || null;
  around.clear();
  if (aroundPlayer !== null && session) followAround(aroundPlayer);
  else {
    endAround?.();
    aroundNote.hidden = true;
  }
});

addEventListener('online', () => setState(connectionState()));
addEventListener('offline', () => setState(connectionState()));
if (sessionStorage.getItem(KEY_STORAGE)) $<HTMLInputElement>('key').placeholder = 'key set for this tab (empty: forget it)';
setState('connecting');
start();
