import type { SourceInfluenceConfig } from '../../src/analysis/config.js';
import { analyzeCore } from '../../src/analysis/source-influence/core.js';
import { rankSources } from '../../src/analysis/source-influence/result.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';

/**
 * The hand-written answers of test/fixtures/analysis/calibration/source-influence.json (4 answers, 3 pages each,
 * written here: a unit test of influence ordering, not a measure of quality — the held-out evaluation set is that),
 * each page also embedded in the other same-language pages (a long page with chance matches).
 */
export interface OrderCase {
  id: string;
  language: 'en' | 'ko';
  prompt: string;
  answer: string;
  sources: Array<{ url: string; title: string; text: string }>;
  /** Source ids, most influential first. */
  expectedOrder: string[];
  labels: Array<Record<string, string>>;
}

export function withDistractors(cases: readonly OrderCase[]): OrderCase[] {
  return cases.map((c) => ({
    ...c,
    id: `${c.id}+distractors`,
    sources: c.sources.map((s) => ({
      ...s,
      text: [
        s.text,
        ...cases.filter((o) => o.id !== c.id && o.language === c.language).flatMap((o) => o.sources.map((x) => x.text)),
      ].join('\n'),
    })),
  }));
}

/** Source ids in the method's influence order (`influence.rank`). */
export function influenceOrder(c: OrderCase, cfg: SourceInfluenceConfig): string[] {
  const input = {
    answer: c.answer,
    prompt: c.prompt,
    citations: c.sources.map((s) => ({ url: s.url, title: s.title })),
    analysis: null,
  };
  const core = analyzeCore(
    input,
    c.sources.map((s) => readPageRecord(s.text, s.url)),
    cfg,
  );
  return [...rankSources(core)].sort((a, b) => a[1] - b[1]).map(([j]) => `c${j + 1}`);
}
