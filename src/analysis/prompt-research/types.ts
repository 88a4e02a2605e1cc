/** Inputs of PROMPT_RESEARCH (the task payload of the submission layer) and the §3.13 enums. */
import type { PromptResearchPayload } from '../../submission/analysis-requests.js';

export const PR_METHOD_VERSION = 'prompt-research/1.2.0';

/** The task payload the submission layer stores (one definition for both layers). */
export type PromptResearchInput = PromptResearchPayload;

export type ProviderStatus = 'ok' | 'partial' | 'rate_limited' | 'blocked' | 'error' | 'disabled' | 'not_configured';

type WarningCode =
  | 'FEWER_THAN_LIMIT'
  | 'MONITOR_SET_SMALLER'
  | 'SEED_CONTAINS_BRAND'
  | 'SEED_EXCLUDED'
  | 'PROVIDER_RATE_LIMITED'
  | 'PROVIDER_BLOCKED'
  | 'PROVIDER_ERROR'
  | 'NO_SUGGESTIONS'
  | 'VOLUME_LOOKUP_FAILED'
  | 'NO_FIT_BASIS';

export interface PrWarning {
  code: WarningCode;
  message: string;
  provider?: string;
}

export interface ProviderReport {
  name: string;
  status: ProviderStatus;
  requests: number;
  failures: number;
}
