import { WebSocket } from 'ws';

/** Stands for a payload in a message while graphql-ws stringifies it, with the payload's number; NUL keeps it out of real data. */
const MARKER = '\u0000shared-payload:';
const QUOTED_MARKER = JSON.stringify(MARKER).slice(0, -1);

/**
 * Lets a payload shared by many subscribers (one that went through `share`) be turned into JSON
 * once instead of once per subscriber; other payloads (a query's one answer) are left to
 * graphql-ws. graphql-ws stringifies each `next` message (id, type, payload) whole before it sends
 * it; the replacer given to it puts a marker naming the payload where the payload goes (its JSON
 * is made on first use and kept while the payload lives), and the sockets the WebSocket server
 * makes put that JSON in place of the marker as they send. The marker carries all a socket needs,
 * so nothing passes from the replacer to the socket on the side: whatever order messages are
 * stringified and sent in, each gets its own payload. A message only ever holds one marker, the
 * last value in it (graphql-ws writes id, type, then payload), so an id that happens to look like
 * a marker is left alone.
 */
export function createFrameSharing() {
  const shared = new WeakSet<object>();
  const numbers = new WeakMap<object, number>();
  /** By number, the JSON of each payload that is still alive. */
  const texts = new Map<number, string>();
  const forget = new FinalizationRegistry<number>((number) => texts.delete(number));
  let nextNumber = 0;

  function replacer(this: unknown, key: string, value: unknown): unknown {
    if (key !== 'payload' || typeof value !== 'object' || value === null || !shared.has(value) || (this as { type?: unknown }).type !== 'next') {
      return value;
    }
    let number = numbers.get(value);
    if (number === undefined) {
      numbers.set(value, (number = nextNumber++));
      texts.set(number, JSON.stringify(value));
      forget.register(value, number);
    }
    return MARKER + number;
  }

  class SharedFrameSocket extends WebSocket {
    override send(data: unknown, ...rest: unknown[]): void {
      if (typeof data === 'string') data = withPayload(data, texts);
      (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  }

  /** Marks a payload as shared by subscribers: its JSON is made once while it lives. */
  const share = <T extends object>(payload: T): T => {
    shared.add(payload);
    return payload;
  };

  return { replacer, share, WebSocket: SharedFrameSocket };
}

const PAYLOAD_KEY = '"payload":';

/**
 * The message with its marker replaced by the payload's JSON, when it ends with a payload that is
 * a marker: a marker anywhere else (an id a client chose) is not one of ours.
 */
function withPayload(data: string, texts: ReadonlyMap<number, string>): string {
  const at = data.lastIndexOf(QUOTED_MARKER);
  if (at < 0 || !data.startsWith(PAYLOAD_KEY, at - PAYLOAD_KEY.length)) return data;
  const from = at + QUOTED_MARKER.length;
  const end = data.length - 2;
  if (!data.endsWith('"}') || end <= from) return data;
  const digits = data.slice(from, end);
  const text = /^\d+$/.test(digits) ? texts.get(Number(digits)) : undefined;
  return text === undefined ? data : data.slice(0, at) + text + '}';
}
