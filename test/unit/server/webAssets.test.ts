import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createWebRoutes, LIVE_PAGE_CSP } from '../../../src/server/webAssets';

describe('web routes', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-web-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'live.html'), '<!doctype html><title>live</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'live-ABCD1234.js'), 'console.log("live");'.repeat(50));
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not an asset');
    const routes = createWebRoutes(dir);
    server = http.createServer((req, res) => {
      if (!routes.serve(req, res, req.url!.split('?')[0])) res.writeHead(418).end('next route');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves one page for every board, fresh, under its Content-Security-Policy', async () => {
    for (const board of ['blitz', 'tenant-a.weekly:2026-W49']) {
      const response = await fetch(`${base}/live/${board}?top=20`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('<!doctype html><title>live</title>');
      expect(Object.fromEntries(['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options'].map((name) => [name, response.headers.get(name)]))).toEqual({
        'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': LIVE_PAGE_CSP, 'x-content-type-options': 'nosniff',
      });
    }
  });

  it('serves hash-named assets for a year, gzipped when asked', async () => {
    const plain = await fetch(`${base}/assets/live-ABCD1234.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const gzipped = await fetch(`${base}/assets/live-ABCD1234.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(Number(gzipped.headers.get('content-length'))).toBeLessThan(Number(plain.headers.get('content-length')));
    expect(await gzipped.text()).toBe(await plain.text());
  });

  it('serves nothing else: unknown assets 404, other files and paths are not its own', async () => {
    expect((await fetch(`${base}/assets/nothing-ABCD1234.js`)).status).toBe(404);
    expect((await fetch(`${base}/assets/..%2fsecret.txt`)).status).toBe(418);
    expect((await fetch(`${base}/assets/secret.txt`)).status).toBe(418);
    expect((await fetch(`${base}/live/`)).status).toBe(418);
    expect((await fetch(`${base}/graphql`)).status).toBe(418);
    const post = await fetch(`${base}/live/blitz`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('says how to build the pages when they are not built', async () => {
    const unbuilt = createWebRoutes(path.join(dir, 'missing'));
    const missing = http.createServer((req, res) => void unbuilt.serve(req, res, req.url!));
    await new Promise<void>((resolve) => missing.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(missing.address() as AddressInfo).port}/live/blitz`);
      expect([response.status, await response.text()]).toEqual([503, '/live/blitz: the web pages are not built: run npm run build\n']);
    } finally {
      await new Promise((resolve) => missing.close(resolve));
    }
  });
});
