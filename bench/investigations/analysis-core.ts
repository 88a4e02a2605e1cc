import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Time of SOURCE_INFLUENCE's analysis core on a large input: 20 cited pages of about 48,000 characters (real
 * Wikipedia text of the evaluation set, ten articles a page) and an answer of 406 claims citing them. The argument is
 * the root of a checkout (default: this one), so an older tree (a `git worktree` of the baseline commit) runs the
 * same input in the same session: `npx tsx bench/investigations/analysis-core.ts /tmp/base`. Three runs,
 * milliseconds each.
 */
const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..'));
const { ANALYSIS_DEFAULTS } = await import(join(root, 'src/analysis/config.ts'));
const { analyzeCore } = await import(join(root, 'src/analysis/source-influence/core.ts'));
const lines = readFileSync(join(import.meta.dirname, '..', '..', 'test/fixtures/analysis/eval/en/pages.jsonl'), 'utf8');
const texts = lines
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { text: string }).text);
const pages = Array.from({ length: 20 }, (_, i) =>
  Array.from({ length: 10 }, (_, k) => texts[(i * 7 + k) % texts.length]).join('\n\n'),
);
const sentences = pages
  .join(' ')
  .split(/(?<=\.)\s+/)
  .filter((s) => s.length > 40);
const answer = Array.from({ length: 400 }, (_, i) => `${sentences[(i * 37) % sentences.length]} [${(i % 20) + 1}]`);
const input = {
  answer: answer.join(' '),
  prompt: null,
  citations: pages.map((_, i) => ({ url: `https://p${i}.example/` })),
  analysis: null,
};
// Written out rather than readPageRecord: the baseline tree this script also runs against has no such helper.
const record = (text: string, url: string) => ({
  attempted: true,
  fromCache: false,
  retries: 0,
  durationMs: 0,
  page: {
    status: 'ok',
    httpStatus: 200,
    contentType: 'text/html',
    bytes: Buffer.byteLength(text),
    finalUrl: url,
    text,
    textSource: 'extracted',
    truncated: false,
    metadata: null,
    fetchedAt: 0,
    detail: null,
  },
});
const records = pages.map((t, i) => record(t, `https://p${i}.example/`));
for (let run = 1; run <= 3; run++) {
  const started = performance.now();
  const core = analyzeCore(input, records, ANALYSIS_DEFAULTS.si);
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`${root}: run ${run}, ${core.units.length} claims x ${pages.length} pages, ${ms} ms\n`);
}
