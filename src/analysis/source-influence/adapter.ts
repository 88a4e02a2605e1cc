import { Agent } from 'undici';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../../engines/adapter.js';
import { TtlCache } from '../common/async.js';
import { ANALYSIS_DEFAULTS, type AnalysisConfig } from '../config.js';
import { norm, detectLanguage } from '../text/norm.js';
import type { EngineConfig } from '../../config/engine-config.js';
import type { HttpTransport } from '../../transport/http-transport.js';
import { UndiciTransport } from '../../transport/undici-transport.js';
import type { ModelEndpoint } from '../model/chat-client.js';
import { ModelSession } from '../model/session.js';
import { analyzeSourceInfluence } from './analyze.js';
import { tokenLimit } from './metering.js';
import { prepareTargets, restoreCore } from './core.js';
import { fetchAll } from './fetch.js';
import { JudgementCache } from './judgement-cache.js';
import type { CitationIn, Entity, FetchRecord, CitedPage, SourceInfluenceInput } from './types.js';
// The steps this adapter runs in the parse pool are added to the pool's table by this module.
import './parse-tasks.js';

/**
 * SOURCE_INFLUENCE as an engine adapter: reads the cited pages through the attempt's transport,
 * then runs the analysis of docs/analysis.md#s2 — lexical, plus the interpretation model when
 * one is configured (`modelBaseUrl`, `model` and the engine's API key; `modelJudge`, or the older
 * `modelCheck`, turns on the §2.10 judge). A source that cannot be read never fails the task; it is reported in
 * `sources[].fetch` and `warnings`. The charge is metered (§2.14) and returned as `credits`.
 *
 * The model endpoint is the operator's configuration, not a URL a client chose, so it is reached directly and
 * without the private-address guard of the page reads: a local llama.cpp, vLLM or Ollama server on loopback or on
 * the private network works, and the model key never passes through an exit address's proxy.
 */
export interface SourceInfluenceAdapterOptions {
  config?: Readonly<AnalysisConfig>;
  /** Page cache of this process, keyed by tenant and URL (fetch.ts); null disables caching. */
  cache?: TtlCache<CitedPage> | null;
  /** The model judge's answers kept across tasks (judgement-cache.ts); null disables it. */
  judgements?: JudgementCache | null;
  /** How model calls reach the endpoint; a direct, unguarded transport of this adapter by default. */
  modelHttp?: HttpTransport;
  now?: () => number;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Narrows the stored payload (SourceInfluencePayload of the submission layer). */
function parseSourceInfluencePayload(p: unknown): SourceInfluenceInput {
  if (!isObj(p) || typeof p.answer !== 'string' || !Array.isArray(p.citations)) {
    throw new UpstreamFailure('BAD_PAYLOAD', 'SOURCE_INFLUENCE payload without answer/citations', {
      clientMessage: 'answer and citations are required.',
    });
  }
  const citations: CitationIn[] = p.citations.map((c) => {
    const o = typeof c === 'string' ? { url: c } : isObj(c) ? c : {};
    const out: CitationIn = { url: typeof o.url === 'string' ? o.url : '' };
    if (typeof o.title === 'string') out.title = o.title;
    if (typeof o.snippet === 'string') out.snippet = o.snippet;
    if (typeof o.position === 'number') out.position = o.position;
    if (typeof o.label === 'string') out.label = o.label;
    return out;
  });
  const a = p.analysis;
  let analysis: SourceInfluenceInput['analysis'] = null;
  if (isObj(a) && a.version === 1) {
    const entities: Entity[] = (Array.isArray(a.entities) ? a.entities : []).filter(isObj).map((e, i) => ({
      id: typeof e.id === 'string' ? e.id : `e${i + 1}`,
      name: typeof e.name === 'string' ? e.name : '',
      role: typeof e.role === 'string' ? e.role : 'brand',
    }));
    analysis = { version: 1, entities };
  }
  return { answer: p.answer, prompt: typeof p.prompt === 'string' ? p.prompt : null, citations, analysis };
}

/** The configured model endpoint, or null: a model needs a base URL, a model id and the engine's API key. */
function modelEndpoint(config: EngineConfig): ModelEndpoint | null {
  const { options, apiKey, headers } = config.upstream;
  const baseUrl = typeof options.modelBaseUrl === 'string' ? options.modelBaseUrl.trim() : '';
  const model = typeof options.model === 'string' ? options.model.trim() : '';
  if (!baseUrl || !model || !apiKey) return null;
  return { baseUrl, model, apiKey, headers };
}

/**
 * Which pairs the model judges: the engine option `modelJudge` ("off", "ambiguous" or "all"); the older
 * `modelCheck: true` means "ambiguous".
 */
export function modelJudgeMode(config: EngineConfig): 'off' | 'ambiguous' | 'all' {
  const o = config.upstream.options;
  if (o.modelJudge === 'all' || o.modelJudge === 'ambiguous' || o.modelJudge === 'off') return o.modelJudge;
  return o.modelCheck === true ? 'ambiguous' : 'off';
}

export function createSourceInfluenceAdapter(opts: SourceInfluenceAdapterOptions = {}): EngineAdapter {
  const config = opts.config ?? ANALYSIS_DEFAULTS;
  const now = opts.now ?? Date.now;
  const cache = opts.cache === undefined ? new TtlCache<CitedPage>(config.si.fetch.cacheTtlMs, 2_000, now) : opts.cache;
  const judgements =
    opts.judgements === undefined ? new JudgementCache(config.si.modelCheck.cacheEntries) : opts.judgements;
  let modelHttp = opts.modelHttp ?? null;
  const directModelHttp = (): HttpTransport => {
    modelHttp ??= new UndiciTransport('model-endpoint', new Agent({ connections: 16 }), false);
    return modelHttp;
  };
  return {
    taskType: 'SOURCE_INFLUENCE',
    needsAccount: false,
    async run(ctx: AttemptContext): Promise<EngineResult> {
      const input = parseSourceInfluencePayload(ctx.payload as unknown);
      const targets = prepareTargets(input);
      const toFetch = targets
        .map((t, i) => ({ i, url: t.normalizedUrl }))
        .filter(({ i }) => targets[i]?.canonical === i);
      const lang = detectLanguage(norm(input.answer));
      const fetched = await fetchAll(
        toFetch.map((f) => f.url),
        lang,
        { http: ctx.http, signal: ctx.signal, parse: ctx.parse, config: config.si, cache, tenant: ctx.tenant, now },
      );
      const records: Array<FetchRecord | null> = input.citations.map(() => null);
      toFetch.forEach((f, k) => {
        records[f.i] = fetched[k] ?? null;
      });
      const endpoint = modelEndpoint(ctx.config);
      const session = endpoint
        ? new ModelSession({
            http: directModelHttp(),
            signal: ctx.signal,
            endpoint,
            timeoutMs: config.si.model.timeoutMs,
            tokenLimit: tokenLimit(input, config.si),
            maxOutputTokens: config.si.model.maxOutputTokens,
          })
        : null;
      // The analysis runs in the parse pool, off the event loop that serves every other request: all
      // of it without a model; with one, its lexical core (segmentation and alignment of the answer),
      // since the model's calls go out from the main thread.
      const simulated = ctx.config.simulated === true;
      const { result, credits, modelJudged } = session
        ? await analyzeSourceInfluence(input, records, config.si, {
            session,
            modelJudge: modelJudgeMode(ctx.config),
            judgementMemo: endpoint && judgements ? judgements.scoped(ctx.tenant, endpoint) : null,
            simulated,
            signal: ctx.signal,
            core: restoreCore(await ctx.parse('sourceInfluence.core', { input, records, cfg: config.si }), config.si),
          })
        : await ctx.parse('sourceInfluence.analyze', { input, records, cfg: config.si, simulated });
      ctx.log.info(
        {
          sources: toFetch.length,
          fetched: fetched.filter((r) => r.page.status === 'ok').length,
          fetchMs: fetched.map((r) => r.durationMs),
          extended: input.analysis !== null,
          model: endpoint?.model ?? null,
          tokens: session?.meter.tokensUsed ?? 0,
          modelJudged: modelJudged.judged,
          modelJudgedFromCache: modelJudged.cached,
          credits: credits.charged,
        },
        'source influence analysed',
      );
      return { text: '', markdown: '', sources: [], raw: null, extra: result, credits: credits.charged };
    },
  };
}
