import { createHash } from 'node:crypto';
import { TtlCache } from '../common/async.js';
import type { ModelEndpoint } from '../model/chat-client.js';
import type { SupportLabel } from './judge/labels.js';

/**
 * The model judge's answers kept across tasks in this process (§2.10): a (claim, evidence passage) pair that the
 * same model at the same endpoint already judged for the same tenant is not sent again, so it costs no call and no
 * token. The key is a SHA-256 of those five parts: the tenant because state kept across tasks must never show one
 * tenant another's use (a free, instant judgement would tell that someone sent this claim before), the endpoint and
 * the model because another model, or the same id on another server, may judge differently. Judgements do not
 * expire (the model is asked at temperature 0); the cache is bounded, least recently used out first.
 */
export interface JudgementMemo {
  get(claim: string, evidence: string): SupportLabel | undefined;
  set(claim: string, evidence: string, label: SupportLabel): void;
}

export class JudgementCache {
  private readonly entries: TtlCache<SupportLabel>;

  /** `maxEntries` 0 disables the cache. */
  constructor(maxEntries: number) {
    this.entries = new TtlCache<SupportLabel>(Number.POSITIVE_INFINITY, maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cache as one task sees it: its tenant's judgements by this endpoint and model. */
  scoped(tenant: string, endpoint: Pick<ModelEndpoint, 'baseUrl' | 'model'>): JudgementMemo {
    const key = (claim: string, evidence: string) =>
      createHash('sha256')
        .update(JSON.stringify([tenant, endpoint.baseUrl, endpoint.model, claim, evidence]))
        .digest('hex');
    return {
      get: (claim, evidence) => this.entries.get(key(claim, evidence)),
      set: (claim, evidence, label) => this.entries.set(key(claim, evidence), label),
    };
  }
}
