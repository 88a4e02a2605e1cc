import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs and the comments stand on their own: nothing under src/ or docs/, nor the README, points at a
 * document outside this repository (the old shared contract, upstream and methods pages), and every
 * `docs/<page>.md#anchor` pointer lands on a heading or an `<a id>` of that page.
 */
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Names of the outside documents. `decisions.md` is also our own page: only `docs/decisions.md` or a
 * `](decisions.md` link may name it.
 */
const OUTSIDE = new RegExp(
  [/interface\.md/, /upstreams\.md/, /analysis-methods\.md/, /\.\.\/shared/, /\/work\/shared/]
    .concat(/(?<!docs\/|\]\()decisions\.md/)
    .map((r) => r.source)
    .join('|'),
  'g',
);

const TEXT = /\.(ts|md|json|html)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (TEXT.test(name)) out.push(relative(ROOT, p).split('\\').join('/'));
  }
  return out;
}

interface Hit {
  file: string;
  line: number;
  text: string;
}

/** Every match of `re` in the given files, with its line. */
function hits(files: string[], re: RegExp): Hit[] {
  const found: Hit[] = [];
  for (const file of files) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      for (const m of text.matchAll(re)) found.push({ file, line: i + 1, text: m[0] });
    });
  }
  return found;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdown.split('\n')) {
    for (const m of line.matchAll(/<a id="([^"]+)"><\/a>/g)) ids.add(m[1] as string);
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const slug = (h[1] as string)
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    ids.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return ids;
}

const docsFiles = walk(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
const anchors = new Map(docsFiles.map((f) => [f, anchorsOf(readFileSync(join(ROOT, f), 'utf8'))]));

describe('docs and comments are self-contained', () => {
  it('no file under src/ or docs/, nor README.md, points at a document outside the repository', () => {
    const files = [...walk(join(ROOT, 'src')), ...docsFiles, 'README.md'];
    const offending = hits(files, OUTSIDE);
    expect(offending.map((h) => `${h.file}:${h.line} ${h.text}`)).toEqual([]);
  });

  it('the check sees an outside pointer when there is one', () => {
    const probe = ['upstreams.md 1.5', 'interface.md', '../shared/x', 'decisions.md item 5', 'analysis-methods.md'];
    expect(probe.filter((s) => s.match(OUTSIDE))).toEqual(probe);
    expect(['docs/decisions.md', '[the decisions page](decisions.md)'].filter((s) => s.match(OUTSIDE))).toEqual([]);
  });

  it('every docs/<page>.md#anchor pointer in src/, test/ and bench/ lands on an anchor of that page', () => {
    const files = ['src', 'test', 'bench'].flatMap((d) => walk(join(ROOT, d))).filter((f) => /\.(ts|md)$/.test(f));
    const dangling: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((text, i) => {
        // A pointer followed by `, #other` names a second anchor of the same page.
        for (const m of text.matchAll(/docs\/([\w-]+\.md)((?:#[\w-]+)(?:,\s*#[\w-]+)*)/g)) {
          const page = `docs/${m[1]}`;
          const ids = anchors.get(page);
          for (const id of (m[2] as string).split(/,\s*/).map((s) => s.slice(1))) {
            if (!ids?.has(id)) dangling.push(`${file}:${i + 1} ${page}#${id}`);
          }
        }
      });
    }
    expect(dangling).toEqual([]);
  });

  it('every method section (§) the code and the docs cite is a section of docs/analysis.md', () => {
    const methods = anchors.get('docs/analysis.md');
    const code = ['src', 'test'].flatMap((d) => walk(join(ROOT, d))).filter((f) => f.endsWith('.ts'));
    const cited = hits([...code, ...docsFiles], /§(\d+(?:\.\d+)*)/g);
    const unknown = cited.filter((h) => !methods?.has(`s${h.text.slice(1).replace(/\./g, '-')}`));
    expect(unknown.map((h) => `${h.file}:${h.line} ${h.text}`)).toEqual([]);
  });

  it('every link between docs pages lands on an existing page and anchor', () => {
    const broken: string[] = [];
    for (const file of [...docsFiles, 'README.md']) {
      const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          for (const m of text.matchAll(/\]\(([\w./-]*\.md)?(?:#([\w-]+))?\)/g)) {
            if (!m[1] && !m[2]) continue;
            const target = m[1] ? join(dir, m[1]).split('\\').join('/') : file;
            if (!existsSync(join(ROOT, target))) broken.push(`${file}:${i + 1} ${target} (no such page)`);
            else if (m[2] && !anchorsOf(readFileSync(join(ROOT, target), 'utf8')).has(m[2])) {
              broken.push(`${file}:${i + 1} ${target}#${m[2]}`);
            }
          }
        });
    }
    expect(broken).toEqual([]);
  });
});
