import type { SourceInfluenceConfig } from '../config.js';
import type { UnitAlignment } from './align.js';

/** Attribution weights (§2.7) and the raw per-source / answer metrics (§2.8, §2.9), unrounded. */

export interface UnitFacts {
  index: number;
  words: number;
  geoWords: number;
  cited: ReadonlySet<number>;
  occurrences: readonly number[];
  alignment: UnitAlignment;
}

/** GEO reference-code decay: exp(−i/(N−1)), 1 when N = 1. */
export function decay(index: number, n: number): number {
  return n <= 1 ? 1 : Math.exp(-index / (n - 1));
}

/** a_uj for every unit and source (rows sum to 1, or to 0 for an unattributed unit). */
export function attributionWeights(
  units: readonly UnitFacts[],
  nSources: number,
  cfg: SourceInfluenceConfig,
): number[][] {
  return units.map((u) => {
    const a = new Array<number>(nSources).fill(0);
    const s = u.alignment.support;
    if (u.cited.size > 0) {
      const den = [...u.cited].reduce((acc, k) => acc + cfg.citedEpsilon + (s[k] ?? 0), 0);
      for (const j of u.cited) a[j] = (cfg.citedEpsilon + (s[j] ?? 0)) / den;
      return a;
    }
    if (u.alignment.trivial) return a;
    const supported = s.map((v, j) => ({ v, j })).filter((x) => x.v >= cfg.uncitedMin);
    const den = supported.reduce((acc, x) => acc + x.v * x.v, 0);
    if (den > 0) for (const x of supported) a[x.j] = (x.v * x.v) / den;
    return a;
  });
}

export interface SourceRaw {
  share: number;
  geoWordCount: number;
  geoPositionAdjusted: number;
  count: number;
  citedUnits: number;
  firstCitedUnit: number | null;
  supportedUnits: number;
  partialUnits: number;
  bestSupport: number;
  uniqueSupportShare: number;
  usedWithoutCitation: boolean;
}

export function sourceMetrics(
  units: readonly UnitFacts[],
  a: readonly number[][],
  nSources: number,
  cfg: SourceInfluenceConfig,
): SourceRaw[] {
  const n = units.length;
  const z = units.reduce((acc, u) => acc + u.words * decay(u.index, n), 0);
  const geoTotal = units.reduce((acc, u) => acc + u.geoWords, 0);
  const out: SourceRaw[] = [];
  for (let j = 0; j < nSources; j++) {
    const r: SourceRaw = {
      share: 0,
      geoWordCount: 0,
      geoPositionAdjusted: 0,
      count: 0,
      citedUnits: 0,
      firstCitedUnit: null,
      supportedUnits: 0,
      partialUnits: 0,
      bestSupport: 0,
      uniqueSupportShare: 0,
      usedWithoutCitation: false,
    };
    units.forEach((u, ui) => {
      const d = decay(u.index, n);
      const w = a[ui]?.[j] ?? 0;
      if (z > 0) r.share += (w * u.words * d) / z;
      const s = u.alignment.support[j] ?? 0;
      if (u.cited.has(j)) {
        r.citedUnits++;
        r.firstCitedUnit ??= u.index;
        if (geoTotal > 0) {
          r.geoWordCount += u.geoWords / u.cited.size / geoTotal;
          r.geoPositionAdjusted += (u.geoWords * d) / u.cited.size / geoTotal;
        }
      }
      r.count += u.occurrences.filter((k) => k === j).length;
      r.bestSupport = Math.max(r.bestSupport, s);
      if (u.alignment.trivial) return;
      if (s >= cfg.tauFull) r.supportedUnits++;
      else if (s >= cfg.tauPartial) r.partialUnits++;
      const fullSources = u.alignment.support.filter((v) => v >= cfg.tauFull).length;
      if (s >= cfg.tauFull && fullSources === 1 && z > 0) r.uniqueSupportShare += (u.words * d) / z;
    });
    r.usedWithoutCitation = r.citedUnits === 0 && r.supportedUnits > 0;
    out.push(r);
  }
  return out;
}

export interface AnswerRaw {
  citationCoverage: number | null;
  citationRecall: number | null;
  citationPrecision: number | null;
  groundedShare: number | null;
}

/** ALCE-style recall/precision with the lexical judge, coverage and grounding over non-trivial units. */
export function answerMetrics(
  units: readonly UnitFacts[],
  anyValidCitation: boolean,
  cfg: SourceInfluenceConfig,
): AnswerRaw {
  const main = units.filter((u) => !u.alignment.trivial);
  const totalWords = main.reduce((acc, u) => acc + u.words, 0);
  const grounded = main
    .filter((u) => Math.max(0, ...u.alignment.support) >= cfg.tauFull)
    .reduce((acc, u) => acc + u.words, 0);
  const groundedShare = main.length === 0 ? null : totalWords > 0 ? grounded / totalWords : 0;
  if (!anyValidCitation || main.length === 0)
    return { citationCoverage: null, citationRecall: null, citationPrecision: null, groundedShare };
  const citedWords = main.filter((u) => u.cited.size > 0).reduce((acc, u) => acc + u.words, 0);
  const jointFull = (u: UnitFacts) => u.cited.size > 0 && u.alignment.joint >= cfg.tauFull;
  let precise = 0;
  let instances = 0;
  for (const u of main) {
    for (const j of u.cited) {
      instances++;
      if (!jointFull(u)) continue;
      if (u.cited.size === 1) {
        precise++;
        continue;
      }
      const alone = u.alignment.support[j] ?? 0;
      const othersStillEntail = (u.alignment.jointWithout.get(j) ?? 0) >= cfg.tauFull;
      if (!(alone < cfg.tauPartial && othersStillEntail)) precise++;
    }
  }
  return {
    citationCoverage: totalWords > 0 ? citedWords / totalWords : 0,
    citationRecall: main.filter(jointFull).length / main.length,
    citationPrecision: instances === 0 ? null : precise / instances,
    groundedShare,
  };
}

export function level(share: number, cfg: SourceInfluenceConfig): 'high' | 'medium' | 'low' | 'none' {
  if (share >= cfg.level.high) return 'high';
  if (share >= cfg.level.medium) return 'medium';
  return share > 0 ? 'low' : 'none';
}
