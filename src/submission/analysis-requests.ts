import { RequestError, validationError, type FieldProblem } from '../domain/request-errors.js';
import type { NewTask } from '../domain/task.js';
import { ENGINE_CATALOG, canonicalTaskType } from '../domain/engine-catalog.js';
import { buildTask, type SubmissionContext } from './envelope.js';
import { checkEngineServes } from './engine-check.js';

interface CitationInput {
  url: string;
  title?: string;
  snippet?: string;
  position?: number;
  label?: string;
}

export interface SourceInfluenceInput {
  answer: string;
  prompt?: string;
  citations: Array<string | CitationInput>;
  analysis?: { version?: number; entities?: Array<{ id?: string; name: string; role?: string }> };
  idempotencyKey?: string;
  webhook?: { url: string };
}

function knownCitation(c: CitationInput): CitationInput {
  const out: CitationInput = { url: c.url };
  if (c.title !== undefined) out.title = c.title;
  if (c.snippet !== undefined) out.snippet = c.snippet;
  if (c.position !== undefined) out.position = c.position;
  if (c.label !== undefined) out.label = c.label;
  return out;
}

/** What a SOURCE_INFLUENCE task carries to its worker. */
interface SourceInfluencePayload {
  answer: string;
  prompt: string | null;
  citations: CitationInput[];
  analysis: { version: 1; entities: Array<{ id: string; name: string; role: string }> } | null;
}

export function sourceInfluenceTask(input: SourceInfluenceInput, ctx: SubmissionContext, accountId: string): NewTask {
  const extended = input.analysis?.version === 1;
  const min = extended ? 0 : 1;
  if (input.citations.length < min) {
    throw validationError([
      { field: 'citations', message: 'must have 1 to 25 items (0 to 25 with analysis.version = 1)' },
    ]);
  }
  // Known members only: unknown ones are ignored, and must not reach the stored payload (they can be arbitrarily deep).
  const citations = input.citations.map((c): CitationInput => (typeof c === 'string' ? { url: c } : knownCitation(c)));
  const payload: SourceInfluencePayload = {
    answer: input.answer,
    prompt: input.prompt ?? null,
    citations,
    analysis: extended
      ? {
          version: 1,
          entities: (input.analysis?.entities ?? []).map((e, i) => ({
            id: e.id ?? `e${i + 1}`,
            name: e.name,
            role: e.role ?? 'brand',
          })),
        }
      : null,
  };
  checkEngineServes(ctx.config.engines.SOURCE_INFLUENCE, 'SOURCE_INFLUENCE');
  return buildTask(ctx, 'SOURCE_INFLUENCE', payload, {
    accountId,
    country: null,
    idempotencyKey: input.idempotencyKey,
    webhookUrl: input.webhook?.url,
  });
}

export interface PromptResearchInput {
  seed: string;
  country?: string;
  limit?: number;
  exclude?: string[];
  monitorSize?: number;
  engines?: string[];
  brand?: string;
  brandAliases?: string[];
  brandDescription?: string;
  idempotencyKey?: string;
  webhook?: { url: string };
}

export interface PromptResearchPayload {
  seed: string;
  country: 'KR' | 'US';
  limit: number;
  exclude: string[];
  monitorSize: number;
  engines: string[];
  brand: string | null;
  brandAliases: string[];
  brandDescription: string | null;
}

/** A monitor runs at most this many prompt-by-engine tasks at a time. */
const MONITOR_MAX_TASKS = 200;

const SEED_RE = /^[\p{L}\p{N}]+( [\p{L}\p{N}]+)*$/u;

export function promptResearchTask(input: PromptResearchInput, ctx: SubmissionContext, accountId: string): NewTask {
  const problems: FieldProblem[] = [];
  const seed = input.seed.trim();
  if (seed.length < 1 || seed.length > 30)
    problems.push({ field: 'seed', message: 'must be 1 to 30 characters after trimming' });
  else if (!SEED_RE.test(seed))
    problems.push({ field: 'seed', message: 'must contain only letters, digits and single spaces' });
  if (input.brand !== undefined && (input.brand.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 2) {
    problems.push({ field: 'brand', message: 'must contain at least two letters or digits' });
  }
  if (input.brandAliases !== undefined && input.brand === undefined)
    problems.push({ field: 'brandAliases', message: 'requires brand' });
  if (input.brandDescription !== undefined && input.brand === undefined)
    problems.push({ field: 'brandDescription', message: 'requires brand' });
  if (problems.length > 0) throw validationError(problems);

  const facts = ENGINE_CATALOG.PROMPT_RESEARCH;
  const country = (input.country ?? facts.defaultCountry).toUpperCase();
  if (country !== 'KR' && country !== 'US') {
    throw new RequestError('REGION_UNSUPPORTED', 'Prompt research serves only KR and US.', {
      taskType: 'PROMPT_RESEARCH',
      country,
      cause: 'market_not_covered',
      retryable: false,
    });
  }
  const engines = [...new Set((input.engines ?? facts.monitors.byDefault).map((e) => canonicalTaskType(e) ?? e))];
  const monitorSize = input.monitorSize ?? 10;
  if (monitorSize * engines.length > MONITOR_MAX_TASKS) {
    throw new RequestError(
      'VALIDATION_ERROR',
      `monitorSize x engines must be at most ${MONITOR_MAX_TASKS} (got ${monitorSize} x ${engines.length}).`,
      [
        {
          field: 'monitorSize',
          message: `times the number of engines (${engines.length}) must be at most ${MONITOR_MAX_TASKS}`,
        },
      ],
      422,
    );
  }
  const payload: PromptResearchPayload = {
    seed,
    country,
    limit: input.limit ?? 20,
    exclude: input.exclude ?? [],
    monitorSize,
    engines,
    brand: input.brand ?? null,
    brandAliases: input.brandAliases ?? [],
    brandDescription: input.brandDescription ?? null,
  };
  checkEngineServes(ctx.config.engines.PROMPT_RESEARCH, 'PROMPT_RESEARCH');
  return buildTask(ctx, 'PROMPT_RESEARCH', payload, {
    accountId,
    country,
    idempotencyKey: input.idempotencyKey,
    webhookUrl: input.webhook?.url,
  });
}
