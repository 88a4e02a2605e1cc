import type { SourceInfluenceConfig } from '../../config.js';
import type { CoverageOutput, RequirementsOutput } from '../../model/schemas.js';
import type { ModelSession } from '../../model/session.js';
import { norm } from '../../text/norm.js';
import type { AnalysisCore } from '../core.js';
import {
  mergeStatus,
  modelFailure,
  quoteFound,
  type ComponentError,
  type ComponentOutcome,
  type ComponentStatus,
} from './components.js';
import {
  candidateUnits,
  coverageRate,
  lexicalCoverage,
  questionRequirements,
  requirementHints,
  supportingSourceIds,
  type Coverage,
  type RequirementItem,
  type RequirementItemType,
} from './requirements.js';

/**
 * Question requirements with the model (§2.11.1): the model lists what the question asks for, each
 * item quoting the prompt (a quote not found in the prompt drops the item: `partial`), the
 * deterministic hints it missed are added back, and the model judges coverage on the five units
 * most likely to address each item. A failed step keeps the lexical judgement for what it could
 * not do and reports its status.
 */
export type RequirementsValue = { items: RequirementItem[]; coverageRate: number | null };

const EXTRACT =
  'List the requirements of the question: its topic, criteria, budget, location, time, quantity, comparison set, ' +
  'audience and output format, as far as the question states them. "quote" is the exact span of the question that ' +
  'states the requirement; "text" restates it in at most 80 characters; "mandatory" is false for preferences. ' +
  '"hints" are spans a rule already found: include them.';

const COVER =
  'For each requirement decide whether the answer units address it: "addressed", "partial" or "not_addressed", and ' +
  'list the indexes of the units that do (only from its candidateUnits).';

interface Draft {
  text: string;
  quote: string;
  type: RequirementItemType;
  mandatory: boolean;
}

function spanOf(quote: string, prompt: string): [number, number] | null {
  const at = norm(prompt).toLowerCase().indexOf(norm(quote).toLowerCase());
  return at < 0 ? null : [at, at + norm(quote).length];
}

function drafts(prompt: string, out: RequirementsOutput, max: number): { items: Draft[]; dropped: number } {
  const items: Draft[] = [];
  let dropped = 0;
  const seen = new Set<string>();
  for (const it of out.items) {
    if (!quoteFound(it.quote, prompt)) {
      dropped++;
      continue;
    }
    const key = `${it.type}\u0000${norm(it.quote).toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // The prompt's own spelling of the span (the model may have changed case).
    const [a, b] = spanOf(it.quote, prompt) ?? [0, 0];
    items.push({
      text: norm(it.text).slice(0, 80),
      quote: norm(prompt).slice(a, b),
      type: it.type,
      mandatory: it.mandatory,
    });
  }
  // A rule-found constraint the model left out is still a requirement of the question.
  const spans = items.map((d) => spanOf(d.quote, prompt)).filter((s): s is [number, number] => s !== null);
  for (const h of requirementHints(prompt)) {
    const s = spanOf(h.quote, prompt);
    if (s && spans.some(([a, b]) => s[0] < b && a < s[1])) continue;
    items.push({ text: `${h.label}: ${h.quote}`.slice(0, 80), quote: h.quote, type: h.type, mandatory: true });
  }
  return { items: items.slice(0, max), dropped };
}

export async function modelRequirements(
  core: AnalysisCore,
  prompt: string,
  cfg: SourceInfluenceConfig,
  session: ModelSession,
): Promise<ComponentOutcome<RequirementsValue>> {
  const component = 'questionRequirements' as const;
  const extracted = await session.call<RequirementsOutput>('requirements', EXTRACT, {
    question: prompt,
    hints: requirementHints(prompt).map((h) => ({ type: h.type, quote: h.quote })),
  });
  if (!extracted.ok) {
    return {
      status: extracted.status,
      value: questionRequirements(core, prompt, cfg),
      errors: [modelFailure(component, extracted.status, extracted.message)],
    };
  }
  const errors: ComponentError[] = [];
  let status: ComponentStatus = 'ok';
  const { items: list, dropped } = drafts(prompt, extracted.value, cfg.extended.maxRequirements);
  if (dropped > 0) {
    status = 'partial';
    errors.push({
      component,
      code: 'QUOTE_NOT_FOUND',
      message: `${dropped} requirement(s) quoted text that is not in the prompt and were dropped.`,
    });
  }
  const withCandidates = list.map((d, i) => ({
    d,
    id: `r${i + 1}`,
    candidates: candidateUnits(core, `${d.text} ${d.quote}`, cfg.extended.coverageUnits),
  }));
  const judged = new Map<string, { coverage: Coverage; unitIndexes: number[] }>();
  if (withCandidates.length > 0) {
    const unitIds = [...new Set(withCandidates.flatMap((w) => w.candidates.map((c) => c.ui)))].sort((a, b) => a - b);
    const covered = await session.call<CoverageOutput>('requirement_coverage', COVER, {
      question: prompt,
      requirements: withCandidates.map((w) => ({
        id: w.id,
        text: w.d.text,
        quote: w.d.quote,
        candidateUnits: w.candidates.map((c) => c.ui),
      })),
      units: unitIds.map((ui) => ({ index: ui, text: core.segmented.units[ui]?.plainText ?? '' })),
    });
    if (covered.ok)
      for (const r of covered.value.results) judged.set(r.id, { coverage: r.coverage, unitIndexes: r.unitIndexes });
    else {
      status = mergeStatus(status, covered.status);
      errors.push(modelFailure(component, covered.status, covered.message));
    }
    const missing = covered.ok ? withCandidates.filter((w) => !judged.has(w.id)).length : 0;
    if (missing > 0) {
      status = mergeStatus(status, 'partial');
      errors.push({
        component,
        code: 'ITEM_INCOMPLETE',
        message: `The model judged no coverage for ${missing} requirement(s); their coverage is lexical.`,
      });
    }
  }
  const items = withCandidates.map(({ d, id, candidates }): RequirementItem => {
    const m = judged.get(id);
    const allowed = new Set(candidates.map((c) => c.ui));
    const lexical = lexicalCoverage(candidates, cfg);
    const coverage = m?.coverage ?? lexical.coverage;
    const evidenceUnits = m
      ? [...new Set(m.unitIndexes.filter((u) => allowed.has(u)))].sort((a, b) => a - b)
      : lexical.evidenceUnits;
    return {
      id,
      text: d.text,
      quote: d.quote,
      type: d.type,
      mandatory: d.mandatory,
      coverage,
      evidenceUnits,
      supportingSourceIds: supportingSourceIds(core, evidenceUnits),
    };
  });
  return { status, value: { items, coverageRate: coverageRate(items) }, errors };
}
