import { Agent } from 'undici';
import { UndiciTransport } from '../../transport/undici-transport.js';
import { mapLimit } from '../common/async.js';
import { ANALYSIS_DEFAULTS } from '../config.js';
import { ModelSession } from '../model/session.js';
import type { SupportLabel } from '../source-influence/judge/labels.js';
import { judgeBatch } from '../source-influence/model-check.js';

/**
 * The model judge on labelled (claim, evidence) pairs, for `npm run eval:analysis -- --model-url URL --model NAME`:
 * what the service would send for them (model-check.ts: the same instructions, schema, batches of `pairsPerCall`,
 * one repair retry, temperature 0), so a deployment measures the model it configured on the same sets as the
 * lexical judge. No question is sent (the sets have none). Each batch has a session of its own: one slow batch
 * times out alone instead of ending the run, as it would end a task's model work. A pair's `tokens` is its share
 * of its call's tokens (provider usage, or the estimate of §2.14 without it); a pair the call failed for, or the
 * model left out, has `error` instead, with its share of what the call still cost (an answer that was not valid JSON
 * was generated all the same), so a run's token count is what the endpoint spent.
 */
export interface ModelEvalPair {
  id: string;
  claim: string;
  evidence: string;
  language: 'en' | 'ko';
}

export interface ModelEvalOptions {
  /** An OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 (llama.cpp). */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token when given (local servers usually need none). */
  apiKey?: string;
  /** Per call; the service's `si.model.timeoutMs` by default. */
  timeoutMs?: number;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

export type ModelEvalOutcome = { label: SupportLabel; tokens: number } | { error: string; tokens: number };

export async function judgePairsWithModel(
  pairs: ModelEvalPair[],
  opts: ModelEvalOptions,
): Promise<Map<string, ModelEvalOutcome>> {
  const size = ANALYSIS_DEFAULTS.si.modelCheck.pairsPerCall;
  const batches: ModelEvalPair[][] = [];
  for (let i = 0; i < pairs.length; i += size) batches.push(pairs.slice(i, i + size));
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const dispatcher = new Agent({ connections: concurrency });
  // The endpoint is the operator's own choice (often a server on loopback): no private-address guard.
  const http = new UndiciTransport('model-eval', dispatcher, false);
  const out = new Map<string, ModelEvalOutcome>();
  let done = 0;
  try {
    await mapLimit(batches, concurrency, async (batch) => {
      const session = new ModelSession({
        http,
        signal: new AbortController().signal,
        endpoint: { baseUrl: opts.baseUrl, model: opts.model, apiKey: opts.apiKey ?? '', headers: {} },
        timeoutMs: opts.timeoutMs ?? ANALYSIS_DEFAULTS.si.model.timeoutMs,
        tokenLimit: Number.POSITIVE_INFINITY,
        maxOutputTokens: ANALYSIS_DEFAULTS.si.model.maxOutputTokens,
      });
      // Ids local to the call: the sets' own ids may be longer than the schema allows.
      const r = await judgeBatch(
        session,
        null,
        batch.map((p, k) => ({ id: `p${k + 1}`, claim: p.claim, passage: p.evidence })),
      );
      const shares = splitEvenly(session.meter.tokensUsed, batch.length);
      batch.forEach((p, k) => {
        const label = r.ok ? r.labels.get(`p${k + 1}`) : undefined;
        const tokens = shares[k] ?? 0;
        out.set(
          p.id,
          label !== undefined
            ? { label, tokens }
            : { error: r.ok ? 'the model returned no judgement for this pair' : `${r.status}: ${r.message}`, tokens },
        );
      });
      done += batch.length;
      opts.onProgress?.(done, pairs.length);
    });
  } finally {
    await dispatcher.close();
  }
  return out;
}

/** `total` in `n` whole parts that differ by at most one and sum to `total`. */
function splitEvenly(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  const rest = total - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < rest ? 1 : 0));
}
