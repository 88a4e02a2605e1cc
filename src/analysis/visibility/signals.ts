import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { round4 } from '../text/norm.js';
import type { Interval } from './intervals.js';

/**
 * Changes tested before they are reported (docs/analysis.md §6.7). After each run, every figure of every tracked
 * brand, engine and country is compared with its recent baseline; a change that holds against the noise of both
 * sides, with the false discovery rate controlled over all the figures of the run, is a signal.
 *
 * The test, per figure: the run's value x with its standard error s (from its 95% interval, §6.6) against the mean
 * of the last `BASELINE_RUNS` runs that have the figure. The difference's variance has three parts: the run's own
 * sampling noise s², the day-to-day movement of the engine beyond sampling noise τ² (the baseline runs' variance
 * less their mean sampling variance, at least 0), and the baseline mean's own variance (baseline variance / m).
 * The statistic is referred to Student's t, its degrees of freedom by Welch–Satterthwaite (the baseline's spread
 * is estimated from m runs, the sampling variances are known from the intervals). Then Benjamini–Hochberg at
 * q = 0.05 over every test of the run.
 */

/** The level of the false discovery rate over the figures of one run. */
export const SIGNAL_FDR = 0.05;
/** Runs in the baseline, most recent first; fewer than `MIN_BASELINE_RUNS` and the figure is not tested. */
const BASELINE_RUNS = 7;
const MIN_BASELINE_RUNS = 3;
/**
 * How far back a baseline reaches, in runs. A run where the figure changed is left out of later baselines, so a
 * change that holds is held against the runs before it rather than absorbed into its own baseline; after this many
 * runs those are out of reach, the figure goes untested for a few runs, and the changed level becomes the baseline.
 */
const BASELINE_REACH = 4 * BASELINE_RUNS;
/**
 * Runs a read of signals covers: the latest 92 runs of the window (three months of a daily monitor) are tested, the
 * 28 before them only as their baselines. A read is bounded by this, not by the monitor's whole history.
 */
export const SIGNAL_READ_RUNS = 92 + BASELINE_REACH;
/** A prompt's text in a signal is cut to this many characters. */
const PROMPT_CHARS = 200;
const Z95 = 1.959963984540054;
/** Prompts and domains a signal lists as those that moved most. */
const MOVERS = 3;

export const SIGNAL_FIGURES = ['mentionRate', 'shareOfVoice', 'citationShare', 'avgFirstMentionPosition'] as const;
type SignalFigure = (typeof SIGNAL_FIGURES)[number];

/** A tracked brand's figures as a run stores them (analysis/visibility/run-metrics.ts). */
interface StoredBrand {
  name: string;
  role: 'brand' | 'competitor';
  mentionRate: number | null;
  shareOfVoice: number | null;
  citationShare: number | null;
  avgFirstMentionPosition: number | null;
  intervals?: Partial<Record<SignalFigure, Interval | null>>;
}

/**
 * One prompt's answers in a group, and how many of them name each tracked brand (in `brands` order). `prompt` is the
 * prompt's key: in a run's stored figures, its index in the run's prompts (so a long prompt is not stored once per
 * engine and country); `promptTexts` turns the keys of a signal back into text.
 */
export interface PromptCount {
  prompt: string;
  answers: number;
  mentioning: number[];
}

interface StoredGroup {
  brands?: StoredBrand[];
  topCitedDomains?: Array<{ domain: string; share: number }>;
  byPrompt?: PromptCount[];
}

/** A completed run's stored figures per group (`ENGINE/COUNTRY`), in run order. */
export interface RunFigures {
  id: string;
  slotAt: number;
  metrics: Record<string, unknown>;
}

export interface Signal {
  figure: SignalFigure;
  brand: string;
  role: 'brand' | 'competitor';
  engine: string;
  country: string | null;
  direction: 'up' | 'down';
  /** The baseline mean when the change was first seen. */
  before: number;
  /** The latest run's value while the change held. */
  after: number;
  /** The latest value's 95% interval. */
  interval: Interval;
  /** Baseline runs behind `before`. */
  baselineRuns: number;
  /** Of the first run that saw it: the test's two-sided p-value and its Benjamini–Hochberg adjusted value. */
  pValue: number;
  qValue: number;
  firstSeen: { runId: string; slotAt: string };
  lastSeen: { runId: string; slotAt: string };
  /** Consecutive runs of the group in which the change held. */
  runs: number;
  /** Prompts whose share of answers naming the brand moved most in the signal's direction (first run). */
  prompts: Array<{ prompt: string; before: number; after: number }>;
  /** Domains whose share of citations moved most (first run; a domain outside a run's top list counts as 0). */
  domains: Array<{ domain: string; before: number; after: number }>;
}

interface Test {
  key: string;
  brand: StoredBrand;
  figure: SignalFigure;
  x: number;
  interval: Interval;
  before: number;
  baselineRuns: number;
  baseline: StoredGroup[];
  p: number;
}

/** The standard error a 95% interval implies, read as a normal one. */
function seOf(i: Interval): number {
  return (i.high - i.low) / (2 * Z95);
}

/** The two-sided p-value of a run's value against its baseline, or null when it cannot be tested. */
function testAgainst(x: number, s: number, base: Array<{ x: number; s: number }>): number | null {
  const m = base.length;
  if (m < MIN_BASELINE_RUNS) return null;
  const mean = base.reduce((a, b) => a + b.x, 0) / m;
  const variance = base.reduce((a, b) => a + (b.x - mean) ** 2, 0) / (m - 1);
  const sampling = base.reduce((a, b) => a + b.s * b.s, 0) / m;
  const tau2 = Math.max(0, variance - sampling);
  const v = s * s + tau2 + variance / m;
  if (!(v > 1e-12)) return null;
  // The part of v estimated from the baseline's spread (m − 1 degrees of freedom); the sampling variances are read
  // from the intervals. Welch–Satterthwaite gives the degrees of freedom of the sum, never fewer than m − 1.
  const estimated = (tau2 > 0 ? variance : 0) + variance / m;
  const df = estimated > 0 ? Math.max(m - 1, (v * v * (m - 1)) / (estimated * estimated)) : 1e6;
  const t = (x - mean) / Math.sqrt(v);
  return Math.min(1, 2 * (1 - tCdf(Math.abs(t), df)));
}

/** Benjamini–Hochberg adjusted p-values (step-up), in the order given. */
export function bhAdjust(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const q = new Array<number>(ps.length);
  let min = 1;
  for (let r = order.length - 1; r >= 0; r--) {
    const o = order[r] as { p: number; i: number };
    min = Math.min(min, (o.p * order.length) / (r + 1));
    q[o.i] = min;
  }
  return q;
}

function groupOf(run: RunFigures, key: string): StoredGroup | undefined {
  return run.metrics[key] as StoredGroup | undefined;
}

/** A group's brands by name, built once per group (a run's group is looked up for every figure of later runs). */
const brandIndex = new WeakMap<StoredGroup, Map<string, StoredBrand>>();
function brandIn(group: StoredGroup, name: string): StoredBrand | undefined {
  let index = brandIndex.get(group);
  if (!index) {
    index = new Map((group.brands ?? []).map((b) => [b.name, b]));
    brandIndex.set(group, index);
  }
  return index.get(name);
}

/** The key of one figure of one run: a run where it changed is not part of its later baselines. */
const flagOf = (t: number, key: string, brand: string, figure: SignalFigure) => `${t}|${key}|${brand}|${figure}`;

/** Every testable figure of run `t` against the runs before it where that figure did not change. */
function testsOf(runs: readonly RunFigures[], t: number, flagged: ReadonlySet<string>): Test[] {
  const run = runs[t] as RunFigures;
  const tests: Test[] = [];
  for (const key of Object.keys(run.metrics)) {
    const brands = groupOf(run, key)?.brands ?? [];
    for (const brand of brands)
      for (const figure of SIGNAL_FIGURES) {
        const x = brand[figure];
        const interval = brand.intervals?.[figure];
        if (x === null || x === undefined || !interval) continue;
        const base: Array<{ x: number; s: number; group: StoredGroup }> = [];
        for (let j = t - 1; j >= Math.max(0, t - BASELINE_REACH) && base.length < BASELINE_RUNS; j--) {
          if (flagged.has(flagOf(j, key, brand.name, figure))) continue;
          const g = groupOf(runs[j] as RunFigures, key);
          const b = g ? brandIn(g, brand.name) : undefined;
          const bx = b?.[figure];
          const bi = b?.intervals?.[figure];
          if (g && bx !== null && bx !== undefined && bi) base.push({ x: bx, s: seOf(bi), group: g });
        }
        const p = testAgainst(x, seOf(interval), base);
        if (p === null) continue;
        tests.push({
          key,
          brand,
          figure,
          x,
          interval,
          before: base.reduce((a, b) => a + b.x, 0) / base.length,
          baselineRuns: base.length,
          baseline: base.map((b) => b.group),
          p,
        });
      }
  }
  return tests;
}

/** Prompts whose share of answers naming brand `i` moved most in the direction of the change. */
function promptMovers(now: StoredGroup, baseline: StoredGroup[], i: number, sign: number) {
  const before = new Map<string, { answers: number; mentioning: number }>();
  for (const g of baseline)
    for (const p of g.byPrompt ?? []) {
      const b = before.get(p.prompt) ?? { answers: 0, mentioning: 0 };
      b.answers += p.answers;
      b.mentioning += p.mentioning[i] ?? 0;
      before.set(p.prompt, b);
    }
  return (now.byPrompt ?? [])
    .flatMap((p) => {
      const b = before.get(p.prompt);
      if (!b || b.answers === 0 || p.answers === 0) return [];
      return [
        {
          prompt: p.prompt,
          before: round4(b.mentioning / b.answers),
          after: round4((p.mentioning[i] ?? 0) / p.answers),
        },
      ];
    })
    .filter((m) => sign * (m.after - m.before) > 0)
    .sort((a, b) => sign * (b.after - b.before) - sign * (a.after - a.before) || (a.prompt < b.prompt ? -1 : 1))
    .slice(0, MOVERS);
}

/** Domains whose share of citations moved most, either way. */
function domainMovers(now: StoredGroup, baseline: StoredGroup[]) {
  const before = new Map<string, number>();
  for (const g of baseline)
    for (const d of g.topCitedDomains ?? [])
      before.set(d.domain, (before.get(d.domain) ?? 0) + d.share / baseline.length);
  const after = new Map((now.topCitedDomains ?? []).map((d) => [d.domain, d.share]));
  return [...new Set([...before.keys(), ...after.keys()])]
    .map((domain) => ({ domain, before: round4(before.get(domain) ?? 0), after: round4(after.get(domain) ?? 0) }))
    .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before) || (a.domain < b.domain ? -1 : 1))
    .slice(0, MOVERS);
}

const whenOf = (run: RunFigures) => ({ runId: run.id, slotAt: new Date(run.slotAt).toISOString() });

/**
 * The signals of a monitor's runs (oldest first): each run's figures tested against their baselines, the changes
 * that hold after the false discovery rate control, and the detections of one figure in consecutive runs of its
 * group (in the same direction) merged into one signal, from the run that first saw it to the last.
 */
export function monitorSignals(runs: readonly RunFigures[]): Signal[] {
  const open = new Map<string, { signal: Signal; lastIndex: number }>();
  const done: Signal[] = [];
  // A group's runs in order, to tell consecutive runs of it apart from runs that skipped it.
  const seen = new Map<string, number>();
  const flagged = new Set<string>();
  for (let t = 0; t < runs.length; t++) {
    const run = runs[t] as RunFigures;
    for (const key of Object.keys(run.metrics)) seen.set(key, (seen.get(key) ?? 0) + 1);
    const tests = testsOf(runs, t, flagged);
    const q = bhAdjust(tests.map((x) => x.p));
    for (const [k, test] of tests.entries()) {
      const qValue = q[k] as number;
      if (qValue > SIGNAL_FDR) continue;
      flagged.add(flagOf(t, test.key, test.brand.name, test.figure));
      const direction = test.x > test.before ? 'up' : 'down';
      const id = `${test.key}|${test.brand.name}|${test.figure}|${direction}`;
      const index = seen.get(test.key) ?? 0;
      const prior = open.get(id);
      if (prior && prior.lastIndex === index - 1) {
        prior.signal.after = test.x;
        prior.signal.interval = test.interval;
        prior.signal.lastSeen = whenOf(run);
        prior.signal.runs++;
        prior.lastIndex = index;
        continue;
      }
      if (prior) done.push(prior.signal);
      const [engine = '', country = '-'] = test.key.split('/');
      const group = groupOf(run, test.key) as StoredGroup;
      const i = (group.brands ?? []).findIndex((b) => b.name === test.brand.name);
      const signal: Signal = {
        figure: test.figure,
        brand: test.brand.name,
        role: test.brand.role,
        engine,
        country: country === '-' ? null : country,
        direction,
        before: round4(test.before),
        after: test.x,
        interval: test.interval,
        baselineRuns: test.baselineRuns,
        pValue: Number(test.p.toPrecision(4)),
        qValue: Number(qValue.toPrecision(4)),
        firstSeen: whenOf(run),
        lastSeen: whenOf(run),
        runs: 1,
        prompts: promptMovers(group, test.baseline, i, direction === 'up' ? 1 : -1),
        domains: domainMovers(group, test.baseline),
      };
      open.set(id, { signal, lastIndex: index });
    }
  }
  done.push(...[...open.values()].map((o) => o.signal));
  return done.sort((a, b) =>
    a.firstSeen.slotAt < b.firstSeen.slotAt ? 1 : a.firstSeen.slotAt > b.firstSeen.slotAt ? -1 : 0,
  );
}

/**
 * The signals with their prompts' text: `textsOf(runId)` gives the prompts of the run that first saw a signal (its
 * stored keys are indexes into them); a key with no text stays as it is. Texts are cut to 200 characters.
 */
export function promptTexts(signals: readonly Signal[], textsOf: (runId: string) => readonly string[] | undefined) {
  return signals.map((s) => {
    const texts = textsOf(s.firstSeen.runId);
    return {
      ...s,
      prompts: s.prompts.map((p) => {
        const text = /^\d+$/.test(p.prompt) ? texts?.[Number(p.prompt)] : undefined;
        return { ...p, prompt: (text ?? p.prompt).slice(0, PROMPT_CHARS) };
      }),
    };
  });
}
