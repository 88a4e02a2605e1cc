import type { SourceInfluenceConfig } from '../../config.js';
import { estimateTokens } from '../../model/meter.js';
import type { BrandDecisionsOutput } from '../../model/schemas.js';
import type { ModelSession } from '../../model/session.js';
import { nameMatcher } from '../../text/name-match.js';
import { norm } from '../../text/norm.js';
import type { AnalysisCore } from '../core.js';
import type { Entity } from '../types.js';
import { brandDecisions, type BrandDecision, type BrandReason, type Decision, type OtherBrand } from './brands.js';
import {
  mergeStatus,
  modelFailure,
  quoteFound,
  type ComponentError,
  type ComponentOutcome,
  type ComponentStatus,
} from './components.js';
import { supportingSourceIds } from './requirements.js';

/**
 * Brand decisions with the model (§2.11.2). The model sees the units that mention a listed entity
 * plus one neighbour on each side, in chunks of at most `brandChunkTokens`; it returns a decision,
 * top pick, sentiment and reasons per entity. Reasons must quote their unit (else dropped:
 * `partial`); decisions merge across chunks (recommended + not recommended ⇒ mixed). Counts of the
 * other brands it names are recomputed deterministically, and names absent from the answer dropped.
 */
export type BrandsValue = { entities: BrandDecision[]; otherBrands: OtherBrand[] };

const INSTRUCTIONS =
  'For each listed entity, judge how the answer units treat it: "recommended", "not_recommended", "mixed" ' +
  '(recommended and advised against, e.g. conditionally) or merely "mentioned"; "topPick" if the answer presents it ' +
  'as its first choice; "sentiment" from -1 to 1; "reasons" with the polarity, a short summary, an exact quote from ' +
  'one unit and that unit index. Also list other brands or products the units mention, with their decision.';

interface Judgement {
  decisions: Decision[];
  topPick: boolean;
  sentiments: number[];
  reasons: BrandReason[];
}

function mergeDecisions(ds: readonly Decision[]): Decision {
  const has = (d: Decision) => ds.includes(d);
  if (has('mixed') || (has('recommended') && has('not_recommended'))) return 'mixed';
  if (has('recommended')) return 'recommended';
  if (has('not_recommended')) return 'not_recommended';
  return 'mentioned';
}

/** Units that mention an entity, ±1 neighbour, cut into chunks that fit the per-call token cap. */
function chunks(core: AnalysisCore, mentionUnits: ReadonlySet<number>, maxTokens: number): number[][] {
  const n = core.segmented.units.length;
  const wanted = new Set<number>();
  for (const ui of mentionUnits) for (const k of [ui - 1, ui, ui + 1]) if (k >= 0 && k < n) wanted.add(k);
  const out: number[][] = [];
  let cur: number[] = [];
  let size = 0;
  for (const ui of [...wanted].sort((a, b) => a - b)) {
    const t = estimateTokens(core.segmented.units[ui]?.plainText);
    if (cur.length > 0 && size + t > maxTokens) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(ui);
    size += t;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

export async function modelBrandDecisions(
  core: AnalysisCore,
  entities: readonly Entity[],
  prompt: string | null,
  cfg: SourceInfluenceConfig,
  session: ModelSession,
): Promise<ComponentOutcome<BrandsValue>> {
  const component = 'brandDecisions' as const;
  const base = brandDecisions(core, entities);
  const matchers = entities.map((e) => nameMatcher(e.name));
  const mentionsIn = new Map<number, Set<number>>(); // entity index → units mentioning it
  entities.forEach((_, i) => {
    const m = matchers[i];
    const set = new Set<number>();
    if (m) for (const [ui, u] of core.segmented.units.entries()) if (m.test(u.text)) set.add(ui);
    if (set.size > 0) mentionsIn.set(i, set);
  });
  if (mentionsIn.size === 0) return { status: 'ok', value: { entities: base.entities, otherBrands: [] }, errors: [] };

  const errors: ComponentError[] = [];
  let status: ComponentStatus = 'ok';
  const judged = new Map<number, Judgement>();
  const others = new Map<string, { name: string; decisions: Decision[] }>();
  let droppedQuotes = 0;
  const allMentions = new Set([...mentionsIn.values()].flatMap((s) => [...s]));
  for (const chunk of chunks(core, allMentions, cfg.extended.brandChunkTokens)) {
    const inChunk = new Set(chunk);
    const present = [...mentionsIn].filter(([, units]) => [...units].some((u) => inChunk.has(u))).map(([i]) => i);
    if (present.length === 0) continue;
    const ids = new Map(present.map((i) => [entities[i]?.id ?? '', i]));
    const r = await session.call<BrandDecisionsOutput>('brand_decisions', INSTRUCTIONS, {
      question: prompt,
      entities: present.map((i) => ({ entityId: entities[i]?.id, name: entities[i]?.name })),
      units: chunk.map((ui) => ({ index: ui, text: core.segmented.units[ui]?.plainText ?? '' })),
    });
    if (!r.ok) {
      status = mergeStatus(status, r.status);
      errors.push(modelFailure(component, r.status, r.message));
      break;
    }
    for (const e of r.value.entities) {
      const i = ids.get(e.entityId);
      if (i === undefined) continue; // an entity we did not ask about
      const j = judged.get(i) ?? { decisions: [], topPick: false, sentiments: [], reasons: [] };
      j.decisions.push(e.decision);
      j.topPick ||= e.topPick;
      j.sentiments.push(e.sentiment);
      for (const reason of e.reasons) {
        const unit = core.segmented.units[reason.unitIndex];
        if (!inChunk.has(reason.unitIndex) || !unit || !quoteFound(reason.quote, unit.plainText)) {
          droppedQuotes++;
          continue;
        }
        j.reasons.push({
          polarity: reason.polarity,
          summary: norm(reason.summary).slice(0, 200),
          quote: norm(reason.quote),
          unitIndex: reason.unitIndex,
          sourceIds: supportingSourceIds(core, [reason.unitIndex]),
        });
      }
      judged.set(i, j);
    }
    for (const o of r.value.otherBrands) {
      const key = norm(o.name).toLowerCase();
      const cur = others.get(key) ?? { name: norm(o.name), decisions: [] };
      cur.decisions.push(o.decision);
      others.set(key, cur);
    }
  }
  if (droppedQuotes > 0) {
    status = mergeStatus(status, 'partial');
    errors.push({
      component,
      code: 'QUOTE_NOT_FOUND',
      message: `${droppedQuotes} reason(s) quoted text that is not in their unit and were dropped.`,
    });
  }
  const unjudged = [...mentionsIn.keys()].filter((i) => !judged.has(i)).length;
  if (unjudged > 0 && status === 'ok') {
    status = 'partial';
    errors.push({
      component,
      code: 'ITEM_INCOMPLETE',
      message: `The model gave no decision for ${unjudged} mentioned entit${unjudged === 1 ? 'y' : 'ies'}.`,
    });
  }
  const out = base.entities.map((d, i): BrandDecision => {
    const j = judged.get(i);
    if (!d.mentioned || !j) return d;
    const reasons = j.reasons
      .sort((a, b) => a.unitIndex - b.unitIndex || (a.polarity < b.polarity ? 1 : a.polarity > b.polarity ? -1 : 0))
      .slice(0, cfg.extended.maxReasons);
    const sentiment = Math.round((j.sentiments.reduce((a, b) => a + b, 0) / j.sentiments.length) * 100) / 100;
    return { ...d, decision: mergeDecisions(j.decisions), topPick: j.topPick, sentiment, reasons };
  });
  return { status, value: { entities: out, otherBrands: otherBrands(core, entities, others) }, errors };
}

/** Named brands the answer really contains (counts recomputed), not the listed entities. */
function otherBrands(
  core: AnalysisCore,
  entities: readonly Entity[],
  named: ReadonlyMap<string, { name: string; decisions: Decision[] }>,
): OtherBrand[] {
  const listed = entities.map((e) => nameMatcher(e.name)).filter((m) => m !== null);
  const out: OtherBrand[] = [];
  for (const { name, decisions } of named.values()) {
    const m = nameMatcher(name);
    if (!m || listed.some((l) => l.test(name) || m.test(l.name))) continue;
    const mentionCount = core.segmented.units.reduce((a, u) => a + m.find(u.text).length, 0);
    if (mentionCount > 0) out.push({ name, decision: mergeDecisions(decisions), mentionCount });
  }
  return out.sort((a, b) => b.mentionCount - a.mentionCount || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
