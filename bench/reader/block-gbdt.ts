/**
 * Gradient-boosted decision trees with the logistic loss (second-order steps, as XGBoost takes them), small enough
 * to read: each feature is cut once into quantile bins, each tree grows level by level to a fixed depth, and every
 * step is deterministic (no sampling), so the same data always yields the same model.
 */
import type { BlockModel, Tree } from './block-model.js';

export interface Sample {
  f: readonly number[];
  /** 1 for boilerplate, 0 for article text. */
  y: number;
  w: number;
}

export interface BoostOptions {
  trees: number;
  depth: number;
  rate: number;
  /** L2 penalty on a leaf's value. */
  lambda: number;
  /** The least summed hessian (weighted) a leaf may hold. */
  minChild: number;
  bins: number;
}

export const DEFAULT_BOOST: BoostOptions = { trees: 150, depth: 3, rate: 0.1, lambda: 5, minChild: 5, bins: 32 };

/** Each feature's cut points: the distinct quantiles of its values. */
function cutPoints(samples: readonly Sample[], bins: number): number[][] {
  const nf = samples[0]?.f.length ?? 0;
  const cuts: number[][] = [];
  for (let j = 0; j < nf; j++) {
    const v = samples.map((s) => s.f[j] ?? 0).sort((a, b) => a - b);
    const c = new Set<number>();
    for (let k = 1; k < bins; k++) c.add(v[Math.floor((k * v.length) / bins)] ?? 0);
    const sorted = [...c].sort((a, b) => a - b);
    // A cut at the largest value splits nothing off.
    cuts.push(sorted.filter((x) => x < (v[v.length - 1] ?? 0)));
  }
  return cuts;
}

/** The bin of each sample's feature: the number of cut points below its value (value <= cut goes left). */
function binned(samples: readonly Sample[], cuts: number[][]): Uint8Array[] {
  return cuts.map((c, j) => {
    const out = new Uint8Array(samples.length);
    samples.forEach((s, i) => {
      const x = s.f[j] ?? 0;
      let lo = 0;
      let hi = c.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x <= (c[mid] ?? 0)) hi = mid;
        else lo = mid + 1;
      }
      out[i] = lo;
    });
    return out;
  });
}

export function boost(samples: readonly Sample[], o: BoostOptions = DEFAULT_BOOST): BlockModel {
  const n = samples.length;
  const cuts = cutPoints(samples, o.bins);
  const bins = binned(samples, cuts);
  let pos = 0;
  let all = 0;
  for (const s of samples) {
    pos += s.y * s.w;
    all += s.w;
  }
  const base = Math.log(Math.max(1e-6, pos) / Math.max(1e-6, all - pos));
  const z = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: Tree[] = [];
  for (let t = 0; t < o.trees; t++) {
    for (let i = 0; i < n; i++) {
      const s = samples[i] as Sample;
      const p = 1 / (1 + Math.exp(-(z[i] ?? 0)));
      g[i] = (p - s.y) * s.w;
      h[i] = Math.max(1e-6, p * (1 - p)) * s.w;
    }
    const nodes: Array<[number, number, number, number]> = [];
    const leafOf = new Int32Array(n);
    grow(
      0,
      Array.from({ length: n }, (_, i) => i),
      0,
    );
    trees.push(nodes);
    for (let i = 0; i < n; i++) z[i] = (z[i] ?? 0) + (nodes[leafOf[i] ?? 0]?.[1] ?? 0);

    function grow(at: number, idx: number[], depth: number): void {
      nodes[at] = [-1, 0, 0, 0];
      let G = 0;
      let H = 0;
      for (const i of idx) {
        G += g[i] ?? 0;
        H += h[i] ?? 0;
      }
      const leaf = () => {
        nodes[at] = [-1, +((-G / (H + o.lambda)) * o.rate).toFixed(5), 0, 0];
        for (const i of idx) leafOf[i] = at;
      };
      if (depth >= o.depth || H < 2 * o.minChild) {
        leaf();
        return;
      }
      let best = { gain: 1e-9, j: -1, b: -1 };
      const parentScore = (G * G) / (H + o.lambda);
      for (let j = 0; j < cuts.length; j++) {
        const nb = (cuts[j]?.length ?? 0) + 1;
        if (nb < 2) continue;
        const gb = new Float64Array(nb);
        const hb = new Float64Array(nb);
        const col = bins[j] as Uint8Array;
        for (const i of idx) {
          const b = col[i] ?? 0;
          gb[b] = (gb[b] ?? 0) + (g[i] ?? 0);
          hb[b] = (hb[b] ?? 0) + (h[i] ?? 0);
        }
        let gl = 0;
        let hl = 0;
        for (let b = 0; b < nb - 1; b++) {
          gl += gb[b] ?? 0;
          hl += hb[b] ?? 0;
          const hr = H - hl;
          if (hl < o.minChild || hr < o.minChild) continue;
          const gr = G - gl;
          const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parentScore;
          if (gain > best.gain) best = { gain, j, b };
        }
      }
      if (best.j < 0) {
        leaf();
        return;
      }
      const split = cuts[best.j]?.[best.b] ?? 0;
      const col = bins[best.j] as Uint8Array;
      const left = idx.filter((i) => (col[i] ?? 0) <= best.b);
      const right = idx.filter((i) => (col[i] ?? 0) > best.b);
      const l = nodes.length;
      nodes[l] = [-1, 0, 0, 0];
      const r = nodes.length;
      nodes[r] = [-1, 0, 0, 0];
      nodes[at] = [best.j, split, l, r];
      grow(l, left, depth + 1);
      grow(r, right, depth + 1);
    }
  }
  return { base: +base.toFixed(5), trees, threshold: 0.5, minChars: 0 };
}
