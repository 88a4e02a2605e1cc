import type { SourceInfluenceConfig } from '../config.js';
import { Bm25Index, containment, ngramContainment } from '../text/similarity.js';
import { findContradiction, missingSpecific } from './judge/contradiction.js';
import type { PairFeatures } from './judge/features.js';
import { UNSUPPORTED_EMPTY, type PairJudgement } from './judge/labels.js';
import { verdictOf } from './judge/verdict.js';
import { bigramCounts, char4Counts, featuresIn, type Features, type Passage, type PassageIndex } from './passages.js';

/**
 * Unit-to-source alignment of §2.6 (lexical): BM25 candidates, IDF-weighted containment plus n-gram
 * containment, an explicit number check, and the joint support of a unit's cited set.
 */
export interface UnitAlignment {
  trivial: boolean;
  /**
   * s_uj per source: the judged support that attribution uses (0 when the source had no passage, or when the judge
   * found the source contradicting the unit).
   */
  support: number[];
  /** The judge's label, score, evidence and reason per source. */
  judgements: PairJudgement[];
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
  readonly passages: readonly Passage[];
  private readonly perSource: readonly number[][];
  private readonly sentences: readonly string[][];
  private readonly sentencePassages = new Map<string, Passage>();

  constructor(
    index: PassageIndex,
    private readonly cfg: SourceInfluenceConfig,
  ) {
    const passages = index.passages;
    this.passages = passages;
    this.perSource = index.perSource;
    this.sentences = index.sentencesPerSource;
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
      // The best passage of every source is scored too: every source gets a judgement, and a source can support a
      // unit that does not cite it (citations are one signal, not a gate).
      for (let j = 0; j < nSources; j++) {
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
    const judgements = support.map((score, j) => this.judge(u.features, j, best[j] ?? null, score, trivial));
    judgements.forEach((jd, j) => {
      support[j] = jd.expectedSupport;
    });
    // Joint support (ALCE recall) reads the cited sources that do not contradict the unit.
    const citedReading = [...u.cited].filter((j) => judgements[j]?.label !== 'contradicted');
    // At least the judged support of each cited source alone (its evidence window may span two passages).
    const jointOf = (set: number[]) =>
      set.length === 0 ? 0 : Math.max(this.lex(u.features, bestOf(set)), ...set.map((k) => support[k] ?? 0));
    const joint = jointOf(citedReading);
    const jointWithout = new Map<number, number>();
    if (u.cited.size >= 2) {
      for (const j of u.cited) jointWithout.set(j, jointOf(citedReading.filter((k) => k !== j)));
    }
    return { trivial, support, judgements, best, joint, jointWithout };
  }

  /**
   * The lexical judge of one (unit, source) pair (docs/analysis.md#judging-support): the best passage's score, raised
   * by the evidence window (the best-matching sentence and its neighbours, which may straddle two passages), then the
   * contradiction rule on the best-matching clause, then the thresholds.
   */
  private judge(
    u: Features,
    j: number,
    bestPassage: number | null,
    passageScore: number,
    trivial: boolean,
  ): PairJudgement {
    if (bestPassage === null) return UNSUPPORTED_EMPTY;
    const p = this.passages[bestPassage] as Passage;
    const lang = u.language;
    let score = passageScore;
    let evidence = p.text;
    let sentence = p.text;
    let windowPassage: Passage = p;
    let position = 0;
    let pageChars = p.text.length;
    if (p.sentenceRange) {
      const sents = this.sentences[j] ?? [];
      const [a, b] = p.sentenceRange;
      let k = a;
      let bestC = -1;
      for (let i = a; i < b; i++) {
        const c = containment(u.tokenSet, this.sentenceOf(j, i, lang).tokenSet, this.idf);
        if (c > bestC) {
          bestC = c;
          k = i;
        }
      }
      evidence = sents.slice(Math.max(0, k - 1), k + 2).join(' ');
      windowPassage = this.passageFor(`w${j}:${k}`, evidence, lang, j);
      score = Math.max(score, this.lex(u, [windowPassage]));
      sentence = sents[k] ?? p.text;
      position = sents.length > 1 ? k / (sents.length - 1) : 0;
      pageChars = this.sourceChars(j);
    }
    const overlap = containment(u.tokenSet, this.passageFor(`s:${sentence}`, sentence, lang, -1).tokenSet, this.idf);
    const candidate = trivial
      ? null
      : findContradiction({
          claim: u.text,
          sentence,
          language: lang,
          minRest: this.cfg.judge.nameMinRest,
          negationMinOverlap: this.cfg.judge.negationMinOverlap,
        });
    const missing = trivial ? false : missingSpecific(u.text, evidence);
    const features = this.pairFeatures(u, windowPassage, { score, passageScore, overlap, position, pageChars });
    const basis = {
      overlap,
      candidate,
      missingSpecific: missing,
      features: { ...features, missingSpecific: missing, contradiction: candidate?.reason ?? null },
    };
    const verdict = verdictOf(score, basis, lang, this.cfg);
    const contradiction = verdict.label === 'contradicted' ? candidate : null;
    return {
      label: verdict.label,
      score,
      evidence,
      reason: contradiction?.reason ?? null,
      changed: contradiction ? { claim: contradiction.claim, page: contradiction.page } : null,
      judge: 'lexical',
      confidence: verdict.confidence,
      expectedSupport: verdict.expectedSupport,
      basis,
    };
  }

  /** The learned judge's measurements of the claim against its evidence window (judge/features.ts). */
  private pairFeatures(
    u: Features,
    window: Passage,
    m: { score: number; passageScore: number; overlap: number; position: number; pageChars: number },
  ): PairFeatures {
    const gramsOf = u.language === 'ko' ? char4Counts(window) : bigramCounts(window);
    let numberHits = 0;
    for (const n of u.numbers) if (window.numbers.has(n)) numberHits++;
    const unmatched = u.words.filter((w) => !window.tokenSet.has(w)).length;
    return {
      score: m.score,
      passageScore: m.passageScore,
      windowContainment: containment(u.tokenSet, window.tokenSet, this.idf),
      windowNgrams: ngramContainment(u.grams, gramsOf),
      overlap: m.overlap,
      hasNumbers: u.numbers.size > 0,
      numberShare: u.numbers.size > 0 ? numberHits / u.numbers.size : 0,
      missingSpecific: false,
      contradiction: null,
      claimWords: u.words.length,
      unmatchedWords: unmatched,
      pageChars: m.pageChars,
      position: m.position,
    };
  }

  private readonly charsPerSource = new Map<number, number>();

  private sourceChars(j: number): number {
    let n = this.charsPerSource.get(j);
    if (n === undefined) {
      n = (this.sentences[j] ?? []).reduce((acc, s) => acc + s.length, 0);
      this.charsPerSource.set(j, n);
    }
    return n;
  }

  private sentenceOf(j: number, i: number, lang: Features['language']): Features {
    return this.passageFor(`${j}:${i}`, this.sentences[j]?.[i] ?? '', lang, j);
  }

  /** A sentence, clause or evidence window as a passage (scored like one), built once per task. */
  private passageFor(key: string, text: string, lang: Features['language'], source: number): Passage {
    let p = this.sentencePassages.get(key);
    if (!p) {
      p = {
        ...featuresIn(text, lang),
        source,
        fromSnippet: false,
        sentenceRange: null,
        bigramCounts: null,
        char4Counts: null,
      };
      this.sentencePassages.set(key, p);
    }
    return p;
  }

  /** C(prompt, all text of source j): IDF-weighted containment of the prompt in the source's passages. */
  relevance(prompt: Features, source: number): number {
    const own = this.perSource[source] ?? [];
    const set = new Set<string>();
    for (const pi of own) for (const t of (this.passages[pi] as Passage).tokenSet) set.add(t);
    return containment(prompt.tokenSet, set, this.idf);
  }
}
