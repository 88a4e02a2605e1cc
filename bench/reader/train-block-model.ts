/**
 * `npm run train:reader -- [--data=DIR] [--threshold=P] [--trees=N] [--depth=N] [--weight=sqrt|words|one]
 * [--min-chars=N] [--min-child=H] [--per-page] [--exclude=FEATURE,…]`
 *
 * Trains the boilerplate-block model (src/engines/web/block-model.ts) on the development slices' block data (written
 * by `npm run data:reader-blocks` into DIR, default .tmp/blocks: one FILE.json per slice) and reports:
 *
 * - leave-one-slice-out: for each development slice, a model trained on the other slices read that slice's pages;
 *   per slice and threshold, the pages at F1 >= 0.9 and the mean F1 before and after, and the words removed and how
 *   many were article text (a block is article text when at least half its word 4-grams are in the expected text, or,
 *   under four words, when the expected text holds its words in a row);
 * - the threshold: the one that keeps the most pages at F1 >= 0.9 over all held-out slices while at most a tenth of
 *   the words removed are article text;
 * - the model trained on every development slice, on each slice and on the tuning corpus (web.json, never trained
 *   on).
 *
 * The options set the trees (default: 150 of depth 3), the sample weight (the square root of the block's words), the
 * blocks left alone (`--min-chars`), each page weighing the same (`--per-page`) and features left out (`--exclude`,
 * by name). `DIAG=N` prints each slice's N blocks the held-out model scores highest. Everything is deterministic.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BlockDataPage } from './block-data.js';
import { boost, DEFAULT_BOOST, type Sample } from './block-gbdt.js';
import { bagOfWordsF1, words } from './score.js';
import { boilerplateProbability, MAX_REMOVED_SHARE, removable, type BlockModel } from './block-model.js';
import { FEATURE_NAMES } from './block-features.js';
import { scriptArgs } from '../cli-args.js';

const DEV = ['fundus-151-251', 'wceb-1-150', 'wceb-301-414', 'fresh-1-20', 'wcxb-dev'];
const TUNING = 'web';
const THRESHOLDS = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97];
/** The share of removed words that may be article text when the threshold is chosen. */
const MAX_ARTICLE_SHARE = 0.1;

const USAGE =
  'npm run train:reader -- [--data=DIR] [--threshold=P] [--trees=N] [--depth=N] [--weight=sqrt|words|one] ' +
  '[--min-chars=N] [--min-child=H] [--per-page] [--exclude=FEATURE,…]';
const values = scriptArgs(USAGE, {
  data: { type: 'string', default: '.tmp/blocks' },
  threshold: { type: 'string' },
  trees: { type: 'string' },
  depth: { type: 'string' },
  weight: { type: 'string', default: 'sqrt' },
  'min-chars': { type: 'string', default: '0' },
  exclude: { type: 'string', default: '' },
  'min-child': { type: 'string' },
  'per-page': { type: 'boolean', default: false },
});
const excluded = new Set(
  (values.exclude ?? '')
    .split(',')
    .filter(Boolean)
    .map((n) => (FEATURE_NAMES as readonly string[]).indexOf(n)),
);
const options = {
  ...DEFAULT_BOOST,
  ...(values.trees ? { trees: Number(values.trees) } : {}),
  ...(values.depth ? { depth: Number(values.depth) } : {}),
  ...(values['min-child'] ? { minChild: Number(values['min-child']) } : {}),
};
const minChars = Number(values['min-chars']);
const EMPTY: BlockModel = { base: 0, trees: [], threshold: 1, minChars: 0 };
function weight(words: number): number {
  if (values.weight === 'words') return words;
  if (values.weight === 'one') return 1;
  return Math.sqrt(words);
}
const dataDir = path.resolve(values.data ?? '.tmp/blocks');
console.log(`options: ${process.argv.slice(2).join(' ')}`);

interface LabelledBlock {
  text: string;
  f: number[];
  words: string[];
  article: boolean;
}
interface Page {
  id: string;
  slice: string;
  expected: string;
  text: string;
  blocks: LabelledBlock[];
}

function load(slice: string): Page[] {
  const raw = JSON.parse(fs.readFileSync(path.join(dataDir, `${slice}.json`), 'utf8')) as BlockDataPage[];
  return raw.map((p) => {
    const ew = words(p.expected);
    const grams = new Set<string>();
    for (let i = 0; i + 4 <= ew.length; i++) grams.add(ew.slice(i, i + 4).join(' '));
    const joined = ` ${ew.join(' ')} `;
    const blocks = p.blocks.map((b) => {
      const w = words(b.text);
      return { text: b.text, f: b.f, words: w, article: isArticle(w, grams, joined) };
    });
    return { id: p.id, slice, expected: p.expected, text: p.text, blocks };
  });
}

function isArticle(w: string[], grams: Set<string>, joined: string): boolean {
  if (w.length === 0) return true;
  if (w.length < 4) return joined.includes(` ${w.join(' ')} `);
  let hit = 0;
  let all = 0;
  for (let i = 0; i + 4 <= w.length; i++) {
    all++;
    if (grams.has(w.slice(i, i + 4).join(' '))) hit++;
  }
  return hit / all >= 0.5;
}

/**
 * The training samples: the blocks the model may remove, each weighted by its length; with `--per-page` each page
 * weighs as much as any other in all (a page's many blocks of one kind would otherwise teach that page). Excluded
 * features read 0, so no tree splits on them.
 */
function samples(pages: readonly Page[]): Sample[] {
  return pages.flatMap((p) => {
    const bs = p.blocks.filter((b) => b.words.length > 0 && removable(b.text, b.f, { ...EMPTY, minChars }));
    const sum = bs.reduce((a, b) => a + weight(b.words.length), 0);
    const scale = values['per-page'] && sum > 0 ? 20 / sum : 1;
    return bs.map((b) => ({
      f: b.f.map((x, j) => (excluded.has(j) ? 0 : x)),
      y: b.article ? 0 : 1,
      w: weight(b.words.length) * scale,
    }));
  });
}

interface Figures {
  pages: number;
  passBefore: number;
  passAfter: number;
  f1Before: number;
  f1After: number;
  removedWords: number;
  articleWords: number;
  /** Pages at F1 >= 0.9 before and below after. */
  lost: string[];
  gained: string[];
}

/** Which blocks of a page the model removes, as block-model.ts decides. */
function removedBlocks(p: Page, model: BlockModel, threshold: number): LabelledBlock[] {
  const drop = p.blocks.filter((b) => removable(b.text, b.f, model) && boilerplateProbability(b.f, model) >= threshold);
  const total = p.blocks.reduce((s, b) => s + b.text.length, 0);
  const cut = drop.reduce((s, b) => s + b.text.length, 0);
  return cut > total * MAX_REMOVED_SHARE ? [] : drop;
}

function evaluate(pages: readonly Page[], model: BlockModel, threshold: number): Figures {
  const fig: Figures = {
    pages: pages.length,
    passBefore: 0,
    passAfter: 0,
    f1Before: 0,
    f1After: 0,
    removedWords: 0,
    articleWords: 0,
    lost: [],
    gained: [],
  };
  for (const p of pages) {
    const before = bagOfWordsF1(p.expected, p.text).f1;
    const left = new Map<string, number>();
    for (const w of words(p.text)) left.set(w, (left.get(w) ?? 0) + 1);
    for (const b of removedBlocks(p, model, threshold)) {
      fig.removedWords += b.words.length;
      if (b.article) fig.articleWords += b.words.length;
      for (const w of b.words) {
        const n = left.get(w) ?? 0;
        if (n > 0) left.set(w, n - 1);
      }
    }
    const rest: string[] = [];
    for (const [w, n] of left) for (let i = 0; i < n; i++) rest.push(w);
    const after = bagOfWordsF1(p.expected, rest.join(' ')).f1;
    fig.f1Before += before / pages.length;
    fig.f1After += after / pages.length;
    if (before >= 0.9) fig.passBefore++;
    if (after >= 0.9) fig.passAfter++;
    if (before >= 0.9 && after < 0.9) fig.lost.push(p.id);
    if (before < 0.9 && after >= 0.9) fig.gained.push(p.id);
  }
  return fig;
}

function row(name: string, f: Figures): string {
  const share = f.removedWords ? f.articleWords / f.removedWords : 0;
  return (
    `| ${name} | ${f.pages} | ${f.passBefore} → ${f.passAfter} | ` +
    `${f.f1Before.toFixed(3)} → ${f.f1After.toFixed(3)} | ` +
    `${f.removedWords} | ${f.articleWords} (${(100 * share).toFixed(1)}%) | ${f.lost.join(' ') || '–'} |`
  );
}
const HEADER =
  '| slice | pages | F1 >= 0.9 before → after | mean F1 before → after | words removed | of them article text |' +
  ' pages lost |\n| --- | --- | --- | --- | --- | --- | --- |';

const slices = new Map(DEV.map((s) => [s, load(s)]));
const labelled = [...slices.values()].flat().flatMap((p) => p.blocks);
const bp = labelled.filter((b) => !b.article);
console.log(
  `${labelled.length} blocks on ${[...slices.values()].flat().length} development pages; ` +
    `${bp.length} boilerplate (${bp.reduce((s, b) => s + b.words.length, 0)} words)`,
);

// Leave one slice out: each slice read by a model trained on the others.
const held = new Map<string, BlockModel>();
for (const s of DEV) {
  const train = DEV.filter((o) => o !== s).flatMap((o) => slices.get(o) ?? []);
  held.set(s, { ...boost(samples(train), options), minChars });
}
const pooled = THRESHOLDS.map((t) => {
  const figs = DEV.map((s) => evaluate(slices.get(s) ?? [], held.get(s) as BlockModel, t));
  const sum = figs.reduce(
    (a, f) => ({
      pass: a.pass + f.passAfter,
      removed: a.removed + f.removedWords,
      article: a.article + f.articleWords,
      lost: a.lost + f.lost.length,
    }),
    { pass: 0, removed: 0, article: 0, lost: 0 },
  );
  return { t, figs, ...sum };
});
console.log('\nLeave one slice out, all slices pooled, by threshold:');
console.log('| threshold | pages at F1 >= 0.9 | words removed | of them article text | pages lost |');
for (const p of pooled) {
  const share = p.removed ? p.article / p.removed : 0;
  console.log(`| ${p.t} | ${p.pass} | ${p.removed} | ${p.article} (${(100 * share).toFixed(1)}%) | ${p.lost} |`);
}
const eligible = pooled.filter((p) => p.article <= MAX_ARTICLE_SHARE * p.removed);
const chosen = values.threshold
  ? Number(values.threshold)
  : (eligible.sort((a, b) => b.pass - a.pass || a.lost - b.lost || a.t - b.t)[0]?.t ?? 0.95);
console.log(`\nthreshold: ${chosen}`);
console.log('\nLeave one slice out at that threshold:');
console.log(HEADER);
for (const s of DEV) console.log(row(s, evaluate(slices.get(s) ?? [], held.get(s) as BlockModel, chosen)));

const model = { ...boost(samples([...slices.values()].flat()), options), threshold: chosen, minChars };
console.log('\nThe model trained on every development slice (in-sample on those slices):');
console.log(HEADER);
for (const s of DEV) console.log(row(s, evaluate(slices.get(s) ?? [], model, chosen)));
if (fs.existsSync(path.join(dataDir, `${TUNING}.json`))) {
  console.log(row(`${TUNING} (tuning corpus, not trained on)`, evaluate(load(TUNING), model, chosen)));
}
const use = new Map<number, number>();
for (const t of model.trees) for (const [f] of t) if (f >= 0) use.set(f, (use.get(f) ?? 0) + 1);
console.log(
  `\nsplits by feature: ${[...use]
    .sort((a, b) => b[1] - a[1])
    .map(([f, n]) => `${FEATURE_NAMES[f]} ${n}`)
    .join(', ')}`,
);

if (process.env.DIAG) {
  for (const s of DEV) {
    const m = held.get(s) as BlockModel;
    const scored = (slices.get(s) ?? []).flatMap((p) =>
      p.blocks
        .filter((b) => removable(b.text, b.f, m))
        .map((b) => ({ p: boilerplateProbability(b.f, m), b, id: p.id })),
    );
    scored.sort((a, b) => b.p - a.p);
    console.log(`\n== ${s}: top blocks held out`);
    for (const x of scored.slice(0, Number(process.env.DIAG))) {
      console.log(
        `${x.p.toFixed(3)} ${x.b.article ? 'ART' : 'bp '} ${x.id} ${x.b.words.length}w | ${x.b.text.slice(0, 100)}`,
      );
    }
  }
}
