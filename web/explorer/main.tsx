// GraphiQL, served by Standings itself (src/server/explorer.ts) so that it works without internet
// access and under a strict Content-Security-Policy: nothing here loads from another origin.
import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { DOC_EXPLORER_PLUGIN } from '@graphiql/plugin-doc-explorer';
import { GraphiQL } from 'graphiql';
import { Kind, parse } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { editor } from 'monaco-graphql/esm/monaco-editor.js';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './explorer.css';
import { EXAMPLE_VARIABLES, exampleTabs } from './examples';

/** What the server puts in the page (see explorerLandingPage in src/server/explorer.ts). */
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

/** Narrower than this, the docs beside the editors would squeeze them: they start closed, a click away. */
const DOCS_OPEN_FROM = '(min-width: 1000px)';
/** A phone, as explorer.css has it. */
const PHONE = '(max-width: 719px)';

// An editor beside the docs, or on a phone, shows a few words a line: lines wider than that wrap
// rather than hide their ends (the examples' comments say what to run first). On a phone the
// width goes to the text rather than to line numbers and folding marks.
const EDITOR_OPTIONS = { wordWrap: 'on' } as const;
const PHONE_EDITOR_OPTIONS = { ...EDITOR_OPTIONS, lineNumbers: 'off', folding: false } as const;
editor.onDidCreateEditor((created) => created.updateOptions(matchMedia(PHONE).matches ? PHONE_EDITOR_OPTIONS : EDITOR_OPTIONS));

const httpUrl = new URL(config.path, location.href).href;
const wsUrl = httpUrl.replace(/^http/, 'ws');

/**
 * GraphiQL hands the headers editor's contents to every call, but a WebSocket presents its key
 * once, when it opens: a socket is kept per set of headers, and replaced when they change.
 */
let socket: { headers: string; client: Client; fetcher: Fetcher } | undefined;
const fetcher: Fetcher = (sent, sentOptions) => {
  const [params, options] = current(sent, sentOptions);
  const headers = options?.headers ?? {};
  const key = JSON.stringify(headers);
  if (socket?.headers !== key) {
    void socket?.client.dispose();
    const client = createClient({ url: wsUrl, connectionParams: { headers }, lazy: true, retryAttempts: 0 });
    socket = { headers: key, client, fetcher: createGraphiQLFetcher({ url: httpUrl, wsClient: client, enableIncrementalDelivery: false }) };
  }
  return socket.fetcher(params, options);
};

/**
 * GraphiQL works out the operation (name, and so whether it is a subscription) a moment after the
 * editor changes: a Run right after switching tabs would send the previous tab's. Taken from the
 * text that is sent instead, when it holds a single operation.
 */
function current(params: Parameters<Fetcher>[0], options: Parameters<Fetcher>[1]): Parameters<Fetcher> {
  let documentAST;
  try {
    documentAST = parse(params.query);
  } catch {
    return [params, options];
  }
  const operations = documentAST.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const names = operations.map((operation) => operation.name?.value ?? null);
  if (operations.length !== 1 || names.includes(params.operationName ?? null)) return [params, { ...options, documentAST }];
  return [{ ...params, operationName: names[0] }, { ...options, documentAST }];
}

createRoot(document.getElementById('explorer')!).render(
  <GraphiQL
    fetcher={fetcher}
    defaultTabs={exampleTabs(config.headers)}
    initialVariables={EXAMPLE_VARIABLES}
    initialHeaders={config.headers}
    defaultHeaders={config.headers}
    defaultEditorToolsVisibility="headers"
    visiblePlugin={matchMedia(DOCS_OPEN_FROM).matches ? DOC_EXPLORER_PLUGIN : undefined}
  />,
);
