import { describe, expect, it } from 'vitest';
import { analysisConfig } from '../../src/analysis/config.js';
import type { RequestResult } from '../../src/analysis/prompt-research/collector.js';
import type { PrefixClass } from '../../src/analysis/prompt-research/expansion.js';
import { questionKey } from '../../src/analysis/prompt-research/question-dedup.js';
import { questionText } from '../../src/analysis/prompt-research/questions.js';
import { assembleResearch } from '../../src/analysis/prompt-research/research.js';
import type { PromptResearchInput } from '../../src/analysis/prompt-research/types.js';
import { researchInput } from './prompt-research-rig.js';

/**
 * Prompt research's questions (docs/analysis.md §3.8, §3.10): never the same question twice (case, whitespace,
 * punctuation and Hangul spacing aside), the year taken from the clock, and brand fit with its basis, or null with
 * `basis: "none"` and a warning when the description shares no word with any question. All through
 * `assembleResearch`, the research's own assembly from autocomplete answers.
 */

const PR = analysisConfig({ pr: { requests: { delayMs: 0, jitterMs: 0 }, cacheTtlMs: 0 } }).pr;

function results(lists: ReadonlyArray<{ query: string; cls: PrefixClass; suggestions: string[] }>): RequestResult[] {
  return lists.map((l, i) => ({
    provider: 'google',
    requestId: `google:1:${String(i).padStart(3, '0')}`,
    request: { query: l.query, cls: l.cls },
    suggestions: l.suggestions.map((text) => ({ text, relevance: null, type: null })),
    order: [1, i],
  }));
}

function research(input: PromptResearchInput, res: RequestResult[], year?: number): any {
  return assembleResearch(
    {
      input,
      results: res,
      providers: [],
      answered: ['google'],
      providerOrder: ['google'],
      requestsSent: res.length,
      autocompleteRequests: { google: res.length, naver: 0, bing: 0 },
      cacheHits: 0,
      warnings: [],
      simulated: false,
      volumeSource: 'naver_searchad',
      volumes: null,
      volumeRequests: 0,
      ...(year === undefined ? {} : { year }),
    },
    PR,
  );
}

const SHOES = results([
  { query: 'running shoes', cls: 'seed', suggestions: ['running shoes review', 'best running shoes'] },
  { query: 'running shoes r', cls: 'alphabet', suggestions: ['running shoes reviews', 'running shoes for rain'] },
  { query: 'running shoes p', cls: 'alphabet', suggestions: ['running shoes price', 'running shoes cost'] },
  { query: 'best running shoes', cls: 'modifier', suggestions: ['best running shoes 2025', 'best running shoes 2024'] },
  { query: 'running shoes t', cls: 'alphabet', suggestions: ['running shoes for trail', 'running shoes for women'] },
]);

describe('questions are never repeated', () => {
  it('merges queries that read as one question, keeping the better-ranked and its variants', () => {
    const r = research(researchInput('running shoes', 'US', 20), SHOES, 2026);
    const texts: string[] = r.questions.map((q: any) => q.text);
    expect(new Set(texts.map(questionKey)).size).toBe(texts.length);
    const reviews = r.questions.find((q: any) => q.text === 'What do reviews say about running shoes?');
    expect([reviews.query, ...reviews.variants].sort()).toEqual(['running shoes review', 'running shoes reviews']);
    const cost = r.questions.find((q: any) => q.text === 'How much do running shoes cost?');
    expect([cost.query, ...cost.variants].sort()).toEqual(['running shoes cost', 'running shoes price']);
    // The monitor set holds each question once too.
    const set: string[] = r.monitorSet.items.map((i: any) => i.text);
    expect(new Set(set.map(questionKey)).size).toBe(set.length);
  });

  it('compares texts without case, punctuation, whitespace runs or Hangul spacing', () => {
    expect(questionKey('What are the best  running shoes?')).toBe(questionKey('what are the best running shoes'));
    expect(questionKey('강아지사료 추천해줘')).toBe(questionKey('강아지 사료 추천해줘!'));
    expect(questionKey('Which is better, A or B?')).not.toBe(questionKey('Which is better, B or A?'));
  });
});

describe('the year comes from the clock', () => {
  it('asks last year’s and older suggestions about this year, once', () => {
    const r = research(researchInput('running shoes', 'US', 20), SHOES, 2026);
    const dated = r.questions.filter((q: any) => /20\d\d/.test(q.text));
    expect(dated.map((q: any) => q.text)).toEqual(['What are the best running shoes in 2026?']);
    expect([dated[0].query, ...dated[0].variants].sort()).toEqual([
      'best running shoes 2024',
      'best running shoes 2025',
    ]);
  });

  it('keeps this year and a later one as typed, in Korean too', () => {
    expect(questionText('best running shoes 2026', undefined, 2026).text).toBe(
      'What are the best running shoes in 2026?',
    );
    expect(questionText('best running shoes 2027', undefined, 2026).text).toBe(
      'What are the best running shoes in 2027?',
    );
    expect(questionText('러닝화 추천 2025', undefined, 2026).text).toBe('2026년 러닝화 추천해줘');
  });

  it('the adapter passes the clock’s year (no year is written in the code)', async () => {
    const { readFileSync } = await import('node:fs');
    const code = ['adapter.ts', 'questions.ts', 'research.ts']
      .map((f) => readFileSync(`src/analysis/prompt-research/${f}`, 'utf8'))
      .join('\n')
      .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).toContain('getUTCFullYear()');
    expect(code.match(/['"`][^'"`\n]*\b20[2-9]\d\b[^'"`\n]*['"`]/g)).toBeNull();
  });
});

describe('brand fit has a basis or says it has none', () => {
  const described = (description: string): PromptResearchInput => ({
    ...researchInput('running shoes', 'US', 20),
    brand: 'Trailfox',
    brandDescription: description,
  });

  it('scores from the description’s words and names them', () => {
    const r = research(described('Trailfox makes trail running shoes for women who run ultras.'), SHOES, 2026);
    const trail = r.questions.find((q: any) => q.query === 'running shoes for trail');
    expect(trail.fit).toMatchObject({ method: 'lexical', basis: 'description_terms', score: 100 });
    expect(trail.fit.terms).toContain('trail');
    const price = r.questions.find((q: any) => q.query === 'running shoes price');
    expect(price.fit).toEqual({ score: 0, method: 'lexical', basis: 'description_terms', terms: [] });
    expect(r.warnings.map((w: any) => w.code)).not.toContain('NO_FIT_BASIS');
  });

  it('is null with basis "none" and a warning when no question shares a word with the description', () => {
    const r = research(described('Trailfox: Swiss craftsmanship since 1921, sold in 40 countries.'), SHOES, 2026);
    for (const q of r.questions) expect(q.fit).toEqual({ score: null, method: 'lexical', basis: 'none', terms: [] });
    for (const item of r.monitorSet.items) expect(item.fitScore).toBeNull();
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'NO_FIT_BASIS' }));
    expect(r.input.hasBrandDescription).toBe(true);
  });

  it('is null without a description, as before', () => {
    const r = research(researchInput('running shoes', 'US', 20), SHOES, 2026);
    for (const q of r.questions) expect(q.fit).toBeNull();
  });
});
