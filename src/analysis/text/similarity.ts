/** Similarity formulas of §1.3, over token arrays produced by tokens.ts. */

export interface ScoredDoc {
  doc: number;
  score: number;
}

/** Okapi BM25 over an inverted index (Robertson & Zaragoza 2009); idf never negative. */
export class Bm25Index {
  private readonly postings = new Map<string, Array<[doc: number, tf: number]>>();
  private readonly lengths: number[];
  private readonly avgdl: number;
  readonly size: number;

  constructor(
    docs: ReadonlyArray<readonly string[]>,
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.size = docs.length;
    this.lengths = docs.map((d) => d.length);
    this.avgdl = this.size === 0 ? 0 : this.lengths.reduce((a, c) => a + c, 0) / this.size;
    docs.forEach((d, i) => {
      const tf = new Map<string, number>();
      for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push([i, n]);
      }
    });
  }

  /** `ln(1 + (N − n_t + 0.5)/(n_t + 0.5))`; also defined for tokens absent from every document. */
  idf(t: string): number {
    const n = this.postings.get(t)?.length ?? 0;
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** Scores of every document sharing at least one query token, by document index. */
  scores(query: Iterable<string>): Map<number, number> {
    const acc = new Map<number, number>();
    for (const t of new Set(query)) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = this.idf(t);
      for (const [doc, tf] of list) {
        const len = this.lengths[doc] ?? 0;
        const s = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * len) / (this.avgdl || 1)));
        acc.set(doc, (acc.get(doc) ?? 0) + s);
      }
    }
    return acc;
  }

  /** Top k documents, ties broken by document index. */
  top(query: Iterable<string>, k: number): ScoredDoc[] {
    return [...this.scores(query)]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, k);
  }
}

/** IDF-weighted containment of a short text's token set in a passage's token set. */
export function containment(unit: ReadonlySet<string>, passage: ReadonlySet<string>, idf: (t: string) => number): number {
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
