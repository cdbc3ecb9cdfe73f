import { readFileSync } from 'node:fs';
import * as path from 'node:path';

// The docs' tables of environment variables and the configuration the server reads stay one
// list: a variable added to src/server/config.ts without a row, or a row left after a variable
// went, fails here.
const ROOT = path.resolve(__dirname, '..', '..', '..');
const TABLES = ['docs/access-and-configuration.md', 'docs/operating.md'];

function variablesRead(): Set<string> {
  const source = readFileSync(path.join(ROOT, 'src/server/config.ts'), 'utf8');
  return new Set([...source.matchAll(/\bread\('([A-Z0-9_]+)'\)/g)].map((match) => match[1]));
}

/** The first cell of every row of a `| variable | default | meaning |` table. */
function variablesDocumented(): Set<string> {
  const names = new Set<string>();
  for (const file of TABLES) {
    let inTable = false;
    for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
      if (/^\|\s*variable\s*\|\s*default\s*\|/.test(line)) inTable = true;
      else if (!line.startsWith('|')) inTable = false;
      else if (inTable) {
        const name = /^\|\s*`([A-Z0-9_]+)`\s*\|/.exec(line)?.[1];
        if (name) names.add(name);
      }
    }
  }
  return names;
}

describe('the configuration tables in the docs', () => {
  it('have a row for every variable src/server/config.ts reads, and no other', () => {
    const read = variablesRead();
    const documented = variablesDocumented();
    expect(read.size).toBeGreaterThan(0);
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
    expect([...documented].filter((name) => !read.has(name)).sort()).toEqual([]);
  });
});
