import type { SourceInfluenceConfig } from '../../config.js';
import { round4 } from '../../text/norm.js';
import type { AnalysisCore } from '../core.js';
import type { SourceInfluenceInput } from '../types.js';
import { brandDecisions } from './brands.js';
import { questionRequirements } from './requirements.js';
import { sourceMetadata } from './source-metadata.js';

/**
 * The `analysis` member for `analysis.version = 1` (§2.11). No interpretation model is configured
 * in this build, so every component runs its deterministic variant: a component whose remaining
 * fields need a model reports `partial` with an error entry saying so; one that needs no model for
 * this input reports `ok`. The task is COMPLETED either way (interface rule 2).
 */
export type ComponentStatus = 'ok' | 'partial' | 'insufficient_input' | 'model_error' | 'timeout' | 'invalid_output' | 'budget_exceeded' | 'internal_error';

const NO_MODEL = 'No interpretation model is configured; only the deterministic fields are filled.';

/** est(text) = ceil(utf8Bytes / 3), an over-estimate of tokens for English and Korean (§2.14). */
const est = (s: string | null) => Math.ceil(Buffer.byteLength(s ?? '', 'utf8') / 3);

export function tokenLimit(input: SourceInfluenceInput, cfg: SourceInfluenceConfig): number {
  const entities = input.analysis?.entities.length ?? 0;
  const raw = 2_000 + 1.5 * est(input.answer) + 2 * est(input.prompt) + 800 * entities + 1_500 * input.citations.length;
  return Math.min(cfg.budget.maxTokens, Math.ceil(raw));
}

export function topLevelStatus(components: Record<'questionRequirements' | 'brandDecisions' | 'sourceMetadata', ComponentStatus>): ComponentStatus {
  const order = [components.questionRequirements, components.brandDecisions, components.sourceMetadata];
  if (order.every((s) => s === 'ok')) return 'ok';
  if (order.some((s) => s === 'ok' || s === 'partial')) return 'partial';
  return order[0] ?? 'internal_error';
}

export function extendedAnalysis(core: AnalysisCore, input: SourceInfluenceInput, shares: readonly number[], unattributed: number, cfg: SourceInfluenceConfig): Record<string, unknown> {
  const entities = input.analysis?.entities ?? [];
  const errors: Array<{ component: string; code: string; message: string }> = [];

  let reqStatus: ComponentStatus;
  let requirements: { items: unknown[]; coverageRate: number | null };
  if (!input.prompt || input.prompt.trim() === '') {
    reqStatus = 'insufficient_input';
    requirements = { items: [], coverageRate: null };
    errors.push({ component: 'questionRequirements', code: 'INSUFFICIENT_INPUT', message: 'No prompt was given, so there are no requirements to check.' });
  } else {
    requirements = questionRequirements(core, input.prompt, cfg);
    // Deterministic hints cover constraints only; open-ended requirements need the model.
    reqStatus = 'partial';
    errors.push({ component: 'questionRequirements', code: 'MODEL_NOT_CONFIGURED', message: NO_MODEL });
  }

  const brands = brandDecisions(core, entities);
  const brandStatus: ComponentStatus = brands.needsModel ? 'partial' : 'ok';
  if (brands.needsModel) errors.push({ component: 'brandDecisions', code: 'MODEL_NOT_CONFIGURED', message: NO_MODEL });

  const metadata = core.sources.filter((s) => !s.duplicateOf).map((s) => ({ meta: sourceMetadata(s, entities), j: s.inputIndex }));
  const typeShares = new Map<string, number>();
  const classShares = new Map<string, number>();
  for (const { meta, j } of metadata) {
    typeShares.set(meta.sourceType, (typeShares.get(meta.sourceType) ?? 0) + (shares[j] ?? 0));
    classShares.set(meta.mediaClass, (classShares.get(meta.mediaClass) ?? 0) + (shares[j] ?? 0));
  }
  const asObject = (m: Map<string, number>) => {
    const out: Record<string, number> = {};
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out[k] = round4(v);
    out.unattributed = unattributed;
    return out;
  };

  const components = { questionRequirements: reqStatus, brandDecisions: brandStatus, sourceMetadata: 'ok' as ComponentStatus };
  return {
    version: 1,
    status: topLevelStatus(components),
    components,
    errors,
    budget: { tokenLimit: tokenLimit(input, cfg), tokensUsed: 0 },
    questionRequirements: requirements,
    brandDecisions: { entities: brands.entities, otherBrands: brands.otherBrands },
    sourceMetadata: metadata.map((m) => m.meta),
    sourceTypeShares: asObject(typeShares),
    mediaClassShares: asObject(classShares),
  };
}
