import type { ExecutionResult, FormattedExecutionResult } from 'graphql';
import { MessageType } from 'graphql-ws';
import { WebSocket } from 'ws';

const CLOSE = '}'.charCodeAt(0);
const TEXT = { binary: false };

/**
 * Sends one subscription's result over its socket: true when the socket can take more at once,
 * false when it cannot yet, and then `drained` runs once this frame is written.
 */
export type NextSender = (result: ExecutionResult, drained: () => void) => boolean;

/**
 * graphql-ws `next` messages for subscription results, which the live layer shares: one result
 * object per event for every subscriber of it. graphql-ws would, for each subscriber, copy the
 * result, run onNext, stringify the whole message and send it behind a promise that waits for the
 * write; here a result is formatted and turned into UTF-8 JSON once, and each subscriber's message
 * is its id's prefix, that JSON and a closing brace: the bytes graphql-ws sends
 * (`JSON.stringify({ id, type: 'next', payload })`), in one text frame. A send that the socket
 * takes at once makes no promise and no callback: the live layer calls it for every subscriber
 * of an update in one loop.
 */
export function createSharedFrames(format: (result: ExecutionResult) => FormattedExecutionResult) {
  const payloads = new WeakMap<ExecutionResult, Buffer>();

  const payloadOf = (result: ExecutionResult): Buffer => {
    let payload = payloads.get(result);
    if (!payload) payloads.set(result, (payload = Buffer.from(JSON.stringify(format(result)))));
    return payload;
  };

  /** The sender of subscription `id`'s results over `socket`. */
  return (socket: WebSocket, id: string): NextSender => {
    const prefix = Buffer.from(`{"id":${JSON.stringify(id)},"type":"${MessageType.Next}","payload":`);
    return (result, drained) => {
      const payload = payloadOf(result);
      // As graphql-ws does: a socket closing takes nothing more.
      if (socket.readyState !== WebSocket.OPEN) return true;
      const frame = Buffer.allocUnsafe(prefix.length + payload.length + 1);
      prefix.copy(frame);
      payload.copy(frame, prefix.length);
      frame[frame.length - 1] = CLOSE;
      // A client that reads slowly holds its subscription back, as graphql-ws' wait for each write
      // did, rather than letting frames pile up in memory; one that keeps up costs no callback.
      if (socket.bufferedAmount === 0) {
        socket.send(frame, TEXT);
        return true;
      }
      socket.send(frame, TEXT, () => drained());
      return false;
    };
  };
}
