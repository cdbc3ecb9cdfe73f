// GraphiQL, served by Standings itself (src/server/explorer.ts) so that it works without internet
// access and under a strict Content-Security-Policy: nothing here loads from another origin.
import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { DOC_EXPLORER_PLUGIN } from '@graphiql/plugin-doc-explorer';
import { GraphiQL } from 'graphiql';
import { type Client, createClient } from 'graphql-ws';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import { exampleTabs } from './examples';

/** What the server puts in the page (see explorerPage in src/server/explorer.ts). */
interface ExplorerConfig {
  /** The GraphQL endpoint's path; HTTP and WebSocket share it. */
  path: string;
  /** What the headers editor starts with, as JSON text. */
  headers: string;
  /** Monaco's workers, by label, as built by scripts/build-web.js. */
  workers: Record<'editor' | 'json' | 'graphql', string>;
}

const config = JSON.parse(document.getElementById('standings-explorer')!.textContent!) as ExplorerConfig;

(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker: (_id: string, label: string) => new Worker(label === 'json' || label === 'graphql' ? config.workers[label] : config.workers.editor),
};

const httpUrl = new URL(config.path, location.href).href;
const wsUrl = httpUrl.replace(/^http/, 'ws');

/**
 * GraphiQL hands the headers editor's contents to every call, but a WebSocket presents its key
 * once, when it opens: a socket is kept per set of headers, and replaced when they change.
 */
let socket: { headers: string; client: Client; fetcher: Fetcher } | undefined;
const fetcher: Fetcher = (params, options) => {
  const headers = options?.headers ?? {};
  const key = JSON.stringify(headers);
  if (socket?.headers !== key) {
    void socket?.client.dispose();
    const client = createClient({ url: wsUrl, connectionParams: { headers }, lazy: true, retryAttempts: 0 });
    socket = { headers: key, client, fetcher: createGraphiQLFetcher({ url: httpUrl, wsClient: client, enableIncrementalDelivery: false }) };
  }
  return socket.fetcher(params, options);
};

createRoot(document.getElementById('explorer')!).render(
  <GraphiQL
    fetcher={fetcher}
    defaultTabs={exampleTabs(config.headers)}
    initialHeaders={config.headers}
    defaultHeaders={config.headers}
    defaultEditorToolsVisibility="headers"
    visiblePlugin={DOC_EXPLORER_PLUGIN}
  />,
);
