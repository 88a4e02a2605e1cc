import { round4 } from '../../text/norm.js';
import { nameMatcher } from '../../text/name-match.js';
import type { AnalysisCore } from '../core.js';
import type { Entity } from '../types.js';

/**
 * Brand decisions (§2.11.2). The deterministic fields (mentions, first mention, order, list rank,
 * share of voice) are computed for every entity. `decision` is `absent` exactly when the entity is
 * not mentioned; for a mentioned entity the decision, top pick, sentiment and reasons are model
 * judgements (model-brands.ts), so without a model they are null / empty and the component
 * reports `partial`.
 */
export interface BrandDecision {
  entityId: string;
  name: string;
  role: string;
  mentioned: boolean;
  mentionCount: number;
  firstMention: { unitIndex: number; charOffset: number } | null;
  mentionOrder: number | null;
  listRank: number | null;
  shareOfVoice: number | null;
  decision: Decision | 'absent' | null;
  topPick: boolean | null;
  sentiment: number | null;
  reasons: BrandReason[];
}

export type Decision = 'recommended' | 'mentioned' | 'not_recommended' | 'mixed';

export interface BrandReason {
  polarity: 'pro' | 'con';
  summary: string;
  quote: string;
  unitIndex: number;
  sourceIds: string[];
}

export interface OtherBrand {
  name: string;
  decision: Decision;
  mentionCount: number;
}

export function brandDecisions(
  core: AnalysisCore,
  entities: readonly Entity[],
): { entities: BrandDecision[]; otherBrands: OtherBrand[]; needsModel: boolean } {
  const found = entities.map((e) => {
    const m = nameMatcher(e.name);
    let count = 0;
    let first: { unitIndex: number; charOffset: number } | null = null;
    if (m) {
      for (const u of core.segmented.units) {
        const hits = m.find(u.text);
        count += hits.length;
        const h = hits[0];
        if (!first && h) first = { unitIndex: u.index, charOffset: u.start + h.start };
      }
    }
    return { e, count, first };
  });
  const total = found.reduce((a, f) => a + f.count, 0);
  const order = found
    .map((f, i) => ({ i, first: f.first }))
    .filter((x) => x.first !== null)
    .sort((a, b) => (a.first?.charOffset ?? 0) - (b.first?.charOffset ?? 0) || a.i - b.i);
  const orderOf = new Map(order.map((x, k) => [x.i, k + 1]));
  const out = found.map((f, i): BrandDecision => {
    const mentioned = f.count > 0;
    const unit = f.first ? core.segmented.units[f.first.unitIndex] : undefined;
    return {
      entityId: f.e.id,
      name: f.e.name,
      role: f.e.role,
      mentioned,
      mentionCount: f.count,
      firstMention: f.first,
      mentionOrder: orderOf.get(i) ?? null,
      listRank: unit?.listItem ?? null,
      shareOfVoice: total > 0 ? round4(f.count / total) : null,
      decision: mentioned ? null : 'absent',
      topPick: mentioned ? null : false,
      sentiment: null,
      reasons: [],
    };
  });
  return { entities: out, otherBrands: [], needsModel: out.some((d) => d.mentioned) };
}
