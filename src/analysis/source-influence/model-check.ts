import type { SourceInfluenceConfig } from '../config.js';
import type { ModelFailureStatus, ModelSession } from '../model/session.js';
import type { ModelCheckOutput } from '../model/schemas.js';
import { withModelJudgements, type AnalysisCore } from './core.js';
import type { PairJudgement, SupportLabel } from './judge/labels.js';
import type { JudgementMemo } from './judgement-cache.js';
import { decay } from './metrics.js';
import type { Passage } from './passages.js';
import type { Warning } from './types.js';

/**
 * The optional model judge of §2.10, on any OpenAI-compatible endpoint: in `ambiguous` mode the (unit, source) pairs
 * the learned judge is not sure of (confidence under `maxConfidence`; for the thresholds' labels, a score near a
 * level boundary, max(τ_part − band, minSupport) ≤ s < τ_full + band), or that it calls contradicted; in `all`
 * mode every non-trivial pair with a passage. Pairs go in order of their
 * weight in the answer (w_u·d_u), at most `maxPairs` (`maxPairsAll` in `all` mode), a batch per call. A judgement
 * replaces the pair's label (and s_uj: judgedSupport in core.ts), records `judge: "model"`, and the metrics are
 * recomputed. A pair this model judged before (judgement-cache.ts) takes its cached label without a call. A failed
 * call (an error, a timeout, output still invalid after the repair, the token budget) ends the judging: the
 * judgements already made stay, the remaining pairs keep the lexical judge's label, and a warning says so.
 */
export type ModelJudgeMode = 'ambiguous' | 'all';

/** What the model is told about each batch; the evaluation (eval/model-judge-eval.ts) sends the same. */
const MODEL_CHECK_INSTRUCTIONS =
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

/**
 * A pair worth a model's reading in `ambiguous` mode: a learned label the judge is not sure of (calibrated confidence
 * under `maxConfidence`), or, for the thresholds' labels, a score near a boundary; either way not a pair whose score
 * is at chance level (under `minSupport`).
 */
function ambiguous(jd: PairJudgement, lo: number, hi: number, cfg: SourceInfluenceConfig): boolean {
  if (jd.score < cfg.modelCheck.minSupport) return false;
  if (jd.confidence !== null) return jd.confidence < cfg.modelCheck.maxConfidence;
  return jd.score >= lo && jd.score < hi;
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
      if (mode === 'ambiguous' && jd.label !== 'contradicted' && !ambiguous(jd, lo, hi, cfg)) return;
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
  /** Pairs the model's label replaced the lexical one for, from a call or from the cache. */
  judged: number;
  /** Of those, the pairs whose label came from the cache (no call, no token). */
  cached: number;
  warning: Warning | null;
}

/** One pair as the model reads it: the claim (a unit of the answer) and the evidence passage of the page. */
export interface ModelCheckItem {
  id: string;
  claim: string;
  passage: string;
}

export type BatchJudgement =
  | { ok: true; labels: Map<string, SupportLabel> }
  | { ok: false; status: ModelFailureStatus; message: string };

/**
 * One call of the judge: up to `pairsPerCall` items, with the user's question as context. Labels for ids that were
 * not sent, and second labels for one id, are ignored; an id without a label is absent from the map.
 */
export async function judgeBatch(
  session: ModelSession,
  question: string | null,
  items: readonly ModelCheckItem[],
): Promise<BatchJudgement> {
  const r = await session.call<ModelCheckOutput>('model_check', MODEL_CHECK_INSTRUCTIONS, {
    question,
    pairs: items,
  });
  if (!r.ok) return r;
  const sent = new Set(items.map((p) => p.id));
  const labels = new Map<string, SupportLabel>();
  for (const j of r.value.judgements) if (sent.has(j.id) && !labels.has(j.id)) labels.set(j.id, j.label);
  return { ok: true, labels };
}

export async function runModelCheck(
  core: AnalysisCore,
  prompt: string | null,
  cfg: SourceInfluenceConfig,
  session: ModelSession,
  mode: ModelJudgeMode,
  memo: JudgementMemo | null = null,
): Promise<ModelCheckOutcome> {
  const overrides = new Map<number, Map<number, SupportLabel>>();
  const apply = (p: CheckPair, label: SupportLabel) => {
    const row = overrides.get(p.unit) ?? new Map<number, SupportLabel>();
    row.set(p.source, label);
    overrides.set(p.unit, row);
  };
  const items = checkPairs(core, cfg, mode).map((p) => ({
    pair: p,
    claim: core.segmented.units[p.unit]?.plainText ?? '',
    passage: core.alignments[p.unit]?.judgements[p.source]?.evidence ?? p.passage.text,
  }));
  let cached = 0;
  const toAsk: typeof items = [];
  for (const it of items) {
    const hit = memo?.get(it.claim, it.passage);
    if (hit === undefined) toAsk.push(it);
    else {
      apply(it.pair, hit);
      cached++;
    }
  }
  let asked = 0;
  let judged = cached;
  let skipped = 0;
  let warning: Warning | null = null;
  for (let i = 0; i < toAsk.length; i += cfg.modelCheck.pairsPerCall) {
    const batch = toAsk.slice(i, i + cfg.modelCheck.pairsPerCall);
    const r = await judgeBatch(
      session,
      prompt,
      batch.map((it) => ({ id: it.pair.id, claim: it.claim, passage: it.passage })),
    );
    if (!r.ok) {
      warning = {
        code: 'MODEL_CHECK_FAILED',
        message:
          `The model judge stopped (${r.status}: ${r.message.replace(/^model_check: /, '')}); the remaining ` +
          `${toAsk.length - asked} pair(s) keep the lexical judge's label` +
          (skipped > 0 ? `, as do ${skipped} pair(s) it answered without a label.` : '.'),
      };
      break;
    }
    asked += batch.length;
    for (const it of batch) {
      const label = r.labels.get(it.pair.id);
      if (label === undefined) {
        skipped++; // the model left it out: the lexical label stays, and the warning below says so
        continue;
      }
      apply(it.pair, label);
      memo?.set(it.claim, it.passage, label);
      judged++;
    }
  }
  // Valid output that leaves pairs out is not a failure, but the result must not read as if the model judged them.
  if (!warning && skipped > 0)
    warning = {
      code: 'MODEL_CHECK_INCOMPLETE',
      message:
        `The model judge answered without a label for ${skipped} of ${asked} pair(s); they keep the lexical ` +
        "judge's label.",
    };
  return { core: withModelJudgements(core, overrides, cfg), judged, cached, warning };
}
