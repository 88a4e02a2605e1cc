/** Similarity formulas of §1.3, over token arrays produced by tokens.ts. */

export interface ScoredDoc {
  doc: number;
  score: number;
}

/** Read access to one query's BM25 scores (valid only inside `withScores`). */
export interface ScoreView {
  get(doc: number): number;
  /** The k best documents by score, ties by document index. */
  top(k: number): number[];
}

/**
 * Okapi BM25 over an inverted index (Robertson & Zaragoza 2009); idf never negative. Postings keep
 * the length-normalised term weight precomputed and scores accumulate in a reused typed array.
 * Measured on the worst case of §2.13 (a 200,000-character answer, 25 pages of 60,000 characters,
 * a 31-word vocabulary so every posting list is dense): 27 s with a Map accumulator, 5 s with this.
 */
export class Bm25Index {
  private readonly postings = new Map<string, { docs: Int32Array; weights: Float64Array }>();
  private readonly acc: Float64Array;
  private readonly seen: Uint8Array;
  readonly size: number;

  constructor(docs: ReadonlyArray<readonly string[]>, k1 = 1.2, b = 0.75) {
    this.size = docs.length;
    this.acc = new Float64Array(this.size);
    this.seen = new Uint8Array(this.size);
    const avgdl = this.size === 0 ? 0 : docs.reduce((a, d) => a + d.length, 0) / this.size;
    const lists = new Map<string, Array<[number, number]>>();
    docs.forEach((d, i) => {
      const tf = new Map<string, number>();
      for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
      const norm = k1 * (1 - b + (b * d.length) / (avgdl || 1));
      for (const [t, n] of tf) {
        let list = lists.get(t);
        if (!list) {
          list = [];
          lists.set(t, list);
        }
        list.push([i, (n * (k1 + 1)) / (n + norm)]);
      }
    });
    for (const [t, list] of lists) {
      this.postings.set(t, {
        docs: Int32Array.from(list.map((x) => x[0])),
        weights: Float64Array.from(list.map((x) => x[1])),
      });
    }
  }

  /** `ln(1 + (N − n_t + 0.5)/(n_t + 0.5))`; also defined for tokens absent from every document. */
  idf(t: string): number {
    const n = this.postings.get(t)?.docs.length ?? 0;
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** Scores a query and hands a view to `fn`; the buffers are reset afterwards. */
  withScores<R>(query: Iterable<string>, fn: (view: ScoreView) => R): R {
    const touched: number[] = [];
    for (const t of new Set(query)) {
      const p = this.postings.get(t);
      if (!p) continue;
      const idf = this.idf(t);
      for (let i = 0; i < p.docs.length; i++) {
        const doc = p.docs[i] as number;
        if (this.seen[doc] === 0) {
          this.seen[doc] = 1;
          touched.push(doc);
        }
        this.acc[doc] = (this.acc[doc] as number) + idf * (p.weights[i] as number);
      }
    }
    const acc = this.acc;
    const view: ScoreView = {
      get: (doc) => acc[doc] ?? 0,
      top: (k) => topK(touched, acc, k),
    };
    try {
      return fn(view);
    } finally {
      for (const doc of touched) {
        acc[doc] = 0;
        this.seen[doc] = 0;
      }
    }
  }

  /** Top k documents with their scores (convenience for small indexes and tests). */
  top(query: Iterable<string>, k: number): ScoredDoc[] {
    return this.withScores(query, (v) => v.top(k).map((doc) => ({ doc, score: v.get(doc) })));
  }
}

function topK(docs: readonly number[], score: Float64Array, k: number): number[] {
  const best: number[] = [];
  const better = (a: number, b: number) =>
    (score[a] as number) > (score[b] as number) || (score[a] === score[b] && a < b);
  for (const d of docs) {
    if (best.length === k && !better(d, best[k - 1] as number)) continue;
    let i = best.length;
    while (i > 0 && better(d, best[i - 1] as number)) i--;
    best.splice(i, 0, d);
    if (best.length > k) best.pop();
  }
  return best;
}

/** IDF-weighted containment of a short text's token set in a passage's token set. */
export function containment(
  unit: ReadonlySet<string>,
  passage: ReadonlySet<string>,
  idf: (t: string) => number,
): number {
  let num = 0;
  let den = 0;
  for (const t of unit) {
    const w = idf(t);
    den += w;
    if (passage.has(t)) num += w;
  }
  return den === 0 ? 0 : num / den;
}

/** Multiset n-gram containment (the recall side of ROUGE-n, Lin 2004). */
export function ngramContainment(unitGrams: readonly string[], passageGrams: ReadonlyMap<string, number>): number {
  if (unitGrams.length === 0) return 0;
  const need = counts(unitGrams);
  let hit = 0;
  for (const [g, n] of need) hit += Math.min(n, passageGrams.get(g) ?? 0);
  return hit / unitGrams.length;
}

export function counts(items: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Cosine of two sparse vectors. */
export function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
