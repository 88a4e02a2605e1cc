import type { SourceInfluenceConfig } from '../config.js';
import type { ModelSession } from '../model/session.js';
import type { ModelCheckOutput } from '../model/schemas.js';
import { withModelJudgements, type AnalysisCore } from './core.js';
import type { SupportLabel } from './judge/labels.js';
import { decay } from './metrics.js';
import type { Passage } from './passages.js';
import type { Warning } from './types.js';

/**
 * The optional model judge of §2.10, on any OpenAI-compatible endpoint: in `ambiguous` mode the (unit, source) pairs
 * whose lexical support is near a level boundary (max(τ_part − band, minSupport) ≤ s < τ_full + band), or that the
 * lexical judge calls contradicted; in `all` mode every non-trivial pair with a passage. Pairs go in order of their
 * weight in the answer (w_u·d_u), at most `maxPairs` (`maxPairsAll` in `all` mode), a batch per call. A judgement
 * replaces the pair's label (and s_uj: judgedSupport in core.ts), records `judge: "model"`, and the metrics are
 * recomputed. A failed call ends the judging; the judgements already made stay, and a warning says why the rest
 * is lexical.
 */
export type ModelJudgeMode = 'ambiguous' | 'all';

const INSTRUCTIONS =
  'Each pair has a claim from an AI answer and a passage from a web page. Decide whether a reader ' +
  'would accept "according to the passage, <claim>": "supported" if the passage states everything the ' +
  'claim says (numbers included), "partial" if it states only part of it and contradicts nothing, ' +
  '"contradicted" if the passage states something incompatible with the claim (a negation, an opposite, ' +
  'another number, date or name for the same thing), "unsupported" otherwise. Return one judgement per pair id.';

export interface CheckPair {
  id: string;
  unit: number;
  source: number;
  passage: Passage;
}

export function checkPairs(core: AnalysisCore, cfg: SourceInfluenceConfig, mode: ModelJudgeMode): CheckPair[] {
  const lo = mode === 'all' ? 0 : Math.max(cfg.tauPartial - cfg.modelCheck.band, cfg.modelCheck.minSupport);
  const hi = mode === 'all' ? Number.POSITIVE_INFINITY : cfg.tauFull + cfg.modelCheck.band;
  const n = core.units.length;
  const out: Array<Omit<CheckPair, 'id'> & { weight: number }> = [];
  core.units.forEach((u, ui) => {
    if (u.alignment.trivial) return;
    u.alignment.judgements.forEach((jd, j) => {
      const best = u.alignment.best[j];
      if (best === null || best === undefined || core.sources[j]?.duplicateOf) return;
      const s = jd.score;
      if (jd.label !== 'contradicted' && (s < lo || s >= hi)) return;
      out.push({ unit: ui, source: j, passage: core.passages[best] as Passage, weight: u.words * decay(u.index, n) });
    });
  });
  return out
    .sort((a, b) => b.weight - a.weight || a.unit - b.unit || a.source - b.source)
    .slice(0, mode === 'all' ? cfg.modelCheck.maxPairsAll : cfg.modelCheck.maxPairs)
    .map((p, i) => ({ id: `p${i + 1}`, unit: p.unit, source: p.source, passage: p.passage }));
}

export interface ModelCheckOutcome {
  core: AnalysisCore;
  judged: number;
  warning: Warning | null;
}

export async function runModelCheck(
  core: AnalysisCore,
  prompt: string | null,
  cfg: SourceInfluenceConfig,
  session: ModelSession,
  mode: ModelJudgeMode,
): Promise<ModelCheckOutcome> {
  const pairs = checkPairs(core, cfg, mode);
  const overrides = new Map<number, Map<number, SupportLabel>>();
  let judged = 0;
  let warning: Warning | null = null;
  for (let i = 0; i < pairs.length; i += cfg.modelCheck.pairsPerCall) {
    const batch = pairs.slice(i, i + cfg.modelCheck.pairsPerCall);
    const input = {
      question: prompt,
      pairs: batch.map((p) => ({
        id: p.id,
        claim: core.segmented.units[p.unit]?.plainText ?? '',
        passage: core.alignments[p.unit]?.judgements[p.source]?.evidence ?? p.passage.text,
      })),
    };
    const r = await session.call<ModelCheckOutput>('model_check', INSTRUCTIONS, input);
    if (!r.ok) {
      warning = {
        code: 'MODEL_CHECK_FAILED',
        message: `Model check stopped (${r.status}); ${pairs.length - judged} pair(s) keep their lexical support.`,
      };
      break;
    }
    const byId = new Map(batch.map((p) => [p.id, p]));
    for (const j of r.value.judgements) {
      const p = byId.get(j.id);
      if (!p) continue; // an id we did not send
      byId.delete(j.id);
      const row = overrides.get(p.unit) ?? new Map<number, SupportLabel>();
      row.set(p.source, j.label);
      overrides.set(p.unit, row);
      judged++;
    }
  }
  return { core: withModelJudgements(core, overrides, cfg), judged, warning };
}
