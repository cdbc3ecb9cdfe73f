import { WebSocket } from 'ws';

/** Stands for a payload in a message while graphql-ws stringifies it; NUL keeps it out of real data. */
const MARKER = '\u0000shared-payload';
const QUOTED_MARKER = JSON.stringify(MARKER);

/**
 * Lets a payload shared by many subscribers be turned into JSON once instead of once per
 * subscriber. graphql-ws stringifies each `next` message (id, type, payload) whole and sends it
 * at once; the replacer given to it puts a marker where the payload goes and remembers the
 * payload's JSON (made on first use, kept per payload object), and the sockets the WebSocket
 * server makes put that JSON back in place of the marker as they send. A message only ever holds
 * one marker, the last value in it (graphql-ws writes id, type, then payload), so an id that
 * happens to look like the marker is left alone.
 */
export function createFrameSharing() {
  const json = new WeakMap<object, string>();
  let pending: string | undefined;

  function replacer(this: unknown, key: string, value: unknown): unknown {
    if (key !== 'payload' || typeof value !== 'object' || value === null || (this as { type?: unknown }).type !== 'next') return value;
    let text = json.get(value);
    if (text === undefined) json.set(value, (text = JSON.stringify(value)));
    pending = text;
    return MARKER;
  }

  class SharedFrameSocket extends WebSocket {
    override send(data: unknown, ...rest: unknown[]): void {
      if (pending !== undefined && typeof data === 'string') {
        const at = data.lastIndexOf(QUOTED_MARKER);
        if (at >= 0) data = data.slice(0, at) + pending + data.slice(at + QUOTED_MARKER.length);
        pending = undefined;
      }
      (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  }

  return { replacer, WebSocket: SharedFrameSocket };
}
