import type { SourceInfluenceConfig } from '../config.js';
import { Bm25Index, containment, ngramContainment } from '../text/similarity.js';
import { bigramCounts, char4Counts, type Features, type Passage } from './passages.js';

/**
 * Unit-to-source alignment of §2.6 (lexical): BM25 candidates, IDF-weighted containment plus n-gram
 * containment, an explicit number check, and the joint support of a unit's cited set.
 */
export interface UnitAlignment {
  trivial: boolean;
  /** s_uj per source (0 when the source had no candidate passage). */
  support: number[];
  /** Argmax passage per source (evidence), null when none. */
  best: Array<number | null>;
  /** Joint support of the cited set C_u (ALCE recall analogue); 0 when nothing is cited. */
  joint: number;
  /** For |C_u| ≥ 2: joint support of C_u without j, by source. */
  jointWithout: Map<number, number>;
}

export interface AlignInput {
  features: Features;
  /** Distinct valid sources cited by the unit (C_u). */
  cited: ReadonlySet<number>;
}

export class Aligner {
  readonly index: Bm25Index;

  constructor(
    readonly passages: readonly Passage[],
    private readonly perSource: readonly number[][],
    private readonly cfg: SourceInfluenceConfig,
  ) {
    this.index = new Bm25Index(
      passages.map((p) => p.tokens),
      cfg.bm25.k1,
      cfg.bm25.b,
    );
  }

  readonly idf = (t: string): number => this.index.idf(t);

  /** lex(u, P) over the union of one or more passages. */
  lex(u: Features, ps: readonly Passage[]): number {
    if (ps.length === 0) return 0;
    const tokenSet = ps.length === 1 ? (ps[0] as Passage).tokenSet : new Set(ps.flatMap((p) => [...p.tokenSet]));
    const c = containment(u.tokenSet, tokenSet, this.idf);
    const gramsOf = (p: Passage) => (u.language === 'ko' ? char4Counts(p) : bigramCounts(p));
    let grams: ReadonlyMap<string, number>;
    if (ps.length === 1) grams = gramsOf(ps[0] as Passage);
    else {
      const merged = new Map<string, number>();
      for (const p of ps) for (const [g, n] of gramsOf(p)) merged.set(g, Math.max(n, merged.get(g) ?? 0));
      grams = merged;
    }
    const r = ngramContainment(u.grams, grams);
    const { wContain, wNgram, numBonus, numPenalty } = this.cfg.lex;
    let lex = wContain * c + wNgram * r;
    if (u.numbers.size > 0) {
      let hit = 0;
      for (const n of u.numbers) if (ps.some((p) => p.numbers.has(n))) hit++;
      const num = hit / u.numbers.size;
      lex = Math.min(1, lex + numBonus * num);
      if (num === 0) lex *= numPenalty;
    }
    return lex;
  }

  align(u: AlignInput): UnitAlignment {
    const nSources = this.perSource.length;
    const support = new Array<number>(nSources).fill(0);
    const best = new Array<number | null>(nSources).fill(null);
    const trivial = u.features.words.length < 3;
    const candidates = this.index.withScores(u.features.tokens, (scores) => {
      const chosen = new Set(scores.top(this.cfg.retrieval.topK));
      // The best passage of every cited source is scored too, so cited sources always get a value.
      for (const j of u.cited) {
        const own = this.perSource[j] ?? [];
        if (own.length === 0) continue;
        let top = own[0] as number;
        for (const p of own) if (scores.get(p) > scores.get(top)) top = p;
        chosen.add(top);
      }
      return chosen;
    });
    for (const pi of [...candidates].sort((a, b) => a - b)) {
      const p = this.passages[pi] as Passage;
      const s = this.lex(u.features, [p]);
      if (best[p.source] === null || s > (support[p.source] ?? 0)) {
        support[p.source] = s;
        best[p.source] = pi;
      }
    }
    const bestOf = (js: Iterable<number>) =>
      [...js]
        .map((j) => best[j])
        .filter((x): x is number => x !== null && x !== undefined)
        .map((i) => this.passages[i] as Passage);
    const joint = u.cited.size === 0 ? 0 : this.lex(u.features, bestOf(u.cited));
    const jointWithout = new Map<number, number>();
    if (u.cited.size >= 2) {
      for (const j of u.cited) jointWithout.set(j, this.lex(u.features, bestOf([...u.cited].filter((k) => k !== j))));
    }
    return { trivial, support, best, joint, jointWithout };
  }

  /** C(prompt, all text of source j): IDF-weighted containment of the prompt in the source's passages. */
  relevance(prompt: Features, source: number): number {
    const own = this.perSource[source] ?? [];
    const set = new Set<string>();
    for (const pi of own) for (const t of (this.passages[pi] as Passage).tokenSet) set.add(t);
    return containment(prompt.tokenSet, set, this.idf);
  }
}
