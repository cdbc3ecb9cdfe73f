import * as fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

/** Where `npm run build` puts the browser code (scripts/build-web.js); the same from src/ and dist/. */
export const WEB_DIR = path.resolve(__dirname, '..', '..', 'dist', 'web');
export const ASSETS_PATH = '/assets/';
export const LIVE_PATH = '/live/';

/**
 * The spectator page's policy: its own script, style and socket, nothing else (no inline code, no
 * other origin, no framing).
 */
export const LIVE_PAGE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.html': 'text/html; charset=utf-8',
};
/** Asset names are esbuild's `[name]-[hash].ext`: nothing that could climb out of the folder. */
const ASSET_NAME = /^[\w.-]+\.(?:js|css|ttf|woff2?)$/;

interface File {
  body: Buffer;
  gzipped?: Buffer;
  type: string;
}

export interface WebRoutes {
  /** Serves `path` when it is a web page or asset, else returns undefined for the next route. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> | undefined;
}

/**
 * The spectator page (`/live/<boardId>`, one page for every board: it reads the id from its URL)
 * and the built assets, which are hash-named and so cached for a year. Kept apart from the GraphQL
 * path. Files are read once, when first asked for, and kept with their gzipped form.
 */
export function createWebRoutes(webDir = WEB_DIR): WebRoutes {
  const files = new Map<string, File | null>();
  const load = (name: string): File | null => {
    if (!files.has(name)) {
      let file: File | null = null;
      try {
        file = { body: fs.readFileSync(path.join(webDir, name)), type: TYPES[path.extname(name)] ?? 'application/octet-stream' };
      } catch {
        // Not built, or no such asset: a 404.
      }
      files.set(name, file);
    }
    return files.get(name)!;
  };
  return {
    serve(req, res, urlPath) {
      let name: string;
      if (urlPath.startsWith(ASSETS_PATH) && ASSET_NAME.test(urlPath.slice(ASSETS_PATH.length))) name = `assets/${urlPath.slice(ASSETS_PATH.length)}`;
      else if (urlPath.startsWith(LIVE_PATH) && urlPath.length > LIVE_PATH.length) name = 'live.html';
      else return undefined;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end(`${urlPath} answers GET\n`);
        return Promise.resolve();
      }
      const file = load(name);
      if (!file) {
        const hint = name === 'live.html' ? 'the web pages are not built: run npm run build' : 'no such asset';
        res.writeHead(name === 'live.html' ? 503 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(`${urlPath}: ${hint}\n`);
        return Promise.resolve();
      }
      const page = name === 'live.html';
      res.setHeader('content-type', file.type);
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('cache-control', page ? 'no-cache' : 'public, max-age=31536000, immutable');
      if (page) {
        res.setHeader('content-security-policy', LIVE_PAGE_CSP);
        res.setHeader('referrer-policy', 'no-referrer');
      }
      res.setHeader('vary', 'accept-encoding');
      let body = file.body;
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        file.gzipped ??= zlib.gzipSync(file.body);
        body = file.gzipped;
        res.setHeader('content-encoding', 'gzip');
      }
      res.setHeader('content-length', body.length);
      res.end(req.method === 'HEAD' ? undefined : body);
      return Promise.resolve();
    },
  };
}
