import type { SourceInfluenceConfig } from '../../config.js';
import { norm } from '../../text/norm.js';
import { containment } from '../../text/similarity.js';
import { tokenize } from '../../text/tokens.js';
import type { AnalysisCore } from '../core.js';

/**
 * Question requirements (§2.11.1), deterministic part: the hints (budget, location, time, quantity,
 * comparison) that are requirement items without a model and are passed to the model with one, and
 * the lexical coverage judge — the five units with the highest containment of the requirement,
 * `addressed` at τ_full, `partial` at τ_part. Open-ended requirements (topic, criteria, audience)
 * need the model (model-requirements.ts); without one the component reports `partial`.
 */
export type RequirementType = 'budget' | 'location' | 'time' | 'quantity' | 'comparison_set';

interface Hint {
  type: RequirementType;
  re: RegExp;
  label: string;
}

const HINTS: readonly Hint[] = [
  {
    type: 'budget',
    re: /(?:under|below|less than|max(?:imum)?|up to)\s*[$€£₩]?\s?\d[\d,.]*\s*(?:k|dollars?|usd|won)?/gi,
    label: 'budget',
  },
  { type: 'budget', re: /[$€£₩]\s?\d[\d,.]*(?:\s?(?:k|million))?/g, label: 'budget' },
  {
    type: 'budget',
    re: /(?<![\d,.])\d[\d,.]*\s?(?:만|천|억)?\s?원\s?(?:이하|미만|이내|대|정도|까지)?/g,
    label: '예산',
  },
  { type: 'location', re: /\bnear me\b/gi, label: 'location' },
  { type: 'location', re: /[가-힣]{2,6}(?:시|구|동|역)(?=$|[\s,.?!]|에서|에|의|근처|주변)/g, label: '지역' },
  { type: 'location', re: /(?:근처|주변)/g, label: '지역' },
  { type: 'time', re: /\b(?:19|20)\d{2}\b|(?<!\d)(?:19|20)\d{2}(?=년)/g, label: 'time' },
  { type: 'time', re: /\blatest\b|최신|올해/gi, label: 'time' },
  { type: 'quantity', re: /\btop\s?\d{1,3}\b|\d{1,3}\s?(?:가지|개|곳)/gi, label: 'quantity' },
  { type: 'comparison_set', re: /\bvs\.?\b|\bversus\b|\bcompared?\b|비교|차이|아니면/gi, label: 'comparison' },
];

export type RequirementItemType = RequirementType | 'topic' | 'criterion' | 'audience' | 'format' | 'other';
export type Coverage = 'addressed' | 'partial' | 'not_addressed';

export interface RequirementItem {
  id: string;
  text: string;
  quote: string;
  type: RequirementItemType;
  mandatory: boolean;
  coverage: Coverage;
  evidenceUnits: number[];
  supportingSourceIds: string[];
}

/** Hint spans of the prompt in order of appearance, one item per distinct quote. */
export function requirementHints(
  prompt: string,
): Array<{ type: RequirementType; quote: string; start: number; label: string }> {
  const text = norm(prompt);
  const found: Array<{ type: RequirementType; quote: string; start: number; label: string }> = [];
  for (const h of HINTS) {
    for (const m of text.matchAll(h.re)) {
      const quote = m[0].trim();
      if (!quote) continue;
      const start = m.index;
      const end = start + m[0].length;
      // overlapping: first hint wins
      if (found.some((f) => start < f.start + f.quote.length && f.start < end)) continue;
      found.push({ type: h.type, quote, start, label: h.label });
    }
  }
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.start - b.start)
    .filter((f) => {
      const k = `${f.type}\u0000${f.quote.toLowerCase()}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

/** The k units with the highest C(requirement, u), best first (ties by unit index). */
export function candidateUnits(core: AnalysisCore, requirement: string, k: number): Array<{ ui: number; c: number }> {
  const t = tokenize(requirement);
  const reqTokens = new Set([...t.tokens, ...t.numbers]);
  return core.segmented.units
    .map((u, ui) => {
      const ut = tokenize(u.plainText);
      return { ui, c: containment(reqTokens, new Set([...ut.tokens, ...ut.numbers]), core.aligner.idf) };
    })
    .sort((a, b) => b.c - a.c || a.ui - b.ui)
    .slice(0, k);
}

/** Lexical judge: `addressed` at τ_full, `partial` at τ_part, evidence = candidates at τ_part or more. */
export function lexicalCoverage(
  candidates: ReadonlyArray<{ ui: number; c: number }>,
  cfg: SourceInfluenceConfig,
): { coverage: Coverage; evidenceUnits: number[] } {
  const best = candidates[0]?.c ?? 0;
  const coverage: Coverage = best >= cfg.tauFull ? 'addressed' : best >= cfg.tauPartial ? 'partial' : 'not_addressed';
  return {
    coverage,
    evidenceUnits: candidates
      .filter((s) => s.c >= cfg.tauPartial)
      .map((s) => s.ui)
      .sort((a, b) => a - b),
  };
}

/** Sources with a_uj > 0 on any of the units. */
export function supportingSourceIds(core: AnalysisCore, units: readonly number[]): string[] {
  const supporting = new Set<number>();
  for (const ui of units) for (const [j, a] of (core.weights[ui] ?? []).entries()) if (a > 0) supporting.add(j);
  return [...supporting].sort((a, b) => a - b).map((j) => core.sources[j]?.sourceId ?? `c${j + 1}`);
}

export function coverageRate(items: ReadonlyArray<{ coverage: Coverage }>): number | null {
  const score = items.reduce(
    (acc, it) => acc + (it.coverage === 'addressed' ? 1 : it.coverage === 'partial' ? 0.5 : 0),
    0,
  );
  return items.length === 0 ? null : Math.round((score / items.length) * 10_000) / 10_000;
}

export function questionRequirements(
  core: AnalysisCore,
  prompt: string,
  cfg: SourceInfluenceConfig,
): { items: RequirementItem[]; coverageRate: number | null } {
  const items = requirementHints(prompt).map((h, i): RequirementItem => {
    const { coverage, evidenceUnits } = lexicalCoverage(candidateUnits(core, h.quote, cfg.extended.coverageUnits), cfg);
    return {
      id: `r${i + 1}`,
      text: `${h.label}: ${h.quote}`.slice(0, 80),
      quote: h.quote,
      type: h.type,
      // An explicit constraint written into the question is treated as a must (no model to judge nuance).
      mandatory: true,
      coverage,
      evidenceUnits,
      supportingSourceIds: supportingSourceIds(core, evidenceUnits),
    };
  });
  return { items, coverageRate: coverageRate(items) };
}
