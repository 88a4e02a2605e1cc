import type { HttpResponse, HttpTransport } from '../../transport/http-transport.js';
import { sleep } from '../common/async.js';
import type { PromptResearchConfig } from '../config.js';
import type { ProviderStatus } from './types.js';
import {
  classifyKeywordTool,
  hintKeyword,
  keywordToolRequest,
  type KeywordVolume,
  type SearchadCredentials,
  type SearchadOutcome,
} from './searchad.js';

/**
 * Keyword volumes for the best clusters (§3.4): after de-duplication, the representatives of the
 * top `pool` clusters by evidence are sent 5 per request, one request at a time with the
 * autocomplete spacing, one retry on 5xx or timeout. A 429 or an authentication failure stops the
 * lookups of the task; whatever was read is kept, and the rest ranks on autocomplete evidence.
 */
export interface VolumeLookup {
  volumes: Map<string, KeywordVolume>;
  status: ProviderStatus;
  requests: number;
  failures: number;
}

export interface VolumeDeps {
  http: HttpTransport;
  signal: AbortSignal;
  baseUrl: string;
  credentials: SearchadCredentials;
  config: PromptResearchConfig;
  now: () => number;
}

export async function lookupVolumes(texts: readonly string[], deps: VolumeDeps): Promise<VolumeLookup> {
  const cfg = deps.config;
  const keys = [...new Set(texts.map(hintKeyword).filter((k) => k !== ''))];
  const out: VolumeLookup = { volumes: new Map(), status: 'ok', requests: 0, failures: 0 };
  let answered = 0;
  for (let i = 0; i < keys.length && out.requests < cfg.searchad.maxRequests; i += cfg.searchad.keysPerRequest) {
    if (i > 0) await sleep(cfg.requests.delayMs, deps.signal);
    const batch = keys.slice(i, i + cfg.searchad.keysPerRequest);
    let outcome: SearchadOutcome = { kind: 'retryable', detail: 'not sent' };
    for (let attempt = 1; attempt <= 2 && out.requests < cfg.searchad.maxRequests; attempt++) {
      out.requests++;
      outcome = await send(batch, deps);
      if (outcome.kind !== 'retryable') break;
    }
    if (outcome.kind === 'ok') {
      answered++;
      for (const [k, v] of outcome.volumes) if (!out.volumes.has(k)) out.volumes.set(k, v);
      continue;
    }
    out.failures++;
    if (outcome.kind === 'rate_limited') return { ...out, status: 'rate_limited' };
    if (outcome.kind === 'auth_failed') return { ...out, status: 'error' };
  }
  if (out.failures > 0) out.status = answered === 0 ? 'error' : 'partial';
  return out;
}

async function send(keywords: readonly string[], deps: VolumeDeps): Promise<SearchadOutcome> {
  const timeout = AbortSignal.timeout(deps.config.requests.timeoutMs);
  let res: HttpResponse;
  try {
    const req = keywordToolRequest(deps.baseUrl, keywords, deps.credentials, String(deps.now()));
    res = await deps.http.request({ ...req, signal: AbortSignal.any([deps.signal, timeout]) });
  } catch (e) {
    if (deps.signal.aborted) throw e;
    return { kind: 'retryable', detail: timeout.aborted ? 'timeout' : 'network error' };
  }
  return classifyKeywordTool(res);
}
