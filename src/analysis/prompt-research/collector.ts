import type { UpstreamFailureKind } from '../../domain/engine-errors.js';
import type { HttpResponse, HttpTransport } from '../../transport/http-transport.js';
import { sleep, type TtlCache } from '../common/async.js';
import type { PromptResearchConfig } from '../config.js';
import type { ExpansionRequest } from './expansion.js';
import type { ProviderClient, ProviderName, ProviderOutcome } from './providers.js';
import type { ParsedSuggestions, Suggestion } from './suggest-parsers.js';

/**
 * Calls the autocomplete providers within the request budget (§3.3): per provider two requests in
 * flight, a pause of `delayMs` plus a jitter after each network request, a 5 s timeout and one
 * retry on 5xx/timeout; a 429 or block stops that provider for the task while the others go on.
 * Answers are cached per (tenant, provider, country, language, query); cache hits are not metered.
 */
export interface RequestResult {
  provider: ProviderName;
  /** Unique per provider and pass: `google:1:12`. */
  requestId: string;
  request: ExpansionRequest;
  suggestions: Suggestion[];
  /** Sort key: pass, then plan index. */
  order: [number, number];
}

export interface ProviderRun {
  status: 'ok' | 'partial' | 'rate_limited' | 'blocked' | 'error';
  /** Network requests sent, retries included. */
  requests: number;
  /** Logical requests that ended without an answer. */
  failures: number;
  answered: number;
  cacheHits: number;
  lastFailure: UpstreamFailureKind | null;
}

export interface CollectorDeps {
  http: HttpTransport;
  signal: AbortSignal;
  config: PromptResearchConfig;
  cache: TtlCache<ParsedSuggestions> | null;
  cacheScope: string;
}

/** Deterministic jitter in [0, max] from the query text (FNV-1a), so runs are reproducible. */
function jitter(query: string, max: number): number {
  if (max <= 0) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < query.length; i++) h = Math.imul(h ^ query.charCodeAt(i), 0x01000193) >>> 0;
  return h % (max + 1);
}

export class Collector {
  readonly runs = new Map<ProviderName, ProviderRun & { stopped: boolean }>();
  private readonly results: RequestResult[] = [];
  private sent = 0;

  constructor(
    private readonly clients: readonly ProviderClient[],
    private readonly deps: CollectorDeps,
  ) {
    for (const c of clients)
      this.runs.set(c.name, {
        status: 'ok',
        requests: 0,
        failures: 0,
        answered: 0,
        cacheHits: 0,
        lastFailure: null,
        stopped: false,
      });
  }

  get requestsSent(): number {
    return this.sent;
  }

  get budgetLeft(): number {
    return Math.max(0, this.deps.config.requests.max - this.sent);
  }

  /** Providers that are still allowed to answer (not stopped by a 429 or block). */
  active(): ProviderName[] {
    return this.clients.filter((c) => !this.runs.get(c.name)?.stopped).map((c) => c.name);
  }

  /** Runs one pass: every provider works through its own list concurrently with the others. */
  async pass(pass: number, plan: ReadonlyMap<ProviderName, readonly ExpansionRequest[]>): Promise<void> {
    await Promise.all(this.clients.map((c) => this.providerPass(c, pass, plan.get(c.name) ?? [])));
  }

  /** Results in plan order (independent of which answer came back first). */
  collected(): RequestResult[] {
    const rank = new Map(this.clients.map((c, i) => [c.name, i]));
    return [...this.results].sort(
      (a, b) =>
        a.order[0] - b.order[0] || (rank.get(a.provider) ?? 0) - (rank.get(b.provider) ?? 0) || a.order[1] - b.order[1],
    );
  }

  private async providerPass(
    client: ProviderClient,
    pass: number,
    requests: readonly ExpansionRequest[],
  ): Promise<void> {
    const run = this.runs.get(client.name);
    if (!run) return;
    let next = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        const req = requests[i];
        if (!req || run.stopped) return;
        const networked = await this.one(client, run, req, pass, i);
        if (networked)
          await sleep(
            this.deps.config.requests.delayMs + jitter(req.query, this.deps.config.requests.jitterMs),
            this.deps.signal,
          );
      }
    };
    const n = Math.max(1, Math.min(this.deps.config.requests.perProviderConcurrency, requests.length));
    await Promise.all(Array.from({ length: n }, worker));
  }

  /** One logical request (with its single retry). Returns whether the network was used. */
  private async one(
    client: ProviderClient,
    run: ProviderRun & { stopped: boolean },
    req: ExpansionRequest,
    pass: number,
    index: number,
  ): Promise<boolean> {
    const key = `${client.name}\u0000${this.deps.cacheScope}\u0000${req.query}`;
    const cached = this.deps.cache?.get(key);
    if (cached) {
      run.cacheHits++;
      run.answered++;
      this.results.push({
        provider: client.name,
        requestId: `${client.name}:${pass}:${index}`,
        request: req,
        suggestions: cached.suggestions,
        order: [pass, index],
      });
      return false;
    }
    if (this.budgetLeft <= 0 || run.stopped) return false; // skipped, not failed
    let outcome: ProviderOutcome = { kind: 'retryable', detail: 'not sent' };
    for (let attempt = 1; attempt <= 2 && !run.stopped; attempt++) {
      if (attempt > 1 && this.budgetLeft <= 0) break;
      this.sent++;
      run.requests++;
      outcome = await this.send(client, req.query);
      if (outcome.kind !== 'retryable') break;
    }
    switch (outcome.kind) {
      case 'ok':
        run.answered++;
        this.deps.cache?.set(key, outcome.parsed);
        this.results.push({
          provider: client.name,
          requestId: `${client.name}:${pass}:${index}`,
          request: req,
          suggestions: outcome.parsed.suggestions,
          order: [pass, index],
        });
        break;
      case 'rate_limited':
      case 'blocked':
        run.failures++;
        run.stopped = true;
        run.status = outcome.kind;
        run.lastFailure = outcome.kind === 'blocked' ? 'UPSTREAM_BLOCKED' : 'RATE_LIMITED';
        break;
      case 'retryable':
        run.failures++;
        run.lastFailure = 'UPSTREAM_ERROR';
        break;
      case 'failed':
        run.failures++;
        run.lastFailure = outcome.failure.kind;
        break;
    }
    return true;
  }

  private async send(client: ProviderClient, query: string): Promise<ProviderOutcome> {
    const timeout = AbortSignal.timeout(this.deps.config.requests.timeoutMs);
    let res: HttpResponse;
    try {
      res = await this.deps.http.request({
        ...client.request(query),
        signal: AbortSignal.any([this.deps.signal, timeout]),
      });
    } catch (e) {
      if (this.deps.signal.aborted) throw e; // the attempt itself is ending
      return { kind: 'retryable', detail: timeout.aborted ? 'timeout' : 'network error' };
    }
    return client.classify(res, query);
  }

  /** Final provider statuses (stopped ones keep `rate_limited` / `blocked`). */
  finish(): Map<ProviderName, ProviderRun> {
    const out = new Map<ProviderName, ProviderRun>();
    for (const [name, r] of this.runs) {
      let status = r.status;
      if (!r.stopped) status = r.failures === 0 ? 'ok' : r.answered === 0 ? 'error' : 'partial';
      out.set(name, {
        status,
        requests: r.requests,
        failures: r.failures,
        answered: r.answered,
        cacheHits: r.cacheHits,
        lastFailure: r.lastFailure,
      });
    }
    return out;
  }
}
