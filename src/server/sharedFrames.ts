import type { Writable } from 'node:stream';
import type { ExecutionResult, FormattedExecutionResult } from 'graphql';
import { MessageType } from 'graphql-ws';
import { WebSocket } from 'ws';

const CLOSE = '}'.charCodeAt(0);
/** RFC 6455's first byte of a whole (FIN) text frame; a server's frames are not masked. */
const FIN_TEXT = 0x81;

/** Where one subscription's results go: its socket, the connection under it, and its id's part of each message. */
export interface FrameTarget {
  readonly socket: WebSocket;
  /** The upgrade request's socket, which the frames are written to. */
  readonly connection: Writable;
  /** What each message starts with (see nextPrefix). */
  readonly prefix: Buffer;
}

/**
 * Sends one subscription's result to its target: true when the socket can take more at once,
 * false when it cannot yet, and then `drained` runs once this frame is written.
 */
export type NextSender = (to: FrameTarget, result: ExecutionResult, drained: () => void) => boolean;

/** The start of subscription `id`'s `next` messages, up to their payload. */
export function nextPrefix(id: string): Buffer {
  return Buffer.from(`{"id":${JSON.stringify(id)},"type":"${MessageType.Next}","payload":`);
}

/** The length of a text frame's header for a message of `length` bytes (RFC 6455, 5.2). */
function headerLength(length: number): number {
  return length < 126 ? 2 : length < 0x10000 ? 4 : 10;
}

function writeHeader(frame: Buffer, length: number): void {
  frame[0] = FIN_TEXT;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 0x10000) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt16BE(0, 2);
    frame.writeUIntBE(length, 4, 6);
  }
}

/**
 * graphql-ws `next` messages for subscription results, which the live layer shares: one result
 * object per event for every subscriber of it. graphql-ws would, for each subscriber, copy the
 * result, run onNext, stringify the whole message and send it behind a promise that waits for the
 * write; here a result is formatted and turned into UTF-8 JSON once, and each subscriber's message
 * is its id's prefix, that JSON and a closing brace: the bytes graphql-ws sends
 * (`JSON.stringify({ id, type: 'next', payload })`), in one text frame. A send that the socket
 * takes at once makes no promise and no callback: the live layer calls it for every subscriber
 * of an update in one loop. The sender is one function for all subscriptions, given each one's
 * target (a subscription is its own target), so that loop calls no closure of a subscriber's own.
 *
 * The frame, header included, is made here in one buffer and written straight to the connection
 * under the WebSocket: ws' `send` would build a header, cork the connection and write two buffers
 * for every subscriber of the same update. This stays in order with what ws itself
 * sends (pings, other messages, the close frame) because ws, without compression, writes each
 * frame to the connection as it is sent, queueing nothing (the server turns compression off:
 * websocket.ts); frames stop once ws starts closing the socket.
 */
export function createSharedFrames(format: (result: ExecutionResult) => FormattedExecutionResult): NextSender {
  const payloads = new WeakMap<ExecutionResult, Buffer>();

  const payloadOf = (result: ExecutionResult): Buffer => {
    let payload = payloads.get(result);
    if (!payload) payloads.set(result, (payload = Buffer.from(JSON.stringify(format(result)))));
    return payload;
  };

  return ({ socket, connection, prefix }: FrameTarget, result: ExecutionResult, drained: () => void): boolean => {
    const payload = payloadOf(result);
    // As graphql-ws does: a socket closing takes nothing more.
    if (socket.readyState !== WebSocket.OPEN) return true;
    const length = prefix.length + payload.length + 1;
    const header = headerLength(length);
    const frame = Buffer.allocUnsafe(header + length);
    writeHeader(frame, length);
    prefix.copy(frame, header);
    payload.copy(frame, header + prefix.length);
    frame[frame.length - 1] = CLOSE;
    // A client that reads slowly holds its subscription back, as graphql-ws' wait for each write
    // did, rather than letting frames pile up in memory; one that keeps up costs no callback.
    if (connection.writableLength === 0) {
      connection.write(frame);
      return true;
    }
    connection.write(frame, () => drained());
    return false;
  };
}
