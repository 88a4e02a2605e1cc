import type { SourceInfluenceConfig } from '../../config.js';
import type { ModelSession } from '../../model/session.js';
import { round4 } from '../../text/norm.js';
import type { AnalysisCore, PreparedSource } from '../core.js';
import { tokenLimit } from '../metering.js';
import type { ExtendedAnalysis } from '../result-types.js';
import type { SourceInfluenceInput } from '../types.js';
import { brandDecisions } from './brands.js';
import {
  guardComponent,
  NO_MODEL_MESSAGE,
  topLevelStatus,
  type ComponentError,
  type ComponentName,
  type ComponentOutcome,
  type ComponentStatus,
} from './components.js';
import { modelBrandDecisions, type BrandsValue } from './model-brands.js';
import { classifyWithModel } from './model-classification.js';
import { modelRequirements, type RequirementsValue } from './model-requirements.js';
import { questionRequirements } from './requirements.js';
import { sourceMetadata, type SourceMeta } from './source-metadata.js';

/**
 * The `analysis` member for `analysis.version = 1` (§2.11). Each component first computes what
 * needs no model; with a model session it then asks the model for the rest (in the fixed order
 * requirements, brand decisions, source classification, so the token budget is spent the same way
 * every time). Without a model a component whose remaining fields need one reports `partial`. A
 * failing component keeps its deterministic fields and reports its status; the task is COMPLETED
 * either way (interface rule 2).
 */
export interface ExtendedInput {
  core: AnalysisCore;
  input: SourceInfluenceInput;
  shares: readonly number[];
  unattributed: number;
  cfg: SourceInfluenceConfig;
  session: ModelSession | null;
  signal: AbortSignal | null;
}

async function requirementsComponent(x: ExtendedInput): Promise<ComponentOutcome<RequirementsValue>> {
  const component: ComponentName = 'questionRequirements';
  const prompt = x.input.prompt;
  if (!prompt || prompt.trim() === '') {
    return {
      status: 'insufficient_input',
      value: { items: [], coverageRate: null },
      errors: [
        {
          component,
          code: 'INSUFFICIENT_INPUT',
          message: 'No prompt was given, so there are no requirements to check.',
        },
      ],
    };
  }
  const lexical = () => questionRequirements(x.core, prompt, x.cfg);
  return guardComponent(
    component,
    x.signal,
    async () => {
      if (x.session) return modelRequirements(x.core, prompt, x.cfg, x.session);
      // Deterministic hints cover constraints only; open-ended requirements need the model.
      return {
        status: 'partial',
        value: lexical(),
        errors: [{ component, code: 'MODEL_NOT_CONFIGURED', message: NO_MODEL_MESSAGE }],
      };
    },
    lexical,
  );
}

async function brandsComponent(x: ExtendedInput): Promise<ComponentOutcome<BrandsValue>> {
  const component: ComponentName = 'brandDecisions';
  const entities = x.input.analysis?.entities ?? [];
  const deterministic = () => {
    const b = brandDecisions(x.core, entities);
    return { entities: b.entities, otherBrands: b.otherBrands };
  };
  return guardComponent(
    component,
    x.signal,
    async () => {
      if (x.session) return modelBrandDecisions(x.core, entities, x.input.prompt, x.cfg, x.session);
      const b = brandDecisions(x.core, entities);
      const errors: ComponentError[] = b.needsModel
        ? [{ component, code: 'MODEL_NOT_CONFIGURED', message: NO_MODEL_MESSAGE }]
        : [];
      return {
        status: b.needsModel ? 'partial' : 'ok',
        value: { entities: b.entities, otherBrands: b.otherBrands },
        errors,
      };
    },
    deterministic,
  );
}

async function metadataComponent(x: ExtendedInput): Promise<ComponentOutcome<SourceMeta[]>> {
  const entities = x.input.analysis?.entities ?? [];
  const distinct = x.core.sources.filter((s) => !s.duplicateOf);
  const rules = () => distinct.map((s) => sourceMetadata(s, entities));
  return guardComponent(
    'sourceMetadata',
    x.signal,
    async () => {
      const metas = rules();
      if (!x.session) return { status: 'ok', value: metas, errors: [] };
      const bySource = new Map<string, PreparedSource>(distinct.map((s) => [s.sourceId, s]));
      return classifyWithModel(metas, bySource, entities, x.input.prompt, x.session);
    },
    rules,
  );
}

function sharesBy(
  metas: readonly SourceMeta[],
  key: 'sourceType' | 'mediaClass',
  x: ExtendedInput,
): Record<string, number> {
  const index = new Map(x.core.sources.map((s, j) => [s.sourceId, j]));
  const sums = new Map<string, number>();
  for (const m of metas) sums.set(m[key], (sums.get(m[key]) ?? 0) + (x.shares[index.get(m.sourceId) ?? -1] ?? 0));
  const out: Record<string, number> = {};
  for (const [k, v] of [...sums].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out[k] = round4(v);
  out.unattributed = x.unattributed;
  return out;
}

export async function extendedAnalysis(x: ExtendedInput): Promise<ExtendedAnalysis> {
  const requirements = await requirementsComponent(x);
  const brands = await brandsComponent(x);
  const metadata = await metadataComponent(x);
  const components: Record<ComponentName, ComponentStatus> = {
    questionRequirements: requirements.status,
    brandDecisions: brands.status,
    sourceMetadata: metadata.status,
  };
  return {
    version: 1,
    status: topLevelStatus(components),
    components,
    errors: [...requirements.errors, ...brands.errors, ...metadata.errors],
    budget: {
      tokenLimit: x.session?.meter.tokenLimit ?? tokenLimit(x.input, x.cfg),
      tokensUsed: x.session?.meter.tokensUsed ?? 0,
    },
    questionRequirements: requirements.value,
    brandDecisions: brands.value,
    sourceMetadata: metadata.value,
    sourceTypeShares: sharesBy(metadata.value, 'sourceType', x),
    mediaClassShares: sharesBy(metadata.value, 'mediaClass', x),
  };
}
