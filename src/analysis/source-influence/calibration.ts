import { analysisConfig, type SourceInfluenceConfig } from '../config.js';
import { analyzeCore } from './core.js';
import { rankSources } from './result.js';
import type { FetchRecord } from './types.js';

/**
 * Calibration of §5: hand-labelled (unit, source) pairs — supported / partial / unsupported — and
 * the expected influence ordering of each answer. The grid search runs the real alignment
 * (analyzeCore) for every lexical weighting and classifies each pair's s_uj with every threshold
 * pair, scoring macro-F1 over the three classes. Pure and deterministic: the same fixtures give the
 * same figures, which the tests compare with the values recorded in config.ts.
 */
export type SupportLabel = 'supported' | 'partial' | 'unsupported';
const LABELS: readonly SupportLabel[] = ['supported', 'partial', 'unsupported'];

export interface CalibrationCase {
  id: string;
  language: 'en' | 'ko';
  prompt: string;
  answer: string;
  sources: Array<{ url: string; title: string; text: string }>;
  /** Source ids, most influential first. */
  expectedOrder: string[];
  /** Per answer unit: label by source id. */
  labels: Array<Record<string, SupportLabel>>;
}

export interface GridPoint {
  tauFull: number;
  tauPartial: number;
  wContain: number;
  numBonus: number;
  macroF1: number;
  macroF1En: number;
  macroF1Ko: number;
}

export interface GridSpec {
  tauFull: readonly number[];
  tauPartial: readonly number[];
  wContain: readonly number[];
  numBonus: readonly number[];
  /** τ_full − τ_part must be at least this. */
  minGap: number;
}

const steps = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 100) / 100);

export const DEFAULT_GRID: GridSpec = {
  tauFull: steps(0.4, 0.8, 0.05),
  tauPartial: steps(0.1, 0.5, 0.05),
  wContain: steps(0.1, 0.9, 0.1),
  numBonus: [0.1, 0.15, 0.2],
  minGap: 0.1,
};

function page(url: string, text: string): FetchRecord {
  return {
    attempted: true,
    fromCache: false,
    retries: 0,
    durationMs: 0,
    page: {
      status: 'ok',
      httpStatus: 200,
      contentType: 'text/html',
      bytes: Buffer.byteLength(text),
      finalUrl: url,
      text,
      textSource: 'extracted',
      truncated: false,
      metadata: null,
      fetchedAt: 0,
      detail: null,
    },
  };
}

function coreOf(c: CalibrationCase, cfg: SourceInfluenceConfig) {
  const input = {
    answer: c.answer,
    prompt: c.prompt,
    citations: c.sources.map((s) => ({ url: s.url, title: s.title })),
    analysis: null,
  };
  const core = analyzeCore(
    input,
    c.sources.map((s) => page(s.url, s.text)),
    cfg,
  );
  if (core.units.length !== c.labels.length)
    throw new Error(`${c.id}: ${core.units.length} units but ${c.labels.length} labelled`);
  return core;
}

interface Pair {
  language: 'en' | 'ko';
  label: SupportLabel;
  support: number;
}

/**
 * The cases again with every source embedded in off-topic text (the other same-language cases'
 * pages), as on a long real page: labels are unchanged, but chance matches now have more text to
 * come from. Calibrating on both variants keeps thresholds from fitting short pages only.
 */
export function withDistractors(cases: readonly CalibrationCase[]): CalibrationCase[] {
  return cases.map((c) => ({
    ...c,
    id: `${c.id}+distractors`,
    sources: c.sources.map((s) => ({
      ...s,
      text: [
        s.text,
        ...cases.filter((o) => o.id !== c.id && o.language === c.language).flatMap((o) => o.sources.map((x) => x.text)),
      ].join('\n'),
    })),
  }));
}

/** Every labelled pair with its s_uj under `cfg`. */
export function labelledPairs(cases: readonly CalibrationCase[], cfg: SourceInfluenceConfig): Pair[] {
  return cases.flatMap((c) => {
    const core = coreOf(c, cfg);
    return c.labels.flatMap((row, ui) =>
      Object.entries(row).map(([sourceId, label]) => {
        const j = c.sources.findIndex((_, k) => `c${k + 1}` === sourceId);
        return { language: c.language, label, support: core.alignments[ui]?.support[j] ?? 0 };
      }),
    );
  });
}

export function levelOf(s: number, tauFull: number, tauPartial: number): SupportLabel {
  return s >= tauFull ? 'supported' : s >= tauPartial ? 'partial' : 'unsupported';
}

/** Unweighted mean of the per-class F1 (a class absent from both gold and prediction is skipped). */
export function macroF1(gold: readonly SupportLabel[], predicted: readonly SupportLabel[]): number {
  const f1s: number[] = [];
  for (const k of LABELS) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      const p = predicted[i];
      if (g === k && p === k) tp++;
      else if (p === k) fp++;
      else if (g === k) fn++;
    });
    if (tp + fp + fn === 0) continue;
    f1s.push(tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn));
  }
  return f1s.length === 0 ? 0 : f1s.reduce((a, b) => a + b, 0) / f1s.length;
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

function score(pairs: readonly Pair[], tauFull: number, tauPartial: number, lang?: 'en' | 'ko'): number {
  const sel = lang ? pairs.filter((p) => p.language === lang) : pairs;
  return macroF1(
    sel.map((p) => p.label),
    sel.map((p) => levelOf(p.support, tauFull, tauPartial)),
  );
}

function withLex(base: SourceInfluenceConfig, wContain: number, numBonus: number): SourceInfluenceConfig {
  return analysisConfig({ si: { ...base, lex: { ...base.lex, wContain, wNgram: r4(1 - wContain), numBonus } } }).si;
}

export function evaluate(cases: readonly CalibrationCase[], cfg: SourceInfluenceConfig): GridPoint {
  const pairs = labelledPairs(cases, cfg);
  return {
    tauFull: cfg.tauFull,
    tauPartial: cfg.tauPartial,
    wContain: cfg.lex.wContain,
    numBonus: cfg.lex.numBonus,
    macroF1: r4(score(pairs, cfg.tauFull, cfg.tauPartial)),
    macroF1En: r4(score(pairs, cfg.tauFull, cfg.tauPartial, 'en')),
    macroF1Ko: r4(score(pairs, cfg.tauFull, cfg.tauPartial, 'ko')),
  };
}

/** s_uj of every labelled pair, computed once per lexical setting and case. */
class PairTable {
  private readonly memo = new Map<string, Pair[]>();

  constructor(
    private readonly all: readonly CalibrationCase[],
    private readonly base: SourceInfluenceConfig,
  ) {}

  pairs(cases: readonly CalibrationCase[], wContain: number, numBonus: number): Pair[] {
    const cfg = withLex(this.base, wContain, numBonus);
    return cases.flatMap((c) => {
      const key = `${wContain}|${numBonus}|${this.all.indexOf(c)}`;
      let p = this.memo.get(key);
      if (!p) {
        p = labelledPairs([c], cfg);
        this.memo.set(key, p);
      }
      return p;
    });
  }
}

/**
 * Best grid point by macro-F1 over `select` (pooled by default). Ties go to the point nearest the
 * current defaults (sum of absolute differences), so the outcome is unique and a tie never moves
 * a default for nothing.
 */
export function gridSearch(
  cases: readonly CalibrationCase[],
  base: SourceInfluenceConfig,
  grid: GridSpec = DEFAULT_GRID,
  select: 'all' | 'en' | 'ko' = 'all',
): GridPoint {
  return search(cases, new PairTable(cases, base), base, grid, select);
}

function search(
  cases: readonly CalibrationCase[],
  table: PairTable,
  base: SourceInfluenceConfig,
  grid: GridSpec,
  select: 'all' | 'en' | 'ko',
): GridPoint {
  let best: { point: GridPoint; objective: number; distance: number } | null = null;
  for (const wContain of grid.wContain) {
    for (const numBonus of grid.numBonus) {
      const pairs = table.pairs(cases, wContain, numBonus);
      for (const tauFull of grid.tauFull) {
        for (const tauPartial of grid.tauPartial) {
          if (tauFull - tauPartial < grid.minGap - 1e-9) continue;
          const point: GridPoint = {
            tauFull,
            tauPartial,
            wContain,
            numBonus,
            macroF1: r4(score(pairs, tauFull, tauPartial)),
            macroF1En: r4(score(pairs, tauFull, tauPartial, 'en')),
            macroF1Ko: r4(score(pairs, tauFull, tauPartial, 'ko')),
          };
          const objective = select === 'en' ? point.macroF1En : select === 'ko' ? point.macroF1Ko : point.macroF1;
          const distance = r4(
            Math.abs(tauFull - base.tauFull) +
              Math.abs(tauPartial - base.tauPartial) +
              Math.abs(wContain - base.lex.wContain) +
              Math.abs(numBonus - base.lex.numBonus),
          );
          if (!best || objective > best.objective || (objective === best.objective && distance < best.distance))
            best = { point, objective, distance };
        }
      }
    }
  }
  if (!best) throw new Error('empty grid');
  return best.point;
}

/**
 * Leave-one-case-out estimate of how the tuned values generalise: for each labelled answer (with
 * its distractor variant), the grid search runs on the other answers and the chosen values label
 * the held-out pairs; macro-F1 is taken over all held-out predictions together.
 */
export function crossValidate(
  cases: readonly CalibrationCase[],
  base: SourceInfluenceConfig,
  grid: GridSpec = DEFAULT_GRID,
): number {
  const groupOf = (c: CalibrationCase) => c.id.replace(/\+distractors$/, '');
  const groups = [...new Set(cases.map(groupOf))];
  const table = new PairTable(cases, base);
  const gold: SupportLabel[] = [];
  const predicted: SupportLabel[] = [];
  for (const g of groups) {
    const train = cases.filter((c) => groupOf(c) !== g);
    const p = search(train, table, base, grid, 'all');
    for (const pair of table.pairs(
      cases.filter((c) => groupOf(c) === g),
      p.wContain,
      p.numBonus,
    )) {
      gold.push(pair.label);
      predicted.push(levelOf(pair.support, p.tauFull, p.tauPartial));
    }
  }
  return r4(macroF1(gold, predicted));
}

/** Source ids in the method's influence order (`influence.rank`). */
export function influenceOrder(c: CalibrationCase, cfg: SourceInfluenceConfig): string[] {
  const core = coreOf(c, cfg);
  const ranks = rankSources(core);
  return [...ranks].sort((a, b) => a[1] - b[1]).map(([j]) => `c${j + 1}`);
}

/** Share of cases ranked exactly as labelled, and share of source pairs ordered as labelled. */
export function rankingAccuracy(
  cases: readonly CalibrationCase[],
  cfg: SourceInfluenceConfig,
): { exact: number; pairwise: number } {
  let exact = 0;
  let agree = 0;
  let pairs = 0;
  for (const c of cases) {
    const got = influenceOrder(c, cfg);
    if (got.join() === c.expectedOrder.join()) exact++;
    for (let a = 0; a < c.expectedOrder.length; a++) {
      for (let b = a + 1; b < c.expectedOrder.length; b++) {
        pairs++;
        if (got.indexOf(c.expectedOrder[a] as string) < got.indexOf(c.expectedOrder[b] as string)) agree++;
      }
    }
  }
  return { exact: r4(exact / cases.length), pairwise: r4(pairs === 0 ? 0 : agree / pairs) };
}
