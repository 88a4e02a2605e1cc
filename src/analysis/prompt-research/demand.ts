import type { PrefixClass } from './expansion.js';
import type { ProviderName } from './providers.js';

/**
 * Autocomplete evidence and relative demand (§3.7). Query auto-completion ranks completions chiefly
 * by past popularity (Cai & de Rijke 2016), so rank within a list and appearing for a shorter
 * prefix are popularity evidence — without absolute volumes.
 */
export interface Appearance {
  provider: ProviderName;
  requestId: string;
  cls: PrefixClass;
  /** 1-based rank in the provider's list. */
  rank: number;
  /** Google chrome relevance ÷ the list's maximum, when given. */
  relevanceShare: number | null;
}

export interface Evidence {
  autocompleteScore: number;
  appearances: number;
  providers: ProviderName[];
  bestRank: number;
  seenForSeed: boolean;
}

/** g(k) = 1/log2(1 + k): k = 1 → 1, k = 10 → 0.29. */
export function rankGain(k: number): number {
  return 1 / Math.log2(1 + k);
}

/**
 * E = Σ W_p · W_r · g(k) over the appearances of a cluster's members; within one request only the
 * best-ranked member counts.
 */
export function evidenceOf(
  apps: readonly Appearance[],
  providerWeight: ReadonlyMap<ProviderName, number>,
  prefixWeight: Readonly<Record<PrefixClass, number>>,
  providerOrder: readonly ProviderName[],
): Evidence {
  const bestPerRequest = new Map<string, Appearance>();
  for (const a of apps) {
    const cur = bestPerRequest.get(a.requestId);
    if (!cur || a.rank < cur.rank) bestPerRequest.set(a.requestId, a);
  }
  let e = 0;
  let bestRank = Number.MAX_SAFE_INTEGER;
  const providers = new Set<ProviderName>();
  let seenForSeed = false;
  for (const a of [...bestPerRequest.values()].sort((x, y) =>
    x.requestId < y.requestId ? -1 : x.requestId > y.requestId ? 1 : 0,
  )) {
    const g = a.relevanceShare ?? rankGain(a.rank);
    e += (providerWeight.get(a.provider) ?? 0) * prefixWeight[a.cls] * g;
    bestRank = Math.min(bestRank, a.rank);
    providers.add(a.provider);
    if (a.cls === 'seed') seenForSeed = true;
  }
  return {
    autocompleteScore: e,
    appearances: bestPerRequest.size,
    providers: providerOrder.filter((p) => providers.has(p)),
    bestRank: bestRank === Number.MAX_SAFE_INTEGER ? 0 : bestRank,
    seenForSeed,
  };
}

/** Autocomplete basis: score = round(100 · ln(1+E) / ln(1+E_max)); tiers at 80/60/40/20. */
export function relativeDemand(e: number, eMax: number): { score: number; tier: number } {
  const score = eMax > 0 ? Math.round((100 * Math.log(1 + e)) / Math.log(1 + eMax)) : 0;
  const tier = score >= 80 ? 5 : score >= 60 ? 4 : score >= 40 ? 3 : score >= 20 ? 2 : 1;
  return { score, tier };
}

/** Absolute tier of §3.7: < 10 → 1, 10–99 → 2, 100–999 → 3, 1,000–9,999 → 4, ≥ 10,000 → 5. */
export function volumeTier(v: number): number {
  return v < 10 ? 1 : v < 100 ? 2 : v < 1_000 ? 3 : v < 10_000 ? 4 : 5;
}

/** Volume basis: score = round(100 · log10(1+V) / log10(1+V_max)). */
export function volumeScore(v: number, vMax: number): number {
  return vMax > 0 ? Math.round((100 * Math.log10(1 + v)) / Math.log10(1 + vMax)) : 0;
}

export interface Imputation {
  a: number;
  b: number;
  r2: number;
  points: number;
}

/**
 * OLS fit of log10(V) = a + b·ln(1 + E) over clusters with an actual V ≥ 10 (§3.7). Returned only
 * when there are at least `minPoints` of them, the slope is positive and R² ≥ `minR2`; otherwise
 * no cluster gets an estimate.
 */
export function fitImputation(
  points: ReadonlyArray<{ e: number; v: number }>,
  minPoints: number,
  minR2: number,
): Imputation | null {
  const usable = points.filter((p) => p.v >= 10);
  if (usable.length < minPoints) return null;
  const xs = usable.map((p) => Math.log(1 + p.e));
  const ys = usable.map((p) => Math.log10(p.v));
  const n = usable.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return null;
  const b = sxy / sxx;
  const a = my - b * mx;
  const r2 = syy === 0 ? 0 : (sxy * sxy) / (sxx * syy);
  if (!(b > 0) || r2 < minR2) return null;
  return { a, b, r2, points: n };
}

export function imputedVolume(fit: Imputation, e: number): number {
  return 10 ** (fit.a + fit.b * Math.log(1 + e));
}
