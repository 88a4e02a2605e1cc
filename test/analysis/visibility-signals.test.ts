import { describe, expect, it } from 'vitest';
import { clusteredProportion, mulberry32 } from '../../src/analysis/visibility/intervals.js';
import { bhAdjust, monitorSignals, type RunFigures, SIGNAL_FDR } from '../../src/analysis/visibility/signals.js';

const ENGINES = ['CHATBOT_A', 'ANSWER_ENGINE_A', 'ASSISTANT_A', 'AIMODE'];
const PROMPTS = 40;
const SAMPLES = 3;
const RUNS = 14;
const DAY = 86_400_000;

/** Normal deviates from a seeded generator (Box–Muller). */
function normals(next: () => number) {
  return () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}
const logit = (p: number) => Math.log(p / (1 - p));
const expit = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * A simulated monitor as its runs store it: on each engine, 40 prompts asked 3 times a run. Each prompt has its own
 * chance of naming the brand (logit-normal around the engine's rate, spread 1.2), and each engine moves from day to
 * day beyond sampling (a logit wobble of 0.15 per run), as real engines do. From run `change.at` on, the engine
 * `change.engine` names the brand `change.points` more often on every prompt. The figures and intervals are the
 * service's own (Wilson on the clustered sample, §6.6).
 */
function simulateMonitor(seed: number, change?: { engine: string; at: number; points: number }): RunFigures[] {
  const next = mulberry32(seed);
  const z = normals(next);
  const base = new Map(ENGINES.map((e) => [e, 0.2 + 0.4 * next()]));
  const prompts = new Map(ENGINES.map((e) => [e, Array.from({ length: PROMPTS }, () => 1.2 * z())]));
  const runs: RunFigures[] = [];
  for (let r = 0; r < RUNS; r++) {
    const metrics: Record<string, unknown> = {};
    for (const e of ENGINES) {
      const wobble = 0.15 * z();
      const lift = change && change.engine === e && r >= change.at ? change.points : 0;
      const counts = (prompts.get(e) ?? []).map((effect) => {
        const p = Math.min(1, expit(logit(base.get(e) ?? 0.4) + effect + wobble) + lift);
        let hits = 0;
        for (let s = 0; s < SAMPLES; s++) if (next() < p) hits++;
        return { hits, trials: SAMPLES };
      });
      const hits = counts.reduce((a, c) => a + c.hits, 0);
      const rate = Math.round((hits / (PROMPTS * SAMPLES)) * 10_000) / 10_000;
      metrics[`${e}/US`] = {
        brands: [
          {
            name: 'Hoka',
            role: 'brand',
            mentionRate: rate,
            shareOfVoice: null,
            citationShare: null,
            avgFirstMentionPosition: null,
            intervals: { mentionRate: clusteredProportion(counts).interval },
          },
        ],
        byPrompt: counts.map((c, i) => ({ prompt: `p${i}`, answers: c.trials, mentioning: [c.hits] })),
        topCitedDomains: [],
      };
    }
    runs.push({ id: `run-${r}`, slotAt: Date.UTC(2026, 10, 1) + r * DAY, metrics });
  }
  return runs;
}

describe('signals: changes tested before they are reported (§6.7)', () => {
  it('adjusts p-values as Benjamini and Hochberg do', () => {
    // By hand: sorted 0.01, 0.02, 0.03, 0.5 of 4 → 0.04, 0.04, 0.04, 0.5 (step-up minimum from the top).
    expect(bhAdjust([0.5, 0.01, 0.03, 0.02]).map((q) => Number(q.toFixed(4)))).toEqual([0.5, 0.04, 0.04, 0.04]);
    expect(bhAdjust([])).toEqual([]);
  });

  it(`raises false alarms on stable monitors in at most ${SIGNAL_FDR * 100}% of runs`, () => {
    let alarmedRuns = 0;
    let testedRuns = 0;
    for (let m = 0; m < 300; m++) {
      const signals = monitorSignals(simulateMonitor(1000 + m));
      // Runs 3 to 13 have a baseline of at least three runs.
      testedRuns += RUNS - 3;
      alarmedRuns += new Set(signals.map((s) => s.firstSeen.runId)).size;
    }
    const rate = alarmedRuns / testedRuns;
    console.log(`stable monitors: ${alarmedRuns} of ${testedRuns} runs raised a signal (${(rate * 100).toFixed(2)}%)`);
    expect(rate).toBeLessThanOrEqual(SIGNAL_FDR);
  });

  it('detects a 25-point rise of one engine in its first run in 80% of monitors, and names the right one', () => {
    const monitors = 200;
    const rates: string[] = [];
    for (const points of [0.1, 0.15, 0.2, 0.25]) {
      let detected = 0;
      let wrongEngine = 0;
      for (let m = 0; m < monitors; m++) {
        const signals = monitorSignals(simulateMonitor(5000 + m, { engine: 'ASSISTANT_A', at: 8, points }));
        const hit = signals.find(
          (s) =>
            s.engine === 'ASSISTANT_A' &&
            s.figure === 'mentionRate' &&
            s.direction === 'up' &&
            s.firstSeen.runId === 'run-8',
        );
        if (hit) {
          detected++;
          expect(hit.after).toBeGreaterThan(hit.before);
          expect(hit.prompts.length).toBeGreaterThan(0);
          for (const p of hit.prompts) expect(p.after).toBeGreaterThan(p.before);
        }
        wrongEngine += signals.filter((s) => s.engine !== 'ASSISTANT_A' && s.firstSeen.runId === 'run-8').length;
      }
      rates.push(`+${points * 100} points: ${((detected / monitors) * 100).toFixed(1)}%`);
      if (points === 0.25) expect(detected / monitors).toBeGreaterThanOrEqual(0.8);
      expect(wrongEngine / monitors).toBeLessThanOrEqual(SIGNAL_FDR);
    }
    console.log(`detected in the run the rise starts: ${rates.join(', ')}`);
  });

  it('merges a change that holds over consecutive runs into one signal, from the run that first saw it', () => {
    const signals = monitorSignals(simulateMonitor(42, { engine: 'CHATBOT_A', at: 8, points: 0.4 })).filter(
      (s) => s.engine === 'CHATBOT_A',
    );
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({ figure: 'mentionRate', direction: 'up', firstSeen: { runId: 'run-8' } });
    expect(signals[0]?.runs).toBeGreaterThanOrEqual(2);
    expect(signals[0]?.baselineRuns).toBe(7);
  });
});
