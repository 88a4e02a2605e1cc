/**
 * `npm run corpus:fundus -- --out=DIR [--repo=GIT_DIR] [--count=150] [--from=N --to=M]`
 *
 * Writes the news-articles corpus (test/fixtures/real/news-fundus, PROVENANCE.md there) from a fetched snapshot of
 * flairNLP/fundus: the saved article pages of its parser tests with the article body its tests assert. The rule, fixed
 * before any page was read:
 *
 * - every `tests/resources/parser/test_data/<cc>/<Publisher>.json` whose number of parser versions equals the number
 *   of that publisher's pages in `<cc>/meta.info` (`<Publisher>_<date>.html.gz`); the versions in order (V1, V1_1,
 *   V2, ...) pair with the pages in crawl-date order, as fundus's tests pair them (each version with the page crawled
 *   while it was valid). Publishers with more pages than versions are left out: which page a version reads depends
 *   on dates in fundus's code;
 * - the expected text is the asserted `body`: its summary, then each section's headline and paragraphs, one per line
 *   (the headline of the article is `title`, kept apart as the other corpora do); pages with an empty body are left
 *   out;
 * - pages whose URL is a page of another corpus here (test/fixtures/real/web, web-articles-2026, web-heldout) are
 *   left out; a URL saved twice (two parser versions read the same article) is taken once, from its latest crawl;
 * - ordered by sha1 of the URL, the first `count` (`id` = `fundus-` + the first 12 hex digits).
 *
 * `--from=N --to=M` (1-based places in the same order) writes another slice instead of the first `count`: places
 * 151 onwards are the pages not in news-fundus, the development slice (`--from=151 --to=252`), which is not stored in
 * the repository.
 *
 * `--repo` is the snapshot's git directory (default: ../.mirror/flairNLP+fundus/repo beside the checkout).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { scriptArgs } from '../cli-args.js';
import { storedCorpusUrls, urlKey } from './corpus-urls.js';
import { snapshotGit } from './snapshot-git.js';

const COMMIT = '18da6e53592f99cf0ac5770dc63d6ba99ba63ae8';
const DATA = 'tests/resources/parser/test_data';

const values = scriptArgs('npm run corpus:fundus -- --out=DIR [--repo=GIT_DIR] [--count=150] [--from=N --to=M]', {
  out: { type: 'string' },
  repo: { type: 'string' },
  count: { type: 'string', default: '150' },
  from: { type: 'string' },
  to: { type: 'string' },
});
const count = Number(values.count);
const from = values.from === undefined ? 1 : Number(values.from);
const to = values.to === undefined ? count : Number(values.to);
if (!values.out || !Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
  console.error('usage: fundus-corpus.ts --out=DIR [--repo=GIT_DIR] [--count=N | --from=N --to=M]');
  process.exit(2);
}
const git = snapshotGit('flairNLP/fundus', values.repo);
const show = (p: string) => git(['show', `${COMMIT}:${p}`]);

interface Body {
  summary?: string[];
  sections?: Array<{ headline?: string[]; paragraphs?: string[] }>;
}
interface Version {
  title?: string;
  body?: Body;
}
interface Meta {
  url: string;
  crawl_date: string;
}

const seen = storedCorpusUrls(['web', 'web-articles-2026', 'web-heldout']);

/** V1 < V1_1 < V2 < V10: the numbers after `V`, compared one by one. */
function versionOrder(a: string, b: string): number {
  const n = (v: string) => v.slice(1).split('_').map(Number);
  const [x, y] = [n(a), n(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

const bodyText = (b: Body | undefined): string =>
  [...(b?.summary ?? []), ...(b?.sections ?? []).flatMap((s) => [...(s.headline ?? []), ...(s.paragraphs ?? [])])]
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');

const names = git(['ls-tree', '-r', '--name-only', COMMIT, DATA]).toString().split('\n');
const countries = [...new Set(names.map((n) => n.split('/')[4]).filter((c): c is string => !!c && !c.includes('.')))];
const candidates: Array<{ cc: string; publisher: string; file: string; meta: Meta; version: Version }> = [];
const skipped: string[] = [];
for (const cc of countries.sort()) {
  if (!names.includes(`${DATA}/${cc}/meta.info`)) continue;
  const meta = JSON.parse(show(`${DATA}/${cc}/meta.info`).toString('utf8')) as Record<string, Meta>;
  const publishers = names
    .filter((n) => n.startsWith(`${DATA}/${cc}/`) && n.endsWith('.json'))
    .map((n) => path.basename(n, '.json'));
  for (const publisher of publishers) {
    const versions = JSON.parse(show(`${DATA}/${cc}/${publisher}.json`).toString('utf8')) as Record<string, Version>;
    const files = Object.keys(meta)
      .filter((f) => f.startsWith(`${publisher}_`) && f.endsWith('.html.gz'))
      .sort((a, b) => (meta[a]?.crawl_date ?? '').localeCompare(meta[b]?.crawl_date ?? ''));
    const order = Object.keys(versions).sort(versionOrder);
    if (files.length !== order.length) {
      skipped.push(`${cc}/${publisher}: ${files.length} pages, ${order.length} versions`);
      continue;
    }
    files.forEach((file, i) => {
      const m = meta[file];
      const v = versions[order[i] as string];
      if (m && v) candidates.push({ cc, publisher, file, meta: m, version: v });
    });
  }
}

/** One page per URL: the latest crawl. */
const byUrl = new Map<string, (typeof candidates)[number]>();
for (const c of candidates) {
  const had = byUrl.get(c.meta.url);
  if (!had || had.meta.crawl_date < c.meta.crawl_date) byUrl.set(c.meta.url, c);
}
const pages = [...byUrl.values()]
  .filter((c) => bodyText(c.version.body) !== '' && !seen.has(urlKey(c.meta.url)))
  .map((c) => ({ hash: createHash('sha1').update(c.meta.url).digest('hex'), c }))
  .sort((a, b) => (a.hash < b.hash ? -1 : 1))
  .slice(from - 1, to);

fs.mkdirSync(values.out, { recursive: true });
const rows = pages.map(({ hash, c }) => {
  const id = `fundus-${hash.slice(0, 12)}`;
  const html = show(`${DATA}/${c.cc}/${c.file}`);
  fs.writeFileSync(path.join(values.out as string, `${id}.html.gz`), html);
  return {
    id,
    file: `${id}.html.gz`,
    charset: 'utf-8',
    url: c.meta.url,
    expectedText: bodyText(c.version.body),
    expectedTitle: c.version.title,
    source: `${DATA}/${c.cc}/${c.file}`,
  };
});
fs.writeFileSync(path.join(values.out, 'expected.json'), `${JSON.stringify(rows, null, 1)}\n`);
console.log(
  `${candidates.length} candidate pages; ${rows.length} (places ${from}-${from + rows.length - 1}) written to ` +
    `${values.out}; publishers left out: ${skipped.join('; ')}`,
);
