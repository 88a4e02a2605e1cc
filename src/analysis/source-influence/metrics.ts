import type { SourceInfluenceConfig } from '../config.js';
import type { UnitAlignment } from './align.js';
import { supports, type SupportLabel } from './judge/labels.js';

/** Attribution weights (§2.7) and the raw per-source / answer metrics (§2.8, §2.9), unrounded. */

export interface UnitFacts {
  index: number;
  words: number;
  geoWords: number;
  cited: ReadonlySet<number>;
  occurrences: readonly number[];
  alignment: UnitAlignment;
}

/** The GEO paper's decay of eq. 3: e^(−pos/|S|), pos 0-based, |S| the number of sentences (geo.ts). */
export function paperDecay(position: number, sentences: number): number {
  return sentences === 0 ? 0 : Math.exp(-position / sentences);
}

/** GEO reference-code decay: exp(−i/(N−1)), 1 when N = 1 (the influence share's position weight). */
export function decay(index: number, n: number): number {
  return n <= 1 ? 1 : Math.exp(-index / (n - 1));
}

/**
 * The sources that support a miscited unit, or none when the unit is not miscited. A unit is miscited when it cites
 * sources, none of them supports it (supported or partial), and a source it does not cite does: its label supports
 * the unit, or its score reaches `miscited.minScore` and is `miscited.margin` times the best cited source's (the
 * content is clearly there and not where the citation points; the lexical judge's absolute scale is too strict for
 * paraphrases, a comparison between the unit's own sources is not).
 */
/** A score that clearly holds the content against its best rival: at least `minScore`, and `margin` times the rival. */
function clearlyAbove(score: number, rival: number, cfg: Pick<SourceInfluenceConfig, 'miscited'>): boolean {
  return score >= cfg.miscited.minScore && score >= cfg.miscited.margin * rival;
}

export function misciteSupporters(u: UnitFacts, cfg: Pick<SourceInfluenceConfig, 'miscited'>): number[] {
  if (u.cited.size === 0 || u.alignment.trivial) return [];
  const j = u.alignment.judgements;
  if ([...u.cited].some((k) => supports(j[k]?.label ?? 'unsupported'))) return [];
  const citedBest = Math.max(0, ...[...u.cited].map((k) => (j[k]?.label === 'contradicted' ? 0 : (j[k]?.score ?? 0))));
  const out: number[] = [];
  j.forEach((x, k) => {
    if (u.cited.has(k) || x.label === 'contradicted') return;
    if (supports(x.label) || clearlyAbove(x.score, citedBest, cfg)) out.push(k);
  });
  return out;
}

/** The page whose score reaches `miscited.minScore` and is `miscited.margin` times every other page's, if any. */
function clearBest(
  s: readonly number[],
  labels: readonly SupportLabel[],
  cfg: Pick<SourceInfluenceConfig, 'miscited'>,
): number | null {
  let best = -1;
  s.forEach((v, j) => {
    if (labels[j] !== 'contradicted' && (best < 0 || v > (s[best] ?? 0))) best = j;
  });
  if (best < 0) return null;
  const others = Math.max(0, ...s.filter((_, j) => j !== best));
  return clearlyAbove(s[best] ?? 0, others, cfg) ? best : null;
}

export function isMiscited(u: UnitFacts, cfg: Pick<SourceInfluenceConfig, 'miscited'>): boolean {
  return misciteSupporters(u, cfg).length > 0;
}

/**
 * a_uj for every unit and source (rows sum to 1, or to 0 for an unattributed unit), §2.7:
 * citations are one signal, not a gate. A cited source gets ε + s (GEO's equal split when nothing is read); a source
 * the unit does not cite gets s when the judge calls it `supported`; a contradicting source gets nothing. A miscited
 * unit goes to the sources that support it. An uncited unit goes, by s², to the sources labelled supported or partial
 * (with s ≥ uncitedMin), or else to the one page that clearly holds the content.
 */
export function attributionWeights(
  units: readonly UnitFacts[],
  nSources: number,
  cfg: SourceInfluenceConfig,
): number[][] {
  return units.map((u) => {
    const a = new Array<number>(nSources).fill(0);
    const s = u.alignment.support;
    const labels = u.alignment.judgements.map((x) => x.label);
    if (u.cited.size > 0) {
      const supporters = new Set(misciteSupporters(u, cfg));
      const miscited = supporters.size > 0;
      const raw = a.map((_, j) => {
        const label = labels[j] ?? 'unsupported';
        if (label === 'contradicted') return 0;
        if (miscited) return supporters.has(j) ? (s[j] ?? 0) : 0;
        if (u.cited.has(j)) return cfg.citedEpsilon + (s[j] ?? 0);
        return !u.alignment.trivial && label === 'supported' ? (s[j] ?? 0) : 0;
      });
      const den = raw.reduce((acc, x) => acc + x, 0);
      if (den > 0)
        raw.forEach((x, j) => {
          a[j] = x / den;
        });
      return a;
    }
    if (u.alignment.trivial) return a;
    let supported = s
      .map((v, j) => ({ v, j }))
      .filter((x) => x.v >= cfg.uncitedMin && supports(labels[x.j] ?? 'unsupported'));
    if (supported.length === 0) {
      // No page reaches a supporting label: the one page that clearly holds the content (the miscitation test's
      // score and margin over every other page) is still the one the unit rests on.
      const clear = clearBest(s, labels, cfg);
      if (clear !== null) supported = [{ v: s[clear] ?? 0, j: clear }];
    }
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
  /** The part of `share` that comes from units that do not cite this source (uncited support). */
  uncitedShare: number;
  /** Non-trivial units credited to this source by content (it supports them) without citing it. */
  uncitedSupportedUnits: number;
  contradictedUnits: number;
}

export function sourceMetrics(units: readonly UnitFacts[], a: readonly number[][], nSources: number): SourceRaw[] {
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
      uncitedShare: 0,
      uncitedSupportedUnits: 0,
      contradictedUnits: 0,
    };
    units.forEach((u, ui) => {
      const d = decay(u.index, n);
      const w = a[ui]?.[j] ?? 0;
      if (z > 0) r.share += (w * u.words * d) / z;
      if (z > 0 && !u.cited.has(j)) r.uncitedShare += (w * u.words * d) / z;
      const s = u.alignment.support[j] ?? 0;
      if (u.cited.has(j)) {
        r.citedUnits++;
        r.firstCitedUnit ??= u.index;
        if (geoTotal > 0) {
          r.geoWordCount += u.geoWords / u.cited.size / geoTotal;
          r.geoPositionAdjusted += (u.geoWords * paperDecay(u.index, n)) / u.cited.size / geoTotal;
        }
      }
      r.count += u.occurrences.filter((k) => k === j).length;
      r.bestSupport = Math.max(r.bestSupport, s);
      if (u.alignment.trivial) return;
      const label = u.alignment.judgements[j]?.label ?? 'unsupported';
      if (label === 'supported') r.supportedUnits++;
      else if (label === 'partial') r.partialUnits++;
      else if (label === 'contradicted') r.contradictedUnits++;
      if (!u.cited.has(j) && w > 0) r.uncitedSupportedUnits++;
      const fullSources = u.alignment.judgements.filter((x) => x.label === 'supported').length;
      if (label === 'supported' && fullSources === 1 && z > 0) r.uniqueSupportShare += (u.words * d) / z;
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
    .filter((u) => u.alignment.judgements.some((j) => j.label === 'supported'))
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
