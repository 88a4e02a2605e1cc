/**
 * `npm run corpus:wcxb -- --out=DIR [--split=test|dev] [--repo=GIT_DIR] [--wceb-repo=GIT_DIR] [--fundus-repo=GIT_DIR]`
 *
 * Writes the third held-out corpus (test/fixtures/real/web-wcxb, PROVENANCE.md there) from a fetched snapshot of
 * Murrough-Foley/web-content-extraction-benchmark (WCXB): article pages of its held-out test split with the annotated
 * main content. The rule, fixed before any page was read:
 *
 * - every `test/ground-truth/<file_id>.json` whose `_internal.page_type` is `primary: article`,
 *   `confidence: verified` and `needs_review: false` (the benchmark's reviewed state: its development pages moved
 *   from a model's draft to `verified` after the review passes; other states are drafts or unreviewed), with a
 *   `ground_truth.main_content` that is not empty;
 * - pages whose URL is a page of another corpus here (test/fixtures/real/web, web-articles-2026, web-heldout,
 *   news-fundus), of tiptopjaw/web-content-extraction-benchmark at the commit the wceb slices use (any page type:
 *   its development slices were read), or of fundus's parser test data at the commit news-fundus uses (its
 *   development slice was read) are left out, and so are pages whose HTML is absent from the snapshot;
 * - ordered by sha1 of the URL, all of them (`id` = `wcxb-` + the first 12 hex digits).
 *
 * `--split=dev` applies the same rule to the benchmark's development split (`dev/`) instead: a development slice,
 * written to a scratch directory and never stored in the repository (docs/real-inputs.md, "Third round").
 *
 * The HTML is `<split>/html/<file_id>.html.gz` byte for byte; the benchmark reads it as UTF-8, so `charset` is `utf-8`.
 * `--repo`, `--wceb-repo` and `--fundus-repo` are the snapshots' git directories (defaults: ../.mirror/<owner>+<name>/
 * repo beside the checkout).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { scriptArgs } from '../cli-args.js';
import { storedCorpusUrls, urlKey } from './corpus-urls.js';
import { snapshotGit } from './snapshot-git.js';

const COMMIT = 'c039d5ee9f5a3a984a0e167e63aacd04e76e78a9';
const WCEB_COMMIT = '977613a3a90de65c9ed5e1db251eeede7b9d9714';
const FUNDUS_COMMIT = '18da6e53592f99cf0ac5770dc63d6ba99ba63ae8';
const FUNDUS_DATA = 'tests/resources/parser/test_data';

const values = scriptArgs(
  'npm run corpus:wcxb -- --out=DIR [--split=test|dev] [--repo=GIT_DIR] [--wceb-repo=GIT_DIR] [--fundus-repo=GIT_DIR]',
  {
    out: { type: 'string' },
    split: { type: 'string', default: 'test' },
    repo: { type: 'string' },
    'wceb-repo': { type: 'string' },
    'fundus-repo': { type: 'string' },
  },
);
const split = values.split ?? 'test';
if (!values.out || (split !== 'test' && split !== 'dev')) {
  console.error(
    'usage: wcxb-corpus.ts --out=DIR [--split=test|dev] [--repo=GIT_DIR] [--wceb-repo=GIT_DIR] [--fundus-repo=GIT_DIR]',
  );
  process.exit(2);
}
const git = snapshotGit('Murrough-Foley/web-content-extraction-benchmark', values.repo);
const wcebGit = snapshotGit('tiptopjaw/web-content-extraction-benchmark', values['wceb-repo']);
const fundusGit = snapshotGit('flairNLP/fundus', values['fundus-repo']);
const list = (g: typeof git, commit: string, dir: string) =>
  g(['ls-tree', '-r', '--name-only', commit, dir]).toString().split('\n').filter(Boolean);

interface GroundTruth {
  url: string;
  file_id: string;
  _internal?: { page_type?: { primary?: string; confidence?: string; needs_review?: boolean } };
  ground_truth: { main_content?: string | null; title?: string | null };
}

// A development slice also leaves out the held-out test split's own pages.
const others = ['web', 'web-articles-2026', 'web-heldout', 'news-fundus', ...(split === 'dev' ? ['web-wcxb'] : [])];
const seen = storedCorpusUrls(others);
for (const n of list(wcebGit, WCEB_COMMIT, 'benchmark/ground-truth').filter((f) => f.endsWith('.json'))) {
  seen.add(urlKey((JSON.parse(wcebGit(['show', `${WCEB_COMMIT}:${n}`]).toString('utf8')) as GroundTruth).url));
}
for (const n of list(fundusGit, FUNDUS_COMMIT, FUNDUS_DATA).filter((f) => f.endsWith('/meta.info'))) {
  const meta = fundusGit(['show', `${FUNDUS_COMMIT}:${n}`]).toString('utf8');
  for (const m of Object.values(JSON.parse(meta) as Record<string, { url: string }>)) seen.add(urlKey(m.url));
}

const present = new Set(list(git, COMMIT, `${split}/html`));
const isReviewedArticle = (d: GroundTruth) => {
  const t = d._internal?.page_type;
  return t?.primary === 'article' && t.confidence === 'verified' && t.needs_review === false;
};
const all = list(git, COMMIT, `${split}/ground-truth`)
  .filter((n) => n.endsWith('.json'))
  .map((n) => JSON.parse(git(['show', `${COMMIT}:${n}`]).toString('utf8')) as GroundTruth);
const chosen = all.filter((d) => isReviewedArticle(d) && (d.ground_truth.main_content ?? '').trim() !== '');
const overlap = chosen.filter((d) => seen.has(urlKey(d.url)));
const absent = chosen.filter((d) => !seen.has(urlKey(d.url)) && !present.has(`${split}/html/${d.file_id}.html.gz`));
const pages = chosen
  .filter((d) => !seen.has(urlKey(d.url)) && present.has(`${split}/html/${d.file_id}.html.gz`))
  .map((d) => ({ hash: createHash('sha1').update(d.url).digest('hex'), d }))
  .sort((a, b) => (a.hash < b.hash ? -1 : 1));

fs.mkdirSync(values.out, { recursive: true });
const rows = pages.map(({ hash, d }) => {
  const id = `wcxb-${hash.slice(0, 12)}`;
  const source = `${split}/html/${d.file_id}.html.gz`;
  fs.writeFileSync(path.join(values.out as string, `${id}.html.gz`), git(['show', `${COMMIT}:${source}`]));
  return {
    id,
    file: `${id}.html.gz`,
    charset: 'utf-8',
    url: d.url,
    expectedText: d.ground_truth.main_content ?? '',
    ...(d.ground_truth.title ? { expectedTitle: d.ground_truth.title } : {}),
    source,
  };
});
fs.writeFileSync(path.join(values.out, 'expected.json'), `${JSON.stringify(rows, null, 1)}\n`);
console.log(
  `${all.length} ${split} pages, ${chosen.length} reviewed articles; left out: ${overlap.length} by URL ` +
    `(${overlap.map((d) => d.file_id).join(' ')}), ${absent.length} without HTML ` +
    `(${absent.map((d) => d.file_id).join(' ')}); ${rows.length} written to ${values.out}`,
);
