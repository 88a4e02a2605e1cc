/**
 * `npm run data:reader-blocks -- --dir=PATH --out=FILE`
 *
 * Reads every page of a corpus directory (laid out as the real-page corpora are: `expected.json` and the gzipped pages
 * beside it) with aeq's reader and writes what the model's training reads: per
 * page the expected text, aeq's text and the features and text of each leaf block of Readability's article once the
 * cleanup rules have run (block-features.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { articleBlocks } from './block-features.js';
import { extractMainContent } from '../../src/engines/web/main-content.js';
import { corpusDir, corpusPages } from './corpus-urls.js';
import { withoutHeadline } from './drop-trace-core.js';
import { scriptArgs } from '../cli-args.js';

export interface BlockDataPage {
  id: string;
  expected: string;
  /** aeq's text without its headline line. */
  text: string;
  tier: string;
  blocks: Array<{ text: string; f: number[] }>;
}

const values = scriptArgs('npm run data:reader-blocks -- --dir=PATH --out=FILE', {
  dir: { type: 'string' },
  out: { type: 'string' },
});
if (!values.dir || !values.out) {
  console.error('give --dir and --out');
  process.exit(2);
}
const dir = corpusDir('', values.dir);
const pages = corpusPages(dir);
const out: BlockDataPage[] = [];
for (const [i, page] of pages.entries()) {
  const html = new TextDecoder(page.charset).decode(zlib.gunzipSync(fs.readFileSync(new URL(page.file, dir))));
  let blocks: BlockDataPage['blocks'] = [];
  try {
    const c = extractMainContent(html, page.url, {
      articleAfterRules: (article) => {
        blocks = articleBlocks(article).map((b) => ({ text: b.text, f: b.features.map((x) => +x.toFixed(4)) }));
      },
    });
    const tier = c.tier;
    out.push({
      id: page.id,
      expected: page.expectedText,
      text: withoutHeadline(c.text, c.title),
      tier,
      blocks: tier.startsWith('readability') ? blocks : [],
    });
  } catch (e) {
    out.push({ id: page.id, expected: page.expectedText, text: '', tier: `failed: ${(e as Error).message}`, blocks });
  }
  process.stderr.write(`\r${i + 1}/${pages.length} pages`);
  await new Promise((r) => setTimeout(r, 0));
}
process.stderr.write('\n');
fs.mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
fs.writeFileSync(values.out, JSON.stringify(out));
