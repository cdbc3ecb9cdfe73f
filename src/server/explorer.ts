import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { ApolloServerPlugin } from '@apollo/server';
import { WEB_DIR } from './webAssets';

const CONFIG_MARK = '__STANDINGS_EXPLORER_CONFIG__';

export interface ExplorerOptions {
  graphqlPath: string;
  /** The admin key `npm start` made for this run (see developmentKey in main.ts), if any. */
  developmentKey?: string;
  /** Where the server listens, once it does (http.Server#address). */
  address(): AddressInfo | string | null;
  webDir?: string;
}

/**
 * The explorer (GraphiQL, built by scripts/build-web.js from web/explorer) as Apollo's landing
 * page: what a browser gets when it opens the GraphQL URL. Everything it loads comes from this
 * server, so it works offline and under the page's Content-Security-Policy.
 */
export function explorerLandingPage(options: ExplorerOptions): ApolloServerPlugin {
  const webDir = options.webDir ?? WEB_DIR;
  let built: { template: string; workers: Record<string, string> } | null | undefined;
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return {
            html: async () => {
              built ??= readBuilt(webDir);
              if (!built) return NOT_BUILT;
              const config = { path: options.graphqlPath, headers: explorerHeaders(options.address(), options.developmentKey), workers: built.workers };
              return built.template.replace(CONFIG_MARK, () => scriptJson(config));
            },
          };
        },
      };
    },
  };
}

/**
 * What the explorer's headers editor starts with. The development key goes into the page only
 * while the server listens on loopback alone, where nobody but this machine can load it.
 */
export function explorerHeaders(address: AddressInfo | string | null, developmentKey: string | undefined): string {
  const loopbackOnly = address !== null && typeof address === 'object' && isLoopback(address.address);
  return JSON.stringify(developmentKey && loopbackOnly ? { Authorization: `Bearer ${developmentKey}` } : {}, null, 2);
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^(?:::ffff:)?127\./.test(address);
}

function readBuilt(webDir: string): { template: string; workers: Record<string, string> } | null {
  try {
    const template = fs.readFileSync(path.join(webDir, 'explorer.html'), 'utf8');
    const { workers } = JSON.parse(fs.readFileSync(path.join(webDir, 'manifest.json'), 'utf8')) as { workers: Record<string, string> };
    return { template, workers };
  } catch {
    return null;
  }
}

/** JSON that cannot end the <script> element it sits in. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Standings</title>
<p>The explorer is not built: run <code>npm run build</code> (<code>npm start</code> does), then reload.</p>`;
