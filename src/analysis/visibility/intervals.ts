import { round4 } from '../text/norm.js';

/**
 * 95% intervals of a monitor's figures (docs/analysis.md §6.6). The unit that is sampled independently is the
 * prompt: the answers to one prompt (its samples, in one run, engine and country) share the prompt's topic and
 * tend to name the same brands and cite the same pages, so they are a cluster, never independent draws.
 *
 * - A proportion of answers or of citations (mention rate, citation shares): the Wilson score interval on the
 *   effective sample size, the count divided by the design effect that the clustering by prompt measures. With one
 *   answer per prompt the mention rate's design effect is exactly 1, and the interval is plain Wilson.
 * - A ratio of two sums over answers (share of voice, average position): a percentile bootstrap that resamples
 *   prompts, not answers, with a fixed seed so a stored figure can be recomputed to the digit.
 */

/** A two-sided interval at the level of `INTERVAL_LEVEL`, bounds with 4 decimals. */
export interface Interval {
  low: number;
  high: number;
}

export const INTERVAL_LEVEL = 0.95;
/** The standard normal quantile for a two-sided 95% interval. */
const Z95 = 1.959963984540054;
/** Bootstrap resamples: the percentile bounds move by under 0.01 between seeds at this size. */
const BOOTSTRAP_RESAMPLES = 2000;
/** A fixed seed: the same answers give the same stored interval, in every process. */
const BOOTSTRAP_SEED = 0x5eed_2026;

/** One prompt's part of a proportion: `hits` of `trials` (answers mentioning a brand of its answers, say). */
export interface ClusterCount {
  hits: number;
  trials: number;
}

/** One prompt's part of a ratio of sums over its answers: Σ numerator / Σ denominator. */
export interface ClusterRatio {
  num: number;
  den: number;
}

/** The Wilson score interval for `hits` of `n` trials; `n` may be an effective (fractional) size. Null when n = 0. */
export function wilsonInterval(hits: number, n: number, z = Z95): Interval | null {
  if (!(n > 0)) return null;
  const p = Math.min(1, Math.max(0, hits / n));
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: round4(Math.max(0, centre - half)), high: round4(Math.min(1, centre + half)) };
}

/**
 * The design effect of a proportion over clusters: the variance of the pooled proportion when clusters are the
 * independent unit (the linearised, cluster-robust estimate), over its variance if every trial were independent.
 * It is kept between 1 (no clustering) and the mean cluster size (every cluster one observation), so the effective
 * size stays between the number of clusters and the number of trials.
 */
export function designEffect(clusters: readonly ClusterCount[]): number {
  const used = clusters.filter((c) => c.trials > 0);
  const k = used.length;
  const n = used.reduce((s, c) => s + c.trials, 0);
  if (k === 0 || k === n) return 1;
  const meanSize = n / k;
  if (k === 1) return meanSize;
  const p = used.reduce((s, c) => s + c.hits, 0) / n;
  const independent = (p * (1 - p)) / n;
  if (independent === 0) return 1;
  const clustered = ((k / (k - 1)) * used.reduce((s, c) => s + (c.hits - p * c.trials) ** 2, 0)) / (n * n);
  return Math.min(meanSize, Math.max(1, clustered / independent));
}

/** A proportion over clusters and its interval: Wilson on the trials divided by the design effect. */
export function clusteredProportion(clusters: readonly ClusterCount[]): {
  interval: Interval | null;
  effectiveN: number;
} {
  const n = clusters.reduce((s, c) => s + c.trials, 0);
  const hits = clusters.reduce((s, c) => s + c.hits, 0);
  if (n === 0) return { interval: null, effectiveN: 0 };
  const effectiveN = n / designEffect(clusters);
  return { interval: wilsonInterval((hits / n) * effectiveN, effectiveN), effectiveN: round4(effectiveN) };
}

/**
 * A percentile bootstrap interval of Σnum / Σden, resampling clusters with replacement. Null with fewer than two
 * clusters that have a denominator: one prompt says nothing about how another would answer. A resample whose
 * denominator is 0 (none of the drawn prompts' answers names a brand) has no ratio and is left out.
 */
export function bootstrapRatio(clusters: readonly ClusterRatio[], seed = BOOTSTRAP_SEED): Interval | null {
  if (clusters.filter((c) => c.den > 0).length < 2) return null;
  const k = clusters.length;
  const next = mulberry32(seed);
  const ratios: number[] = [];
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    let num = 0;
    let den = 0;
    for (let i = 0; i < k; i++) {
      const c = clusters[Math.floor(next() * k)] as ClusterRatio;
      num += c.num;
      den += c.den;
    }
    if (den > 0) ratios.push(num / den);
  }
  ratios.sort((a, b) => a - b);
  return { low: round4(quantile(ratios, 0.025)), high: round4(quantile(ratios, 0.975)) };
}

/** The q-quantile of sorted values, linear between order statistics (Hyndman and Fan's type 7, R's default). */
function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

/** A small, fast, seedable generator of floats in [0, 1) (Tommy Ettinger's Mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
