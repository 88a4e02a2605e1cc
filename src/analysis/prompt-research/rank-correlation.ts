/**
 * Rank agreement between two orderings of the same items (docs/analysis.md#s3-7, "demand check"):
 * Spearman's rho as the Pearson correlation of mid-ranks (ties get the mean of the ranks they span)
 * and Kendall's tau-b, which corrects tau for ties on either side. Both are in [-1, 1]; null when
 * either side is constant (the correlation is undefined) or fewer than two pairs are given.
 */

/** 1-based ranks, ascending by value; tied values share the mean of their positions. */
export function midRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x || a.i - b.i);
  const ranks = new Array<number>(xs.length).fill(0);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && (order[end + 1] as { x: number }).x === (order[start] as { x: number }).x) end++;
    const mean = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[(order[k] as { i: number }).i] = mean;
    start = end + 1;
  }
  return ranks;
}

function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

export function spearmanRho(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError('spearmanRho: unequal lengths');
  return pearson(midRanks(xs), midRanks(ys));
}

/** tau-b = (C − D) / √((n0 − n1)(n0 − n2)), n1 and n2 the pairs tied in x and in y. O(n²); n ≤ a few hundred. */
export function kendallTauB(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError('kendallTauB: unequal lengths');
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign((xs[i] as number) - (xs[j] as number));
      const dy = Math.sign((ys[i] as number) - (ys[j] as number));
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiedX) * (n0 - tiedY));
  return denom === 0 ? null : (concordant - discordant) / denom;
}
