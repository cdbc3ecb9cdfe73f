// What `npm start` and `npm run demo` print for a person at a terminal, on lines of their own:
// where the API, the explorer and the spectator pages are, the admin key and how to send it, and
// a command to try next. Composed here, printed by src/server/main.ts and scripts/demo.ts.
import { LIVE_PATH } from './webAssets';

export interface Welcome {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql (the explorer is the same URL). */
  api: string;
  /** Whether the server gives browsers the explorer (EXPLORER; on by default outside production). */
  explorer: boolean;
  /** The admin key made for this run, or the one the demo sends; absent when keys are configured. */
  adminKey?: string;
  /** A board that exists (the demo's): its spectator page is named, and the command reads it. */
  board?: { id: string; top?: number };
}

/**
 * Whether to print the welcome: for a person at a terminal in development or test. Production
 * and output that goes to a file or a log collector get the JSON log lines alone.
 */
export function greetsPerson(stdout: { isTTY?: boolean }, nodeEnv: string): boolean {
  return stdout.isTTY === true && nodeEnv !== 'production';
}

/** The welcome block: starts and ends with an empty line, so it stands apart from the log lines around it. */
export function welcomeText({ api, explorer, adminKey, board }: Welcome): string {
  // Concatenated, not resolved with URL: the placeholder must stay readable, not %3CboardId%3E.
  const page = (id: string) => `${new URL(api).origin}${LIVE_PATH}${id}`;
  const lines = ['', 'Standings is ready.', `  GraphQL API:     ${api}`];
  if (explorer) lines.push(`  Explorer:        ${api}  (open it in a browser)`);
  lines.push(`  Spectator pages: ${page('<boardId>')}`);
  if (board) lines.push(`  Demo board:      ${page(board.id)}${board.top ? `?top=${board.top}` : ''}`);
  lines.push('');
  if (adminKey) {
    lines.push(
      `Admin key: ${adminKey}`,
      `  Send it as the header "Authorization: Bearer ${adminKey}"${explorer ? ' (the explorer fills it in while the server listens on loopback only)' : ''}.`,
    );
  } else {
    lines.push('Send a key from STANDINGS_API_KEYS as the header "Authorization: Bearer <key>".');
  }
  lines.push(
    '',
    'Next, in a second terminal (this one keeps the server running; Ctrl-C stops it):',
    `  export KEY=${adminKey ?? '<an admin key from STANDINGS_API_KEYS>'}`,
    `  ${nextCommand(api, board?.id)}`,
    "Then follow the README's tour.",
    '',
  );
  return lines.map((line) => `${line}\n`).join('');
}

/** A curl that works as pasted: reads the board when there is one, else creates one. */
function nextCommand(api: string, boardId: string | undefined): string {
  // Board ids are letters, digits and -_.: only, so they need no escaping inside the quotes.
  const query = boardId
    ? `{ leaderboard(id: \\"${boardId}\\") { totalCount entries(first: 5) { nodes { rank playerId score } } } }`
    : 'mutation { createLeaderboard(input: { id: \\"blitz\\", sortOrder: DESCENDING, updatePolicy: BEST }) { leaderboard { id } userErrors { message } } }';
  return `curl -s ${api} -H "authorization: Bearer $KEY" -H 'content-type: application/json' -d '{"query": "${query}"}'`;
}
