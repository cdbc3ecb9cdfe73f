// What the page can be in, as its status badge says it, and which errors end it: the error's
// extensions.code tells a board that is not there from a period it does not keep from a refusal
// that passes (Redis down while the subscription was set up, a limit).
/** The period the page shows: a kind, and a key for one past period (none: the current one). */
export interface PeriodChoice {
  kind: string;
  key?: string;
}

export type PageState =
  | 'connecting' | 'live' | 'reconnecting' | 'offline'
  | 'key-needed' | 'refused' | 'missing' | 'unkept' | 'ended';

export const STATE_LABELS: Record<PageState, string> = {
  connecting: 'connecting',
  live: 'live',
  reconnecting: 'reconnecting',
  offline: 'offline',
  'key-needed': 'key needed',
  refused: 'key refused',
  missing: 'not found',
  unkept: 'period not kept',
  ended: 'ended',
};

/** States that stop the page's session: nothing changes them but the viewer (a key, another period). */
export const ENDING_STATES: ReadonlySet<PageState> = new Set(['key-needed', 'refused', 'missing', 'unkept', 'ended']);

interface GraphQLErrorLike {
  message?: string;
  extensions?: { code?: string; details?: { field?: string } };
}

/** The state and message a subscription's errors end the page with; null when they may pass. */
export function whyEnded(errors: readonly unknown[], boardId: string, period: PeriodChoice | null): { state: PageState; message: string } | null {
  const error = (errors[0] ?? {}) as GraphQLErrorLike;
  const code = error.extensions?.code;
  const asked = period ? `${period.kind}${period.key ? ` ${period.key}` : ''}` : '';
  // NOT_FOUND naming the period's kind: the current season, between seasons (the message says when the next starts).
  if (code === 'NOT_FOUND' && error.extensions?.details?.field?.endsWith('.kind')) {
    return { state: 'unkept', message: `${error.message ?? 'No season is running now'}: pick another period above.` };
  }
  // NOT_FOUND names the board, or, for a period asked by key, a period no longer kept.
  if (code === 'NOT_FOUND' && period?.key) return { state: 'unkept', message: `This board no longer keeps the period ${asked}: pick another above.` };
  if (code === 'NOT_FOUND') return { state: 'missing', message: `There is no board "${boardId}". Check the address.` };
  if (code === 'BAD_USER_INPUT' && period) return { state: 'unkept', message: `This board does not keep ${asked} periods: pick one it keeps above.` };
  if (code === 'BAD_USER_INPUT') return { state: 'missing', message: `Cannot show "${boardId}": ${error.message ?? 'the server refused it'}.` };
  return null;
}
