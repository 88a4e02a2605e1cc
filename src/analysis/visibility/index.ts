/** Visibility metrics of monitors (§6): brand mentions, per-answer facts and the figures of a group of answers. */
export {
  type AnswerCitation,
  type AnswerFacts,
  answerFacts,
  type BrandInAnswer,
  type FirstMention,
  factsFor,
  savedMentions,
  type TrackedBrand,
  type TrackedBrands,
  trackBrands,
} from './answer-facts.js';
export { type Mention, mentionFinder, mentions } from './brand-mentions.js';
export { hostWithin, ownDomainHost } from './cited-domains.js';
export { KOREAN_PARTICLES } from './korean-particles.js';
export {
  aggregateFacts,
  type BrandMetrics,
  DEFAULT_TOP_DOMAINS,
  type DomainCount,
  type VisibilityCounts,
  type VisibilityMetrics,
  type VisibilityOptions,
  VISIBILITY_METHOD_VERSION,
  visibilityMetrics,
} from './run-metrics.js';
export type { Answer, CompetitorBrand, MonitoredBrand, RunAnswer } from './types.js';
