import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The folders of src/ are layers (ARCHITECTURE.md): an import may point to its own layer or one
 * below, never up. src/model, the vocabulary the others share, is the lowest and imports none of
 * them. src/dev is development tooling that production never loads, so the server may name its
 * types but not load it (a runtime `require` in main.ts is the one way in).
 */
const SRC = path.join(__dirname, '..', '..', 'src');
const ORDER = ['model', 'store', 'domain', 'graphql', 'server'];
const OWN = new Set(['errors.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The layer a file of src/ belongs to, or null for shared top-level modules (src/errors.ts). */
function layerOf(file: string): string | null {
  const [top] = path.relative(SRC, file).split(path.sep);
  return OWN.has(top) ? null : top.replace(/\.ts$/, '');
}

function importsOf(file: string): { target: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: { target: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'/gm)) {
    found.push({ target: path.resolve(path.dirname(file), match[2]), typeOnly: Boolean(match[1]) });
  }
  return found;
}

it('finds the layers it checks', () => {
  const layers = new Set(sourceFiles(SRC).map(layerOf));
  for (const layer of [...ORDER, 'dev']) expect(layers).toContain(layer);
});

it('has no import that points up a layer, and loads development tooling only from itself', () => {
  const upward: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = layerOf(file);
    if (from === null) continue;
    for (const { target, typeOnly } of importsOf(file)) {
      // A folder's index ('../model') is the folder's layer.
      const to = layerOf(target + '.ts');
      if (to === null || to === from || to === 'generated') continue;
      const where = `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`;
      if (to === 'dev') {
        if (!typeOnly) upward.push(`${where} (development tooling loaded)`);
      } else if (from !== 'dev' && ORDER.indexOf(to) > ORDER.indexOf(from)) {
        upward.push(where);
      }
    }
  }
  expect(upward).toEqual([]);
});

it('keeps the model at the bottom: it imports nothing of the layers or of src/errors.ts', () => {
  const model = sourceFiles(path.join(SRC, 'model'));
  expect(model.length).toBeGreaterThan(0);
  const outside = model.flatMap((file) =>
    importsOf(file).filter(({ target }) => layerOf(target + '.ts') !== 'model').map(({ target }) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`));
  expect(outside).toEqual([]);
});
