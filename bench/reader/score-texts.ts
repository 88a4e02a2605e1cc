/**
 * `npm run score:reader -- --texts=FILE (--corpus=NAME | --dir=PATH) [--trace=FILE] [--name=LABEL] [--list]`
 *
 * Scores another extractor's text for every page of a real-page corpus by the corpora's own scorer (bag-of-words F1
 * against the expected text, `score.ts`), so that aeq's reader can be set beside it on the same pages. `--texts` is a
 * JSON list of `{id, text, ms?, error?}` (bench/reader/external/ writes one for trafilatura); a page it lacks counts
 * as empty. With `--trace` (the JSON of `npm run trace:reader -- --json=FILE` on the same corpus) it also gives aeq's
 * and Readability's figures from that read, and the pages that reach F1 ≥ 0.9 with the better of aeq and the other
 * extractor per page: a ceiling chosen with the answer in hand, not a reader anyone can ship.
 */
import fs from 'node:fs';
import { corpusDir, corpusPages } from './corpus-urls.js';
import { bagOfWordsF1 } from './score.js';
import { scriptArgs } from '../cli-args.js';

const USAGE =
  'npm run score:reader -- --texts=FILE (--corpus=NAME | --dir=PATH) [--trace=FILE] [--name=LABEL] [--list]';
const values = scriptArgs(USAGE, {
  texts: { type: 'string' },
  corpus: { type: 'string' },
  dir: { type: 'string' },
  trace: { type: 'string' },
  name: { type: 'string', default: 'other' },
  /** Print every page under F1 0.9 on either side. */
  list: { type: 'boolean', default: false },
});
if (!values.texts) {
  console.error(`--texts is required\n\n${USAGE}`);
  process.exit(2);
}

interface ExternalText {
  id: string;
  text: string;
  ms?: number;
  error?: string | null;
}
interface TraceRow {
  id: string;
  'aeq f1': number;
  'readability f1': number;
}

if (!values.dir === !values.corpus) {
  console.error(`give one of --corpus and --dir\n\n${USAGE}`);
  process.exit(2);
}
const dir = corpusDir(values.corpus ?? '', values.dir);
const pages = corpusPages(dir);
const texts = new Map(readJson<ExternalText[]>(values.texts).map((t) => [t.id, t]));
const trace = values.trace ? new Map(readJson<{ rows: TraceRow[] }>(values.trace).rows.map((r) => [r.id, r])) : null;

const sums = { f1: 0, precision: 0, recall: 0, ms: 0 };
let [pass, errors, missing, aeqPass, readPass, bestPass, aeqF1, readF1] = [0, 0, 0, 0, 0, 0, 0, 0];
const under: string[] = [];
for (const page of pages) {
  const t = texts.get(page.id);
  if (!t) missing++;
  if (t?.error) errors++;
  const s = bagOfWordsF1(page.expectedText, t?.text ?? '');
  sums.f1 += s.f1;
  sums.precision += s.precision;
  sums.recall += s.recall;
  sums.ms += t?.ms ?? 0;
  if (s.f1 >= 0.9) pass++;
  const r = trace?.get(page.id);
  if (trace && !r) {
    console.error(`the trace has no row for ${page.id}: was it read on the same corpus?`);
    process.exit(2);
  }
  if (r) {
    aeqF1 += r['aeq f1'];
    readF1 += r['readability f1'];
    if (r['aeq f1'] >= 0.9) aeqPass++;
    if (r['readability f1'] >= 0.9) readPass++;
    if (Math.max(r['aeq f1'], s.f1) >= 0.9) bestPass++;
  }
  if (values.list && (s.f1 < 0.9 || (r && r['aeq f1'] < 0.9))) {
    const aeq = r ? ` aeq ${r['aeq f1'].toFixed(3)} Readability ${r['readability f1'].toFixed(3)}` : '';
    under.push(
      `${page.id} ${values.name} ${s.f1.toFixed(3)} (P ${s.precision.toFixed(3)} R ${s.recall.toFixed(3)})${aeq}`,
    );
  }
}

const n = pages.length;
const share = (k: number) => `${k} (${((100 * k) / n).toFixed(1)}%)`;
console.log(`${values.dir ?? values.corpus}, ${n} pages`);
console.log(
  `${values.name}: mean F1 ${(sums.f1 / n).toFixed(3)} (P ${(sums.precision / n).toFixed(3)}, ` +
    `R ${(sums.recall / n).toFixed(3)}), F1 >= 0.9 ${share(pass)}; ${errors} raised, ${missing} missing; ` +
    `${(sums.ms / n).toFixed(0)} ms a page`,
);
if (trace) {
  console.log(`aeq: mean F1 ${(aeqF1 / n).toFixed(3)}, F1 >= 0.9 ${share(aeqPass)}`);
  console.log(`Readability alone: mean F1 ${(readF1 / n).toFixed(3)}, F1 >= 0.9 ${share(readPass)}`);
  console.log(`the better of aeq and ${values.name} per page (chosen with the answer): F1 >= 0.9 ${share(bestPass)}`);
}
if (under.length) console.log(`\nPages under 0.9 on either side:\n${under.join('\n')}`);

function readJson<T>(file: string | URL): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}
