/**
 * `npm run corpus:wceb -- --from=301 --to=414 --out=DIR [--repo=GIT_DIR] [--kind=articles|other-articles]`
 *
 * Writes a slice of tiptopjaw/web-content-extraction-benchmark as a corpus directory the drop tracer reads
 * (`npm run trace:reader -- --dir=DIR`): the benchmark's pages whose `_internal.page_type` is a high-confidence article
 * not needing review, with a non-empty `main_content` and a URL that is not a page of test/fixtures/real/web, ordered
 * by sha1 of the URL, places `from` to `to` (1-based). Places 151-300 are test/fixtures/real/web-articles-2026;
 * 301-414 are the blind check of docs/engines.md#cleanup-rules. `--repo` is a fetched snapshot's git directory
 * (default: ../.mirror/tiptopjaw+web-content-extraction-benchmark/repo beside the checkout).
 *
 * `--kind=other-articles` takes instead the benchmark's other article pages: `primary` article or blog whose type is
 * of medium confidence or marked for review (those whose URL is not also one of the high-confidence pages, nor of
 * test/fixtures/real/web; never read before 2026-11-29): the fresh check of
 * docs/engines.md#cleanup-rules (`--from=1 --to=38`). Places 1-20 of them have since been read closely and are a
 * development slice (docs/real-inputs.md, "Fresh slice").
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { scriptArgs } from '../cli-args.js';
import { storedCorpusUrls, urlKey } from './corpus-urls.js';
import { snapshotGit } from './snapshot-git.js';

const COMMIT = '977613a3a90de65c9ed5e1db251eeede7b9d9714';

const values = scriptArgs(
  'npm run corpus:wceb -- --from=N --to=M --out=DIR [--repo=GIT_DIR] [--kind=articles|other-articles]',
  {
    from: { type: 'string' },
    to: { type: 'string' },
    out: { type: 'string' },
    repo: { type: 'string' },
    kind: { type: 'string', default: 'articles' },
  },
);
const from = Number(values.from);
const to = Number(values.to);
if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from || !values.out) {
  console.error('usage: wceb-slice.ts --from=N --to=M --out=DIR [--repo=GIT_DIR] [--kind=articles|other-articles]');
  process.exit(2);
}
const git = snapshotGit('tiptopjaw/web-content-extraction-benchmark', values.repo);

interface GroundTruth {
  url: string;
  file_id: string;
  _internal?: { page_type?: { primary?: string; confidence?: string; needs_review?: boolean } };
  ground_truth: { main_content: string; title: string };
}

const seen = storedCorpusUrls(['web']);
/** The benchmark's high-confidence article pages (places 1-414): a page of another kind may repeat one's URL. */
const isSureArticle = (d: GroundTruth) => {
  const t = d._internal?.page_type;
  return t?.primary === 'article' && t.confidence === 'high' && t.needs_review === false;
};
const names = git(['ls-tree', '-r', '--name-only', COMMIT, 'benchmark/ground-truth']).toString().split('\n');
const all = names
  .filter((n) => n.endsWith('.json'))
  .map((n) => JSON.parse(git(['show', `${COMMIT}:${n}`]).toString('utf8')) as GroundTruth);
if (values.kind === 'other-articles') for (const d of all.filter(isSureArticle)) seen.add(urlKey(d.url));
const pages = all
  .filter((d) => {
    const kind = d._internal?.page_type?.primary;
    return values.kind === 'other-articles'
      ? (kind === 'article' || kind === 'blog') && !isSureArticle(d)
      : isSureArticle(d);
  })
  .filter((d) => !seen.has(urlKey(d.url)) && d.ground_truth.main_content.trim() !== '')
  .map((d) => ({ hash: createHash('sha1').update(d.url).digest('hex'), d }))
  .sort((a, b) => (a.hash < b.hash ? -1 : 1))
  .slice(from - 1, to);

fs.mkdirSync(values.out, { recursive: true });
const rows = pages.map(({ hash, d }) => {
  const id = `wceb-${hash.slice(0, 12)}`;
  fs.writeFileSync(
    path.join(values.out as string, `${id}.html.gz`),
    git(['show', `${COMMIT}:release/html/${d.file_id}.html.gz`]),
  );
  return { id, file: `${id}.html.gz`, charset: 'utf-8', url: d.url, expectedText: d.ground_truth.main_content };
});
fs.writeFileSync(path.join(values.out, 'expected.json'), JSON.stringify(rows));
console.log(`${rows.length} pages (places ${from}-${from + rows.length - 1}) written to ${values.out}`);
