import { analysisConfig } from '../../src/analysis/config.js';

/**
 * The threshold judge (τ_full, τ_part and the contradiction rule deciding `contradicted`): the previous release's
 * judge and the fallback for a language without a learned model. The hand-written cases of these tests pin its rules
 * one by one; the learned judge, which reads the same measurements, is measured on real labelled sets instead
 * (judge-learned.test.ts, docs/analysis.md#the-learned-judge).
 */
export const THRESHOLD_JUDGE = analysisConfig({ si: { judge: { method: 'thresholds' } } }).si;
