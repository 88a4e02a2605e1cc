import { median } from './stats.js';

/** Sizes and repetitions of one bench run (`--quick` shrinks them for CI). */
export interface BenchConfig {
  quick: boolean;
  /** False when profiling: the bare server is not loaded. */
  baseline: boolean;
  runs: number;
  durationS: number;
  warmupS: number;
  connections: number;
  batchItems: number;
  pollPrefill: number;
  dispatchTasks: number;
  dispatchRuns: number;
  idleSamples: number;
  webhookDeliveries: number;
  noopConcurrency: number;
  /** Retained tasks of the growth scenario's large store. */
  growthTasks: number;
  /** Parse isolation: service runs per mode (pool, inline), page reads in flight, idle probing and loaded window. */
  parseRuns: number;
  parseInFlight: number;
  parseIdleS: number;
  parseWindowS: number;
  /** Interleaved rounds of the comparison, scale-out and recovery scenarios (`--rounds=N`; 3, quick mode 1). */
  rounds: number;
  /** Tasks per scale-out run (`--scaleout-tasks=N`). */
  scaleoutTasks: number;
  /** Tasks per recovery round (`--recovery-tasks=N`). */
  recoveryTasks: number;
  /** Pages of the web corpus each side of the page-read scenario reads per round (`--read-pages=N`; 0: all). */
  readPages: number;
}

export function benchConfig(quick: boolean, baseline = true): BenchConfig {
  return quick
    ? {
        quick,
        baseline,
        // Quick mode is the harness's own test (test/bench/quick.test.ts): enough to produce every figure.
        runs: 2,
        durationS: 1,
        warmupS: 0,
        connections: 50,
        batchItems: 500,
        pollPrefill: 10_000,
        dispatchTasks: 1_000,
        dispatchRuns: 2,
        idleSamples: 20,
        webhookDeliveries: 500,
        noopConcurrency: 256,
        growthTasks: 50_000,
        parseRuns: 1,
        parseInFlight: 4,
        parseIdleS: 1,
        parseWindowS: 2,
        rounds: 1,
        scaleoutTasks: 1_000,
        recoveryTasks: 1_000,
        readPages: 40,
      }
    : {
        quick,
        baseline,
        runs: 5,
        durationS: 5,
        warmupS: 2,
        connections: 50,
        batchItems: 500,
        pollPrefill: 100_000,
        dispatchTasks: 50_000,
        dispatchRuns: 3,
        idleSamples: 200,
        webhookDeliveries: 20_000,
        noopConcurrency: 256,
        growthTasks: 1_000_000,
        parseRuns: 2,
        parseInFlight: 32,
        parseIdleS: 5,
        parseWindowS: 20,
        rounds: 3,
        scaleoutTasks: 50_000,
        recoveryTasks: 2_000,
        readPages: 0,
      };
}

/** One reported figure: the median over the runs, the baseline's median, and the target verdict. */
export interface Figure {
  scenario: string;
  metric: string;
  unit: string;
  value: number;
  runs: number[];
  /** Median of the baseline measured in the same run, for throughput figures. */
  baseline?: { name: string; value: number };
  /** The target this figure must meet; absent for figures shown as context. */
  target?: Target;
  /** null when there is no target. */
  met: boolean | null;
}

/** A target: a bound on the value, or on its ratio to the baseline. */
export type Target = { op: '<' | '>='; value: number; unit: string } | { op: 'ratio>='; value: number };

export function targetLabel(t: Target | undefined): string {
  if (!t) return '';
  if (t.op === 'ratio>=') return `>= ${Math.round(t.value * 100)}% of baseline`;
  return `${t.op} ${t.value.toLocaleString('en-US')} ${t.unit}`;
}

/** Counters that must stay at zero for the figures to mean anything. */
export interface Integrity {
  scenario: string;
  expected: number;
  observed: number;
  /** Requests answered with a non-2xx status or failed at the socket. */
  failedRequests: number;
  lost: number;
  duplicates: number;
}

export interface ScenarioResult {
  figures: Figure[];
  integrity: Integrity[];
}

export function ratio(f: Pick<Figure, 'value' | 'baseline'>): number | null {
  return f.baseline && f.baseline.value > 0 ? f.value / f.baseline.value : null;
}

export function figure(f: Omit<Figure, 'value' | 'met'>): Figure {
  const value = median(f.runs);
  const t = f.target;
  let met: boolean | null = null;
  if (t?.op === 'ratio>=') {
    const r = ratio({ value, baseline: f.baseline });
    met = r !== null && r >= t.value;
  } else if (t?.op === '<') met = value < t.value;
  else if (t?.op === '>=') met = value >= t.value;
  return { ...f, value, met };
}
