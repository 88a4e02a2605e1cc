import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../../engines/adapter.js';
import { TtlCache } from '../common/async.js';
import { ANALYSIS_DEFAULTS, type AnalysisConfig } from '../config.js';
import { norm } from '../text/norm.js';
import { filterCandidates } from './candidates.js';
import { topByEvidence } from './clustering.js';
import { Collector, type ProviderRun } from './collector.js';
import { expansionRequests, type ExpansionRequest } from './expansion.js';
import { googleClient, naverClient, type ProviderClient, type ProviderName } from './providers.js';
import { assembleResearch, evidenceWeights, marketLanguage, termFilter, volumeCandidates } from './research.js';
import { searchadCredentials } from './searchad.js';
import { simulatedUpstreams, upstreamBases, upstreamName, type SimulatedSet } from './simulation.js';
import { lookupVolumes, type VolumeLookup } from './volumes.js';
import type { ParsedSuggestions } from './suggest-parsers.js';
import type { PrWarning, PromptResearchInput, ProviderReport } from './types.js';

/**
 * PROMPT_RESEARCH as an engine adapter (docs/analysis.md#s3): expands the seed, reads Google
 * and (for KR) Naver autocomplete through the attempt's transport, and ranks the question-like
 * suggestions by demand. In KR, when the engine's API key holds Naver Search Ad credentials
 * (`customerId:accessLicense:secretKey`), the best clusters get monthly volumes from the keyword
 * tool (`searchadBaseUrl`); otherwise demand is relative to autocomplete evidence. Google Ads is
 * not wired (`not_configured`). Upstreams configured at the sandbox simulator's mounts are named
 * `sandbox_…` and the result says `simulated: true` (simulation.ts).
 */
export interface PromptResearchAdapterOptions {
  config?: Readonly<AnalysisConfig>;
  /** Autocomplete answer cache of this process, keyed by tenant, market and query; null disables it. */
  cache?: TtlCache<ParsedSuggestions> | null;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Narrows the stored payload (PromptResearchPayload of the submission layer). */
function parsePromptResearchPayload(p: unknown): PromptResearchInput {
  if (!isObj(p) || typeof p.seed !== 'string' || (p.country !== 'KR' && p.country !== 'US')) {
    throw new UpstreamFailure('BAD_PAYLOAD', 'PROMPT_RESEARCH payload without seed/country', {
      clientMessage: 'seed and country (KR or US) are required.',
    });
  }
  return {
    seed: norm(p.seed),
    country: p.country,
    limit: typeof p.limit === 'number' ? p.limit : 20,
    exclude: strings(p.exclude),
    monitorSize: typeof p.monitorSize === 'number' ? p.monitorSize : 10,
    engines: strings(p.engines),
    brand: typeof p.brand === 'string' ? p.brand : null,
    brandAliases: strings(p.brandAliases),
    brandDescription: typeof p.brandDescription === 'string' ? p.brandDescription : null,
  };
}

function providerWarnings(
  order: readonly ProviderName[],
  runs: ReadonlyMap<ProviderName, ProviderRun>,
  simulated: SimulatedSet,
): PrWarning[] {
  const out: PrWarning[] = [];
  for (const p of order) {
    const r = runs.get(p);
    const provider = upstreamName(p, simulated);
    if (r?.status === 'rate_limited')
      out.push({
        code: 'PROVIDER_RATE_LIMITED',
        provider,
        message: `${provider} answered 429; it was not asked again in this task.`,
      });
    if (r?.status === 'blocked')
      out.push({
        code: 'PROVIDER_BLOCKED',
        provider,
        message: `${provider} answered with a block page; it was not asked again in this task.`,
      });
    if (r?.status === 'error' || r?.status === 'partial')
      out.push({
        code: 'PROVIDER_ERROR',
        provider,
        message: `${r.failures} of ${r.failures + r.answered} ${provider} requests failed.`,
      });
  }
  return out;
}

export function createPromptResearchAdapter(opts: PromptResearchAdapterOptions = {}): EngineAdapter {
  const config = opts.config ?? ANALYSIS_DEFAULTS;
  const cache = opts.cache === undefined ? new TtlCache<ParsedSuggestions>(config.pr.cacheTtlMs) : opts.cache;
  return {
    taskType: 'PROMPT_RESEARCH',
    needsAccount: false,
    async run(ctx: AttemptContext): Promise<EngineResult> {
      const cfg = config.pr;
      const input = parsePromptResearchPayload(ctx.payload as unknown);
      const lang = marketLanguage(input.country);
      const order: ProviderName[] = input.country === 'KR' ? ['naver', 'google'] : ['google'];
      const bases = upstreamBases(ctx.config.upstream);
      // Simulated or not is configuration: the base URLs the sandbox start-up set (simulation.ts).
      const simulated = simulatedUpstreams(bases);
      const clients: ProviderClient[] = order.map((p) =>
        p === 'naver' ? naverClient(bases.naver) : googleClient(bases.google, input.country, cfg.googleClient),
      );
      const collector = new Collector(clients, {
        http: ctx.http,
        signal: ctx.signal,
        config: cfg,
        cache,
        // Per tenant: a hit must not tell one account that another researched the same seed.
        cacheScope: `${ctx.tenant}\u0000${input.country}\u0000${lang}`,
      });

      const terms = termFilter(input);
      const warnings: PrWarning[] = [];
      // Every suggestion contains the seed, so a seed that is excluded would exclude them all.
      if (terms.hasBrand(input.seed))
        warnings.push({
          code: 'SEED_CONTAINS_BRAND',
          message:
            'The seed contains the brand or an alias; every suggestion would be left out, so no provider was asked.',
        });
      else if (terms.hasExcluded(input.seed))
        warnings.push({
          code: 'SEED_EXCLUDED',
          message: 'The seed contains an exclude term; every suggestion would be left out, so no provider was asked.',
        });
      const skip = warnings.length > 0;

      if (!skip) {
        const firstPass = expansionRequests(input.seed, lang).slice(0, Math.floor(cfg.requests.max / clients.length));
        await collector.pass(1, new Map(order.map((p) => [p, firstPass])));
        await depthTwo(collector, input, order, firstPass, cfg.depth2Prefixes, config);
      }

      const runs = collector.finish();
      const answered = order.filter((p) => (runs.get(p)?.answered ?? 0) > 0);
      const failed = order.map((p) => runs.get(p)).find((r) => r?.status === 'error');
      if (!skip && answered.length === 0 && failed) {
        throw new UpstreamFailure(failed.lastFailure ?? 'UPSTREAM_ERROR', 'no autocomplete provider answered');
      }
      const providers: ProviderReport[] = order.map((p) => {
        const r = runs.get(p);
        return {
          name: upstreamName(p, simulated),
          status: skip ? 'disabled' : (r?.status ?? 'error'),
          requests: r?.requests ?? 0,
          failures: r?.failures ?? 0,
        };
      });
      const results = collector.collected();
      let volumes: VolumeLookup | null = null;
      const searchadName = upstreamName('searchad', simulated);
      let usesSimulator = order.some((p) => simulated[p]);
      if (input.country === 'KR') {
        const credentials = searchadCredentials(ctx.config.upstream.apiKey);
        if (credentials && simulated.searchad) usesSimulator = true;
        const keys =
          skip || !credentials ? [] : volumeCandidates({ input, results, answered, providerOrder: order }, cfg);
        if (credentials && keys.length > 0) {
          volumes = await lookupVolumes(keys, {
            http: ctx.http,
            signal: ctx.signal,
            baseUrl: bases.searchad,
            credentials,
            config: cfg,
            now: Date.now,
          });
          if (volumes.status !== 'ok') {
            warnings.push({
              code: 'VOLUME_LOOKUP_FAILED',
              provider: searchadName,
              message:
                `${volumes.failures} of the keyword-volume requests failed (${volumes.status}); ` +
                `questions without a volume rank on autocomplete evidence.`,
            });
          }
        }
        providers.push({
          name: searchadName,
          status: !credentials ? 'not_configured' : (volumes?.status ?? (skip ? 'disabled' : 'ok')),
          requests: volumes?.requests ?? 0,
          failures: volumes?.failures ?? 0,
        });
      } else providers.push({ name: 'bing_autocomplete', status: 'disabled', requests: 0, failures: 0 });
      providers.push({ name: 'google_ads', status: 'not_configured', requests: 0, failures: 0 });

      const result = assembleResearch(
        {
          input,
          simulated: usesSimulator,
          volumeSource: searchadName,
          volumes: volumes?.volumes ?? null,
          volumeRequests: volumes?.requests ?? 0,
          results,
          providers,
          answered,
          providerOrder: order,
          requestsSent: collector.requestsSent,
          autocompleteRequests: {
            google: runs.get('google')?.requests ?? 0,
            naver: runs.get('naver')?.requests ?? 0,
            bing: 0,
          },
          cacheHits: [...runs.values()].reduce((a, r) => a + r.cacheHits, 0),
          warnings: [...warnings, ...providerWarnings(order, runs, simulated)],
          // Questions are asked about this year, not a past one a suggestion still carries.
          year: new Date().getUTCFullYear(),
        },
        cfg,
      );
      ctx.log.info({ requests: collector.requestsSent, answered }, 'prompt research collected');
      return { text: '', markdown: '', sources: [], raw: null, extra: result };
    },
  };
}

/** Optional depth-2 pass (§3.3): the best first-pass suggestions become prefixes while budget remains. */
async function depthTwo(
  collector: Collector,
  input: PromptResearchInput,
  order: readonly ProviderName[],
  firstPass: readonly ExpansionRequest[],
  n: number,
  config: Readonly<AnalysisConfig>,
): Promise<void> {
  const active = collector.active();
  let budget = collector.budgetLeft;
  if (n <= 0 || active.length === 0 || budget <= 0) return;
  const results = collector.collected();
  const answered = order.filter((p) => results.some((r) => r.provider === p));
  const weights = evidenceWeights(input.country, answered, order, config.pr);
  const cands = filterCandidates(results, { country: input.country, seed: input.seed, terms: termFilter(input) });
  const asked = new Set(firstPass.map((r) => r.query.toLowerCase()));
  const prefixes = topByEvidence([cands.questions, cands.backfill], weights, n).filter(
    (t) => !asked.has(t.toLowerCase()),
  );
  const plan = new Map<ProviderName, ExpansionRequest[]>(active.map((p) => [p, []]));
  // Allocated prefix by prefix in a fixed order, so the plan never depends on answer timing.
  for (const query of prefixes) {
    for (const p of order) {
      if (!active.includes(p) || budget <= 0) continue;
      plan.get(p)?.push({ query, cls: 'depth2' });
      budget--;
    }
  }
  await collector.pass(2, plan);
}
