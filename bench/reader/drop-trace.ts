/**
 * `npm run trace:reader -- [--corpus=web|web-articles-2026|news-fundus|web-wcxb | --dir=PATH] [--pages=N]
 * [--json=FILE]`
 *
 * Reads every page of a real-page corpus with Readability alone and with aeq's reader, and reports what aeq removed
 * from Readability's article: per cleanup rule, the blocks and words removed and how many of them were article text
 * (the corpus's expected text holds them), and per page the tokens Readability kept that aeq dropped. Each page's
 * F1 against the expected text is given for both sides. Pages are read in this process, one at a time (progress on
 * stderr); nothing goes through the service, so the figures are the reader's alone.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { corpusDir, corpusPages } from './corpus-urls.js';
import { droppedTokens, tracePage, unrecordedDrops, type RemovedBlock } from './drop-trace-core.js';
import { bagOfWordsF1, words as wordsOf } from './score.js';
import { scriptArgs } from '../cli-args.js';

const CORPORA = ['web', 'web-articles-2026', 'news-fundus', 'web-wcxb'] as const;

const values = scriptArgs(
  'npm run trace:reader -- [--corpus=web|web-articles-2026|news-fundus|web-wcxb | --dir=PATH] [--pages=N]' +
    ' [--json=FILE]',
  {
    corpus: { type: 'string', default: 'web' },
    /** Any directory laid out as the corpora are (`expected.json` and the gzipped pages beside it). */
    dir: { type: 'string' },
    pages: { type: 'string' },
    json: { type: 'string' },
  },
);
const corpus = values.dir ?? values.corpus ?? 'web';
if (!values.dir && !(CORPORA as readonly string[]).includes(corpus)) {
  console.error(`--corpus must be one of ${CORPORA.join(', ')}, or give --dir`);
  process.exit(2);
}
const dir = corpusDir(corpus, values.dir);
let pages = corpusPages(dir);
if (values.pages) {
  const n = Number(values.pages);
  if (!Number.isInteger(n) || n < 1) {
    console.error('--pages must be a positive integer');
    process.exit(2);
  }
  pages = pages.slice(0, n);
}

interface RuleTotals {
  blocks: number;
  words: number;
  articleBlocks: number;
  articleWords: number;
  pages: Set<string>;
  articlePages: Set<string>;
}
const rules = new Map<string, RuleTotals>();
const rows: Array<Record<string, string | number>> = [];
const findings: Array<{ id: string; rule: string; text: string }> = [];
/** Words aeq dropped from Readability's article that no recorded removal accounts for. */
const unexplained: Array<{ id: string; words: string[] }> = [];
/** One boilerplate block per rule and page, for the report's examples. */
const examples = new Map<string, Array<{ id: string; text: string }>>();
let [readF1, aeqF1, aeqPass, readPass] = [0, 0, 0, 0];

for (const [i, page] of pages.entries()) {
  const bytes = zlib.gunzipSync(fs.readFileSync(new URL(page.file, dir)));
  const html = new TextDecoder(page.charset).decode(bytes);
  const t = tracePage(html, page.url, page.expectedText);
  const read = bagOfWordsF1(page.expectedText, t.readabilityText);
  const aeq = bagOfWordsF1(page.expectedText, t.aeqText);
  readF1 += read.f1;
  aeqF1 += aeq.f1;
  if (aeq.f1 >= 0.9) aeqPass++;
  if (read.f1 >= 0.9) readPass++;
  for (const b of t.removed) count(page.id, b);
  // Against Readability's article with its block breaks and aeq's whole text (its headline line is no drop).
  const drop = droppedTokens(t.readabilityLines, t.aeqFullText, page.expectedText);
  const unrecorded = unrecordedDrops(t.readabilityLines, t.aeqFullText, t.removed);
  if (unrecorded.length) unexplained.push({ id: page.id, words: unrecorded });
  rows.push({
    id: page.id,
    tier: t.tier,
    'readability f1': read.f1,
    'aeq f1': aeq.f1,
    'readability words': wordsOf(t.readabilityText).length,
    'dropped words': drop.dropped,
    'of them expected': drop.droppedArticle,
    'article blocks removed': t.removed.filter((b) => b.articleText).length,
  });
  process.stderr.write(`\r${i + 1}/${pages.length} pages`);
  // jsdom frees a closed window from a timer it queued: let the loop turn, or every page read stays in memory.
  await new Promise((r) => setTimeout(r, 0));
}
process.stderr.write('\n');

function count(id: string, b: RemovedBlock): void {
  let r = rules.get(b.rule);
  if (!r) {
    r = { blocks: 0, words: 0, articleBlocks: 0, articleWords: 0, pages: new Set(), articlePages: new Set() };
    rules.set(b.rule, r);
  }
  r.blocks++;
  r.words += b.words;
  r.pages.add(id);
  if (!b.articleText) {
    const ex = examples.get(b.rule) ?? [];
    if (!ex.some((e) => e.id === id)) ex.push({ id, text: b.text.slice(0, 100) });
    examples.set(b.rule, ex);
  }
  if (b.articleText) {
    r.articleBlocks++;
    r.articleWords += b.words;
    r.articlePages.add(id);
    findings.push({ id, rule: `${b.rule} ${b.tag}`, text: b.text.slice(0, 120) });
  }
}

const n = pages.length;
console.log(`\nDrop trace, corpus ${corpus}, ${n} pages`);
console.log(
  `mean F1: Readability alone ${(readF1 / n).toFixed(3)}, aeq ${(aeqF1 / n).toFixed(3)}; ` +
    `F1 >= 0.9: Readability ${readPass} (${pct(readPass / n)}), aeq ${aeqPass} (${pct(aeqPass / n)})`,
);
console.log(
  '\nrule                | pages | blocks | words | article blocks | article words | pages with article text',
);
for (const [rule, r] of [...rules].sort((a, b) => b[1].words - a[1].words)) {
  console.log(
    `${rule.padEnd(19)} | ${pad(r.pages.size, 5)} | ${pad(r.blocks, 6)} | ${pad(r.words, 5)} | ` +
      `${pad(r.articleBlocks, 14)} | ${pad(r.articleWords, 13)} | ${r.articlePages.size}`,
  );
}
console.log('\nBoilerplate removed, up to three pages per rule:');
for (const [rule, ex] of examples) for (const e of ex.slice(0, 3)) console.log(`${rule} | ${e.id} | ${e.text}`);
if (findings.length) {
  console.log('\nArticle text removed (page, rule, text):');
  for (const f of findings) console.log(`${f.id} | ${f.rule} | ${f.text}`);
}
console.log(
  `\nPages where aeq dropped words of Readability's article that no recorded removal explains: ${unexplained.length}`,
);
for (const u of unexplained) console.log(`${u.id} | ${u.words.length} | ${u.words.slice(0, 30).join(' ')}`);
const worst = rows
  .filter((r) => Number(r['of them expected']) > 0)
  .sort((a, b) => Number(b['of them expected']) - Number(a['of them expected']))
  .slice(0, 20);
if (worst.length) {
  console.log('\nPages where aeq dropped most of what Readability kept and the expected text has (top 20):');
  for (const r of worst) {
    console.log(
      `${String(r.id).padEnd(36)} dropped ${pad(Number(r['dropped words']), 5)}, ` +
        `expected ${pad(Number(r['of them expected']), 5)}; ` +
        `F1 Readability ${Number(r['readability f1']).toFixed(3)}, aeq ${Number(r['aeq f1']).toFixed(3)} (${r.tier})`,
    );
  }
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ corpus, rows, findings, unexplained }, null, 1));

function pad(v: number, w: number): string {
  return String(v).padStart(w);
}
function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}
