// The scripts as files: every one has its command module, named as it is, and is listed; its
// header names the reply fields its module reads; it takes in only the helpers it uses.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCRIPTS, type ScriptName } from '../../../src/store/commands';
import { loadScriptSource } from '../../../src/store/scriptLoader';

const DIR = join(__dirname, '../../../src/store/scripts');
const COMMANDS = join(__dirname, '../../../src/store/commands');
const names = Object.keys(SCRIPTS) as ScriptName[];
const text = (name: ScriptName) => readFileSync(join(DIR, `${name}.lua`), 'utf8');
const header = (name: ScriptName) => /^--\[\[([\s\S]*?)\]\]/.exec(text(name))![1];
const includesOf = (name: ScriptName) => [...text(name).matchAll(/^-- @include "([\w-]+)"$/gm)].map((m) => m[1]);
/** The locals an include defines: its functions and constants. */
const definedIn = (include: string) =>
  [...readFileSync(join(DIR, 'includes', `${include}.lua`), 'utf8').matchAll(/^local (?:function )?(\w+)/gm)].map((m) => m[1]);

it('lists every script in the directory, and nothing else', () => {
  const files = readdirSync(DIR).filter((file) => file.endsWith('.lua')).map((file) => file.slice(0, -'.lua'.length));
  expect(files.sort()).toEqual([...names].sort());
});

it('has a command module named as each script, and no other module of that folder but the shared ones', () => {
  const shared = ['arguments', 'index', 'scriptErrors'];
  const modules = readdirSync(COMMANDS).map((file) => file.slice(0, -'.ts'.length)).filter((name) => !shared.includes(name));
  expect(modules.sort()).toEqual([...names].sort());
});

describe.each(names)('%s.lua', (name) => {
  it('names in its header the reply fields its decoder reads, in reply order', () => {
    // `Reply {a, b}` names the reply's fields, `Reply field ...: {a, b}` those of a field's records.
    const documented: Record<string, string[]> = {};
    for (const [, field, list] of header(name).matchAll(/^\s*Reply(?: (\w+))?[^{:]*:?\s*\{([^}]*)\}/gm)) {
      documented[field ?? 'reply'] = list.split(',').map((s) => s.trim());
    }
    const shapes: Record<string, { names: readonly string[] }> = (SCRIPTS[name] as { replies?: Record<string, { names: readonly string[] }> }).replies ?? {};
    expect(documented).toEqual(Object.fromEntries(Object.entries(shapes).map(([field, shape]) => [field, [...shape.names]])));
  });

  it('takes in only helpers it uses', () => {
    // Used: named again somewhere in what Redis runs, by the script or by another helper it uses.
    const source = loadScriptSource(name);
    const unused = includesOf(name).flatMap((include) =>
      definedIn(include).filter((local) => source.match(new RegExp(`\\b${local}\\b`, 'g'))!.length < 2).map((local) => `${include}: ${local}`),
    );
    expect(unused).toEqual([]);
  });
});

it('has no include that no script takes in', () => {
  const used = new Set(names.flatMap(includesOf));
  const files = readdirSync(join(DIR, 'includes')).map((file) => file.slice(0, -'.lua'.length));
  expect(files.filter((include) => !used.has(include))).toEqual([]);
});
