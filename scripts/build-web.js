// Builds the browser code under web/ into dist/web: hash-named assets (served with a year's cache)
// and the two pages that name them (served fresh). Part of `npm run build`; the browser tests'
// global set-up runs it too, since they run from the sources.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const esbuild = require('esbuild');

const ROOT = path.join(__dirname, '..');
const WEB = path.join(ROOT, 'web');
/** The spectator page's own script, gzipped (docs/spectator.md, "Size budget"). GraphiQL is exempt. */
const LIVE_SCRIPT_BUDGET_BYTES = 60 * 1024;
// Monaco, GraphiQL's editor, runs its language services in workers; without its own URLs it
// would fetch them from a CDN.
const MONACO_WORKERS = {
  editor: 'monaco-editor/esm/vs/editor/editor.worker.js',
  json: 'monaco-editor/esm/vs/language/json/json.worker.js',
  graphql: 'monaco-graphql/esm/graphql.worker.js',
};

async function buildWeb(outDir = path.join(ROOT, 'dist', 'web')) {
  const assets = path.join(outDir, 'assets');
  fs.rmSync(outDir, { recursive: true, force: true });
  const common = {
    bundle: true,
    minify: true,
    outdir: assets,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    target: ['chrome110', 'firefox110', 'safari16'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  };
  const [live, explorer, workers] = await Promise.all([
    esbuild.build({ ...common, entryPoints: { live: path.join(WEB, 'live', 'main.ts') }, format: 'esm', tsconfig: path.join(WEB, 'tsconfig.json') }),
    esbuild.build({
      ...common,
      entryPoints: { explorer: path.join(WEB, 'explorer', 'main.tsx') },
      format: 'esm',
      tsconfig: path.join(WEB, 'tsconfig.json'),
      loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file' },
    }),
    esbuild.build({
      ...common,
      entryPoints: Object.fromEntries(Object.entries(MONACO_WORKERS).map(([name, module]) => [`${name}.worker`, require.resolve(module)])),
      format: 'iife',
    }),
  ]);
  const liveFiles = outputs(live, outDir);
  const explorerFiles = outputs(explorer, outDir);
  const workerFiles = outputs(workers, outDir);

  const liveScript = fs.readFileSync(path.join(outDir, liveFiles['live.js']));
  const gzipped = zlib.gzipSync(liveScript, { level: 9 }).length;
  if (gzipped > LIVE_SCRIPT_BUDGET_BYTES) {
    throw new Error(`web/live: the spectator script is ${gzipped} bytes gzipped, over its budget of ${LIVE_SCRIPT_BUDGET_BYTES}`);
  }

  const page = (template, values) =>
    fs.readFileSync(path.join(WEB, template), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, name) => {
      if (values[name] === undefined) throw new Error(`${template}: nothing for {{${name}}}`);
      return values[name];
    });
  fs.writeFileSync(path.join(outDir, 'live.html'), page('live/index.html', { script: `/${liveFiles['live.js']}`, style: `/${liveFiles['live.css']}` }));
  fs.writeFileSync(
    path.join(outDir, 'explorer.html'),
    page('explorer/index.html', { script: `/${explorerFiles['explorer.js']}`, style: `/${explorerFiles['explorer.css']}` }),
  );
  const manifest = {
    liveScriptGzipBytes: gzipped,
    workers: Object.fromEntries(Object.keys(MONACO_WORKERS).map((name) => [name, `/${workerFiles[`${name}.worker.js`]}`])),
  };
  fs.writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Each entry's outputs by their unhashed name ("live.js", "live.css"), as paths under outDir. */
function outputs(result, outDir) {
  const named = {};
  for (const file of Object.keys(result.metafile.outputs)) {
    const relative = path.relative(outDir, path.resolve(ROOT, file)).split(path.sep).join('/');
    named[path.basename(file).replace(/-[A-Z0-9]{8}(?=\.)/, '')] = relative;
  }
  return named;
}

module.exports = { buildWeb, LIVE_SCRIPT_BUDGET_BYTES };

if (require.main === module) {
  buildWeb().then(
    ({ liveScriptGzipBytes }) => console.log(`web: built into dist/web (spectator script ${(liveScriptGzipBytes / 1024).toFixed(1)} KB gzipped)`),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
