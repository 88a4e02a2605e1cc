/** Visibility metrics of monitors (§6): brand mentions, per-answer facts and the figures of a group of answers. */
export {
  answerFacts,
  factsFor,
  savedMentions,
  trackBrands,
} from './answer-facts.js';
export { mentions } from './brand-mentions.js';
export { discoverNames, namesByAnswer, type PromptAnswer } from './discovered-names.js';
export { hostWithin, ownDomainHost } from './cited-domains.js';
export {
  aggregateFacts,
  VISIBILITY_METHOD_VERSION,
  visibilityMetrics,
} from './run-metrics.js';
export type { PromptFacts } from './run-intervals.js';
export type { CompetitorBrand, MonitoredBrand, RunAnswer } from './types.js';
