import type { IncomingMessage } from 'node:http';

/** Bodies larger than this are refused (413) before they are parsed. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Why a body cannot be used, with the HTTP status that says so. */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * The parsed body of a JSON request, or undefined when the request says it carries something else
 * (Apollo then answers it: CSRF prevention, or a missing body). Like body-parser's strict JSON:
 * only an object or an array at the top, UTF-8 only, at most BODY_LIMIT_BYTES. A BodyError says
 * why a body cannot be used, thrown at once for its headers and rejected for its bytes. One
 * promise per body, which the request's handler awaits: the body is parsed where it ends.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> | undefined {
  const contentType = req.headers['content-type'];
  if (contentType === undefined) return undefined;
  // What nearly every client sends needs no parsing.
  if (contentType !== 'application/json' && !isJsonInUtf8(contentType)) return undefined;
  if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES) throw tooLarge();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= BODY_LIMIT_BYTES) return void chunks.push(chunk);
      // The rest is read and dropped, so the connection can carry the answer and stay usable.
      req.off('data', onData);
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    // 'end' and 'error' come once each: `on` spares the wrapper `once` makes.
    req.on('end', () => {
      // Refused as too large already: what was read is not parsed.
      if (length > BODY_LIMIT_BYTES) return;
      try {
        resolve(parseJson((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length)).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    // A client gone mid-body (or cut at shutdown) is its request's failure, as body-parser has it.
    req.on('error', () => reject(new BodyError(400, 'request aborted')));
  });
}

function parseJson(text: string): unknown {
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new BodyError(400, (err as Error).message);
  }
  if (body === null || typeof body !== 'object') throw new BodyError(400, 'the body must be a JSON object or array');
  return body;
}

/** Whether a Content-Type names JSON; BodyError 415 when its charset is not UTF-8. */
function isJsonInUtf8(contentType: string): boolean {
  const [mediaType, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (!JSON_MEDIA_TYPE.test(mediaType)) return false;
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new BodyError(415, `unsupported charset "${charset.toUpperCase()}"`);
  }
  return true;
}

const tooLarge = () => new BodyError(413, `request entity too large (limit ${BODY_LIMIT_BYTES} bytes)`);
