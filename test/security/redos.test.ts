import { ESLint } from 'eslint';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findLinks,
  findMarkers,
  leadingMarkerLength,
  stripMarkup,
} from '../../src/analysis/source-influence/markers.js';
import { maskCode, segmentAnswer } from '../../src/analysis/source-influence/units.js';
import { excerpt, norm, trimEndChars } from '../../src/analysis/text/norm.js';
import { fastWords, sentences, words } from '../../src/analysis/text/segment.js';
import { mentionFinder } from '../../src/analysis/visibility/brand-mentions.js';
import { detectLanguage } from '../../src/text/language.js';
import { startService, tempDir, waitTerminal, writeConfig, type RunningService } from '../helpers/service.js';

/**
 * No input stalls the event loop. Each answer below is one 200,000-character line (the largest the
 * route takes) of a shape that made a pattern or loop of the answer's segmentation take quadratic
 * time or worse: before the fix, `|---` + spaces held the loop for about a minute, `Sources` +
 * spaces + `x` did not end at all. The service answers `GET /health` quickly all the while (the
 * analysis runs in the parse pool, and is linear), and each task ends.
 */
const LENGTH = 200_000;
const line = (head: string, unit: string, tail = 'x') =>
  head + unit.repeat(Math.floor((LENGTH - head.length - tail.length) / unit.length)) + tail;
const SHAPES: Readonly<Record<string, string>> = {
  'table separator + spaces': line('|---', ' '),
  'list number + spaces': line('1.', ' ', ''),
  'abbreviations (sentence carry)': line('', 'Dr. ', ''),
  'reference heading + spaces': line('Sources', ' '),
  'reference line + spaces': line('[1]', ' '),
  'open brackets': line('', '['),
  'marker list without end': line('[1', ', 1'),
  'superscripts + x': line('', '¹'),
  'emphasis openers': line('', '**a'),
  'quote marks': line('', '>'),
  'list dashes': line('', '- '),
  'spaces before a word': line('a', ' ', 'b'),
  // Each opener without its closer once rescanned the rest of the text: 42 s of a parse thread for this one.
  'lenticular marker openers': line('', '【1†'),
  'markdown link openers': line('', '[a](http://'),
  // A run of markers was looked up marker by marker, and each bare URL tested against every link before it.
  'bracket markers': line('', '[1]'),
  'markdown links': line('', '[a](http://b.example/) '),
};

/** A generous bound for `GET /health` while an analysis runs (it takes ~5 ms on an idle loop). */
const HEALTH_BOUND_MS = 1_000;

interface Probe {
  worstMs: number;
  samples: number;
}

/** Calls GET /health back to back until `done` resolves; the slowest answer and how many were taken. */
async function probeHealth(svc: RunningService, done: Promise<unknown>): Promise<Probe> {
  let finished = false;
  const stop = () => {
    finished = true;
  };
  done.then(stop, stop);
  let worstMs = 0;
  let samples = 0;
  while (!finished) {
    const t = performance.now();
    const r = await fetch(`${svc.url}/health`);
    await r.arrayBuffer();
    worstMs = Math.max(worstMs, performance.now() - t);
    samples++;
    await new Promise((res) => setTimeout(res, 20));
  }
  return { worstMs, samples };
}

async function submitAnswer(svc: RunningService, answer: string): Promise<string> {
  const r = await svc.call('POST', '/v1/source-influence', { answer, citations: [], analysis: { version: 1 } });
  expect(r.status).toBe(202);
  return r.body.task.id as string;
}

describe.each([
  { name: 'with the interpretation model', model: true },
  { name: 'without a model', model: false },
])('a 200 KB one-line answer of each pathological shape, $name', ({ model }) => {
  let svc: RunningService;
  beforeAll(async () => {
    const env: Record<string, string> = {};
    if (!model)
      env.AEQ_CONFIG = writeConfig(tempDir('aeq-redos-'), {
        engines: { SOURCE_INFLUENCE: { upstream: { apiKey: '' } } },
      });
    svc = await startService(env);
  });
  afterAll(() => svc?.stop());

  // The model path takes every shape; without a model the pool runs the whole analysis, and two shapes show it.
  const shapes = Object.entries(SHAPES).filter(([name]) => model || name.startsWith('table') || name.startsWith('ref'));
  // Each task takes 0.3–3 s on an idle machine; the bounds below leave room for a loaded one, where the parse
  // threads (at the lowest priority) get what the rest leaves.
  it.each(shapes)('%s: /health stays fast and the task ends', { timeout: 120_000 }, async (_name, answer) => {
    expect(answer.length).toBeGreaterThan(LENGTH - 16);
    expect(answer).not.toContain('\n');
    const id = await submitAnswer(svc, answer);
    const terminal = waitTerminal(svc, id, 110_000);
    const probe = await probeHealth(svc, terminal);
    const view = await terminal;
    expect(view.task.status).toBe('COMPLETED');
    expect(probe.samples).toBeGreaterThan(0);
    expect(probe.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  });
});

/**
 * Property tests: every text function that takes the client's answer (or an upstream page's text)
 * ends quickly and does not throw on generated strings, with the pieces that broke the old
 * patterns (long whitespace runs, pipes, dashes, numbers with dots, abbreviations, markers) and
 * scripts (Hangul, combining marks) mixed in at up to 20,000 characters.
 */
const PIECES = [
  ' ',
  '   ',
  '\t',
  '\n',
  '|',
  '|---',
  '-',
  ':',
  '1.',
  '12)',
  'Dr. ',
  'e.g. ',
  'U.S.',
  '[1]',
  '[1, 2-3',
  '[^2]',
  '【3†',
  '】',
  '¹²',
  '**',
  '__',
  '_',
  '*',
  '>',
  '#',
  '```',
  '`',
  '[',
  ']',
  '(',
  'https://a.example/p',
  'Sources',
  '출처',
  '한국어',
  '나이키',
  '이랑',
  '에서는',
  'e\u0301',
  '\u200b',
  'word',
  '.',
  ',',
];
const piece = fc.oneof(
  fc.constantFrom(...PIECES),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(...PIECES).chain((p) => fc.integer({ min: 1, max: 4_000 }).map((n) => p.repeat(n))),
);
const text = fc
  .array(piece, { maxLength: 40 })
  .map((a) => a.join(''))
  .map((s) => s.slice(0, 20_000));

/** Each function gets this long per input; the slowest of the linear code takes ~50 ms on 20,000 characters. */
const PER_CALL_MS = 1_500;

const FUNCTIONS: ReadonlyArray<[string, (s: string) => unknown]> = [
  ['segmentAnswer', (s) => segmentAnswer(s)],
  ['maskCode', (s) => maskCode(s)],
  ['sentences en', (s) => sentences(s, 'en')],
  ['sentences ko', (s) => sentences(s, 'ko')],
  ['words', (s) => words(s)],
  ['fastWords', (s) => fastWords(s)],
  ['stripMarkup', (s) => stripMarkup(s, true)],
  ['findMarkers', (s) => findMarkers(s, true)],
  ['findLinks', (s) => findLinks(s)],
  ['leadingMarkerLength', (s) => leadingMarkerLength(s, true)],
  ['norm', (s) => norm(s)],
  ['excerpt', (s) => excerpt(s, 200)],
  ['detectLanguage', (s) => detectLanguage(s)],
  ['trimEndChars', (s) => trimEndChars(s, '.,;:')],
  ['brand mentions', (s) => mentionFinder(['나이키', 'Nike', 'Nike Air'])(s)],
];

describe('text functions on generated strings', () => {
  it.each(FUNCTIONS)('%s ends within the bound and does not throw', (_name, fn) => {
    fc.assert(
      fc.property(text, (s) => {
        const t = performance.now();
        fn(s);
        return performance.now() - t < PER_CALL_MS;
      }),
      { numRuns: 40, seed: 33 },
    );
  });

  it('segments keep their offsets: every unit is the answer text at its start', () => {
    fc.assert(
      fc.property(text, (s) => {
        const masked = maskCode(s);
        return segmentAnswer(s).units.every((u) => masked.startsWith(u.text, u.start));
      }),
      { numRuns: 60, seed: 34 },
    );
  });

  it('sentences cover the text in order, trimmed', () => {
    fc.assert(
      fc.property(text, (s) => {
        let at = 0;
        for (const seg of sentences(s)) {
          if (seg.start < at || seg.text !== seg.text.trim() || !s.startsWith(seg.text, seg.start)) return false;
          at = seg.start + seg.text.length;
        }
        return true;
      }),
      { numRuns: 60, seed: 35 },
    );
  });
});

/**
 * The detector of `npm run lint` (eslint.config.js) on patterns of known complexity: the shapes
 * this file's answers exploited are reported, their linear rewrites are not.
 */
describe('the ReDoS detector of npm run lint', () => {
  const lint = async (pattern: string) => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const [r] = await eslint.lintText(`export const re = ${pattern};\n`, { filePath: 'src/redos-probe.ts' });
    return (r?.messages ?? []).map((m) => m.ruleId);
  };

  it.each([
    ['nested quantifier', '/(a+)+$/'],
    ['the old table separator', String.raw`/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/`],
    ['the old reference heading', String.raw`/^\s*(?:#{1,6}\s*)?(?:\*\*)?\s*(sources)\s*:?\s*(?:\*\*)?\s*:?\s*$/i`],
    ['a run retried at each position', String.raw`/\s+([.,;:!?])/g`],
  ])('reports %s', async (_name, pattern) => {
    expect((await lint(pattern)).length).toBeGreaterThan(0);
  });

  it.each([
    ['the new reference heading', String.raw`/^(?:#{1,6} ?)?(?:\*\*)? ?(?:sources) ?:? ?(?:\*\*)? ?:?$/i`],
    ['a run anchored at its start', String.raw`/(?<!\s)\s+(?:but|and)\s+/i`],
  ])('passes %s', async (_name, pattern) => {
    expect(await lint(pattern)).toEqual([]);
  });
});

/**
 * Patterns built at run time from a tenant's names escape the lint's detector, so they are timed here. A brand's
 * Korean particle chain could split one run of endings in exponentially many ways: 나이키 + 24 × 이랑 + 격 (a 54-character
 * monitor prompt an engine repeats) held the event loop for 32 s. Bounded, a 200 KB line of it takes milliseconds.
 */
describe('patterns built from tenant names', () => {
  const find = mentionFinder(['나이키', 'Nike']);
  it.each([
    ['particles that split two ways, then a letter', line('나이키', '이랑', '격')],
    ['the name repeated with particles', line('', '나이키이랑')],
    ['a Latin name with particles', line('Nike', '이랑', 'x')],
  ])('%s: a 200 KB line within a second', (_name, answer) => {
    const t = performance.now();
    find(answer);
    expect(performance.now() - t).toBeLessThan(1_000);
  });

  it('still finds names with their particles, and not inside longer words', () => {
    const text = '나이키에서는 좋다. 나이키가격은 비싸다. Nike의 신발과 나이키이랑 아디다스.';
    expect(find(text).map((m) => text.slice(m.start, m.end))).toEqual(['나이키', 'Nike', '나이키']);
  });
});
