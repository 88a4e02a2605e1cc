import { describe, expect, it } from 'vitest';
import {
  bootstrapRatio,
  type ClusterCount,
  type ClusterRatio,
  clusteredProportion,
  designEffect,
  mulberry32,
  wilsonInterval,
} from '../../src/analysis/visibility/intervals.js';
import { visibilityMetrics } from '../../src/analysis/visibility/index.js';

const Z = 1.959963984540054;

/**
 * The reference for Wilson: the interval is the set of p whose score test does not reject, |p̂ − p| ≤ z·√(p(1−p)/n).
 * Found here by bisection on each side of p̂, not by the closed form the service uses.
 */
function wilsonByInversion(hits: number, n: number): { low: number; high: number } {
  const ph = hits / n;
  const inside = (p: number) => Math.abs(ph - p) <= Z * Math.sqrt((p * (1 - p)) / n);
  const edge = (a: number, b: number) => {
    // a inside, b outside (or the bound itself)
    if (inside(b)) return b;
    for (let i = 0; i < 200; i++) {
      const m = (a + b) / 2;
      if (inside(m)) a = m;
      else b = m;
    }
    return (a + b) / 2;
  };
  return { low: edge(ph, 0), high: edge(ph, 1) };
}

/** Normal deviates from a seeded generator (Box–Muller), for the simulations. */
function normals(next: () => number) {
  return () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

describe('Wilson score interval', () => {
  it("matches Newcombe's published values (Stat Med 1998;17:857, table I, method 3)", () => {
    expect(wilsonInterval(81, 263)).toEqual({ low: 0.2553, high: 0.3662 });
    expect(wilsonInterval(15, 148)).toEqual({ low: 0.0624, high: 0.1605 });
    expect(wilsonInterval(0, 20)).toEqual({ low: 0, high: 0.1611 });
    expect(wilsonInterval(1, 29)).toEqual({ low: 0.0061, high: 0.1718 });
  });

  it('equals the inverted score test over a grid, fractional sizes included', () => {
    for (const n of [1, 2, 3.5, 7, 10, 12.25, 50, 199, 1000])
      for (const share of [0, 0.01, 0.1, 0.33, 0.5, 0.77, 0.99, 1]) {
        const hits = share * n;
        const got = wilsonInterval(hits, n);
        const ref = wilsonByInversion(hits, n);
        expect(Math.abs((got?.low ?? -1) - ref.low), `low ${hits}/${n}`).toBeLessThanOrEqual(0.00006);
        expect(Math.abs((got?.high ?? -1) - ref.high), `high ${hits}/${n}`).toBeLessThanOrEqual(0.00006);
      }
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('design effect of prompts asked several times', () => {
  it('is computed as by hand', () => {
    // p = 1/2 over 12 answers in 4 prompts. Cluster-robust variance: 4/3 · Σ(yᵢ − p·nᵢ)² / N².
    // (2,1,3,0 of 3): Σ = 0.25+0.25+2.25+2.25 = 5 → 4/3·5/144 = 0.046296; over p(1−p)/N = 0.020833 → 2.2222.
    const c = [
      { hits: 2, trials: 3 },
      { hits: 1, trials: 3 },
      { hits: 3, trials: 3 },
      { hits: 0, trials: 3 },
    ];
    expect(designEffect(c)).toBeCloseTo(2.2222, 4);
    expect(clusteredProportion(c).effectiveN).toBe(5.4);
    // All or none within each prompt: 4 at most (ratio 4) is capped at the mean cluster size, 3 → 4 effective answers.
    expect(
      designEffect([
        { hits: 3, trials: 3 },
        { hits: 0, trials: 3 },
        { hits: 3, trials: 3 },
        { hits: 0, trials: 3 },
      ]),
    ).toBe(3);
    // One answer per prompt: no clustering at all.
    expect(designEffect([0, 1, 1, 0, 1].map((hits) => ({ hits, trials: 1 })))).toBe(1);
    // A single prompt asked 5 times is one observation.
    expect(designEffect([{ hits: 2, trials: 5 }])).toBe(5);
    // Samples that agree no more than chance does: never below 1.
    expect(
      designEffect([
        { hits: 1, trials: 2 },
        { hits: 1, trials: 2 },
        { hits: 1, trials: 2 },
      ]),
    ).toBe(1);
  });
});

/** k prompts, each with its own chance of mentioning the brand (Beta around `mean`), asked `samples` times. */
function clusteredDraw(next: () => number, k: number, samples: number, mean: number, spread: number): ClusterCount[] {
  const z = normals(next);
  return Array.from({ length: k }, () => {
    const p = 1 / (1 + Math.exp(-(Math.log(mean / (1 - mean)) + spread * z())));
    let hits = 0;
    for (let s = 0; s < samples; s++) if (next() < p) hits++;
    return { hits, trials: samples };
  });
}

describe('coverage on simulated monitors', () => {
  it('the clustered mention-rate interval covers the truth about 95% of the time; plain Wilson does not', () => {
    const next = mulberry32(7);
    // The population mention rate of this logit-normal mix, by a large draw.
    const truth = clusteredDraw(next, 200_000, 1, 0.4, 1.5).reduce((s, c) => s + c.hits, 0) / 200_000;
    let clustered = 0;
    let naive = 0;
    const sims = 600;
    for (let i = 0; i < sims; i++) {
      const c = clusteredDraw(next, 40, 3, 0.4, 1.5);
      const iv = clusteredProportion(c).interval;
      if (iv && iv.low <= truth && truth <= iv.high) clustered++;
      const all = wilsonInterval(
        c.reduce((s, x) => s + x.hits, 0),
        c.reduce((s, x) => s + x.trials, 0),
      );
      if (all && all.low <= truth && truth <= all.high) naive++;
    }
    expect(clustered / sims).toBeGreaterThanOrEqual(0.92);
    expect(clustered / sims).toBeLessThanOrEqual(0.985);
    // Ignoring that samples of a prompt agree makes the interval too narrow.
    expect(naive / sims).toBeLessThan(clustered / sims - 0.04);
  });

  it('the prompt bootstrap of a ratio covers about 95% and agrees with the delta method on many prompts', () => {
    const next = mulberry32(11);
    const z = normals(next);
    // A ratio of sums per prompt (share of voice's shape): den brand-answer pairs, num those of the brand.
    const draw = (k: number): ClusterRatio[] =>
      Array.from({ length: k }, () => {
        const p = 1 / (1 + Math.exp(-(Math.log(0.3 / 0.7) + 1.2 * z())));
        const den = 1 + Math.floor(next() * 6);
        let num = 0;
        for (let j = 0; j < den; j++) if (next() < p) num++;
        return { num, den };
      });
    const big = draw(200_000);
    const truth = big.reduce((s, c) => s + c.num, 0) / big.reduce((s, c) => s + c.den, 0);
    let covered = 0;
    const sims = 300;
    for (let i = 0; i < sims; i++) {
      const iv = bootstrapRatio(draw(40), 1000 + i);
      if (iv && iv.low <= truth && truth <= iv.high) covered++;
    }
    expect(covered / sims).toBeGreaterThanOrEqual(0.91);
    expect(covered / sims).toBeLessThanOrEqual(0.985);
    // With 400 prompts the percentile bounds sit where the linearised (delta-method) interval puts them.
    const c = draw(400);
    const num = c.reduce((s, x) => s + x.num, 0);
    const den = c.reduce((s, x) => s + x.den, 0);
    const r = num / den;
    const k = c.length;
    const se = Math.sqrt((k / (k - 1)) * c.reduce((s, x) => s + (x.num - r * x.den) ** 2, 0)) / den;
    const iv = bootstrapRatio(c);
    expect(Math.abs((iv?.low ?? 0) - (r - Z * se))).toBeLessThan(0.01);
    expect(Math.abs((iv?.high ?? 0) - (r + Z * se))).toBeLessThan(0.01);
  });

  it('is the same for the same answers, and null on one prompt', () => {
    const c = [
      { num: 1, den: 2 },
      { num: 0, den: 1 },
      { num: 2, den: 3 },
      { num: 1, den: 1 },
    ];
    expect(bootstrapRatio(c)).toEqual(bootstrapRatio(c));
    expect(bootstrapRatio([{ num: 1, den: 2 }])).toBeNull();
    expect(
      bootstrapRatio([
        { num: 1, den: 2 },
        { num: 0, den: 0 },
      ]),
    ).toBeNull();
  });
});

describe("a group's figures", () => {
  const brand = { name: 'Hoka', aliases: [], domains: ['hoka.com'] };
  const rivals = [{ name: 'Nike', aliases: [], domains: ['nike.com'] }];
  const texts = [
    'Hoka and Nike both make good shoes.',
    'Nike is the pick here.',
    'Try Hoka first, then Nike.',
    'Nothing to add.',
    'Hoka.',
  ];
  const answered = (text: string, prompt?: string) => ({
    status: 'answered' as const,
    answer: { text, sources: [{ url: 'https://www.hoka.com/x' }, { url: 'https://nike.com/y' }] },
    ...(prompt ? { prompt } : {}),
  });

  it('with one answer per prompt, the mention rate interval is plain Wilson on the answers', () => {
    const m = visibilityMetrics(
      texts.map((t) => answered(t)),
      brand,
      rivals,
    );
    expect(m.mentionRate).toBe(0.6);
    expect(m.counts).toMatchObject({ answers: 5, prompts: 5, effectiveAnswers: 5 });
    expect(m.intervals.mentionRate).toEqual(wilsonInterval(3, 5));
    expect(m.intervals.ownCitationShare).not.toBeNull();
    expect(m.topCitedDomains.map((d) => d.shareInterval)).toHaveLength(2);
  });

  it('three identical samples of each prompt say no more than one: the interval does not narrow', () => {
    const once = visibilityMetrics(
      texts.map((t, i) => answered(t, `p${i}`)),
      brand,
      rivals,
    );
    const thrice = visibilityMetrics(
      texts.flatMap((t, i) => [answered(t, `p${i}`), answered(t, `p${i}`), answered(t, `p${i}`)]),
      brand,
      rivals,
    );
    expect(thrice.mentionRate).toBe(once.mentionRate);
    expect(thrice.counts).toMatchObject({ answers: 15, prompts: 5, effectiveAnswers: 5 });
    expect(thrice.intervals.mentionRate).toEqual(once.intervals.mentionRate);
    // Fifteen independent answers at the same rate would give a narrower one.
    const independent = wilsonInterval(9, 15);
    const width = (iv: { low: number; high: number } | null) => (iv ? iv.high - iv.low : 0);
    expect(width(independent)).toBeLessThan(width(thrice.intervals.mentionRate));
  });
});
