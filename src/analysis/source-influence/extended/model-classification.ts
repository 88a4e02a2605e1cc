import type { ClassificationOutput } from '../../model/schemas.js';
import type { ModelSession } from '../../model/session.js';
import { excerpt } from '../../text/norm.js';
import type { PreparedSource } from '../core.js';
import type { Entity } from '../types.js';
import {
  mergeStatus,
  modelFailure,
  type ComponentError,
  type ComponentOutcome,
  type ComponentStatus,
} from './components.js';
import { mediaClassOf, type SourceMeta } from './source-metadata.js';

/**
 * Rule 4 of §2.11.3: the sources the deterministic rules left open — type `other`, or ownership
 * `unknown` while entities were given (a Hangul brand name against a romanised domain) — are
 * classified by the model. Its ownership confidence is capped at 0.7; a rule's answer is never
 * replaced, only an open one filled.
 */
const INSTRUCTIONS =
  'Classify each web source: "sourceType" (institutional, reference, ugc_forum, ugc_social, review_site, ' +
  'marketplace, news, editorial, vendor_page, other), and whether the site is owned by one of the listed entities ' +
  '("owned" with its entityId, "not_owned", or "unknown" with entityId null), with your confidence from 0 to 1.';

const MODEL_OWNERSHIP_CAP = 0.7;

function needsModel(meta: SourceMeta, source: PreparedSource, entities: readonly Entity[]): boolean {
  if (source.text.source === 'none') return false;
  return meta.sourceType === 'other' || (entities.length > 0 && meta.ownership.relation === 'unknown');
}

export async function classifyWithModel(
  metas: readonly SourceMeta[],
  sources: ReadonlyMap<string, PreparedSource>,
  entities: readonly Entity[],
  prompt: string | null,
  session: ModelSession,
): Promise<ComponentOutcome<SourceMeta[]>> {
  const component = 'sourceMetadata' as const;
  const open = metas.filter((m) => {
    const s = sources.get(m.sourceId);
    return s !== undefined && needsModel(m, s, entities);
  });
  if (open.length === 0) return { status: 'ok', value: [...metas], errors: [] };
  const r = await session.call<ClassificationOutput>('source_classification', INSTRUCTIONS, {
    question: prompt,
    entities: entities.map((e) => ({ entityId: e.id, name: e.name })),
    sources: open.map((m) => {
      const s = sources.get(m.sourceId) as PreparedSource;
      const page = s.record?.page;
      return {
        sourceId: m.sourceId,
        url: page?.finalUrl ?? s.normalizedUrl,
        title: s.title,
        siteName: m.siteName,
        publisher: m.publisher,
        excerpt: excerpt(page?.text ?? '', 600),
      };
    }),
  });
  if (!r.ok) return { status: r.status, value: [...metas], errors: [modelFailure(component, r.status, r.message)] };
  const byId = new Map(r.value.sources.map((c) => [c.sourceId, c]));
  const entityIds = new Set(entities.map((e) => e.id));
  let status: ComponentStatus = 'ok';
  const errors: ComponentError[] = [];
  const openIds = new Set(open.map((m) => m.sourceId));
  let missing = 0;
  const value = metas.map((m): SourceMeta => {
    if (!openIds.has(m.sourceId)) return m;
    const c = byId.get(m.sourceId);
    if (!c) {
      missing++;
      return m;
    }
    const next: SourceMeta = { ...m, ownership: { ...m.ownership } };
    if (m.sourceType === 'other' && c.sourceType !== 'other') {
      next.sourceType = c.sourceType;
      next.typeMethod = 'model';
    }
    if (m.ownership.relation === 'unknown' && entities.length > 0) {
      const confidence = Math.round(Math.min(MODEL_OWNERSHIP_CAP, c.confidence) * 100) / 100;
      if (c.ownership === 'owned' && c.entityId !== null && entityIds.has(c.entityId))
        next.ownership = { relation: 'owned', entityId: c.entityId, method: 'model', confidence };
      else if (c.ownership === 'not_owned')
        next.ownership = { relation: 'not_owned', entityId: null, method: 'model', confidence };
    }
    next.mediaClass = mediaClassOf(next.sourceType, next.ownership.relation === 'owned');
    return next;
  });
  if (missing > 0) {
    status = mergeStatus(status, 'partial');
    errors.push({
      component,
      code: 'ITEM_INCOMPLETE',
      message: `The model did not classify ${missing} source(s); their rule-based fields are kept.`,
    });
  }
  return { status, value, errors };
}
