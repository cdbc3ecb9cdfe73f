import * as fs from 'node:fs';
import * as path from 'node:path';

// Every relative link in the docs leads to a file that exists and, with a #anchor, to a heading
// of that file: pages move between README.md and docs/, and a moved section must not leave
// links behind it.
const ROOT = path.resolve(__dirname, '..', '..', '..');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(file);
    return entry.name.endsWith('.md') ? [file] : [];
  });
}

const CHECKED = [
  ...['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md'].map((name) => path.join(ROOT, name)),
  ...markdownFiles(path.join(ROOT, 'docs')),
];

/** The text GitHub renders, without code: fenced blocks and inline code spans hold no links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchor GitHub gives a heading: its visible text, lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  // Code spans show their text as it is (`<boardId>` too); outside them HTML tags and emphasis show nothing.
  const visible = heading
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part.slice(1, -1) : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>|\*/g, '')))
    .join('');
  return visible.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor a file offers: its headings' slugs (a repeated one gets -1, -2, ...) and HTML ids. */
function anchorsOf(file: string): Set<string> {
  const markdown = fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** Inline links and images, and reference definitions: `[text](target "title")`, `[name]: target`. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]);
  return [...inline, ...references];
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(fs.readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [pathPart, anchor] = target.split('#', 2);
    const linked = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
    const where = `${path.relative(ROOT, file)}: ${target}`;
    if (!fs.existsSync(linked)) broken.push(`${where} (no such file)`);
    else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(decodeURIComponent(anchor))) {
      broken.push(`${where} (no such heading in ${path.relative(ROOT, linked)})`);
    }
  }
  return broken;
}

describe('links in the docs', () => {
  it.each(CHECKED.map((file) => [path.relative(ROOT, file), file]))('%s: every relative link and #anchor resolves', (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('covers README.md and the pages under docs/', () => {
    expect(CHECKED.map((file) => path.relative(ROOT, file))).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/api.md', 'docs/api/schema.md']));
  });
});

describe('githubSlug', () => {
  it.each([
    ['What a write\'s answer means', 'what-a-writes-answer-means'],
    ['Spectator page: `/live/<boardId>`', 'spectator-page-liveboardid'],
    ['Every core: `STANDINGS_WORKERS`', 'every-core-standings_workers'],
    ['The `cluster` profile of docker-compose.yml', 'the-cluster-profile-of-docker-composeyml'],
    ['Mutation results (userErrors)', 'mutation-results-usererrors'],
    ['Score ranges, dense ranks and scores at a position', 'score-ranges-dense-ranks-and-scores-at-a-position'],
  ])('%s -> #%s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});
