import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/analysis/visibility/intervals.js';
import { THRESHOLD_JUDGE } from './threshold-judge.js';
import { analyzeSourceInfluence } from '../../src/analysis/source-influence/analyze.js';
import { analyzeCore, withModelJudgements } from '../../src/analysis/source-influence/core.js';
import { checkPairs } from '../../src/analysis/source-influence/model-check.js';
import { findMarkers } from '../../src/analysis/source-influence/markers.js';
import type { CitationIn, FetchRecord } from '../../src/analysis/source-influence/types.js';
import { segmentAnswer } from '../../src/analysis/source-influence/units.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';

const cfg = THRESHOLD_JUDGE;

const okPage = (text: string): FetchRecord => readPageRecord(text);

async function analyze(
  answer: string,
  citations: CitationIn[],
  records: Array<FetchRecord | null>,
  prompt: string | null = null,
): Promise<any> {
  return (await analyzeSourceInfluence({ answer, prompt, citations, analysis: null }, records, cfg)).result;
}

describe('worked example of §2.15', () => {
  // u0: 10 words citing [1]; u1: 6 words citing [1][2]; u2: 4 words, no citation; no source text.
  const answer =
    'Alpha bravo charlie delta echo foxtrot golf hotel india juliet [1]. ' +
    'Kilo lima mike november oscar papa [1][2]. Quebec romeo sierra tango.';
  let r: any;
  let c1: any;
  let c2: any;
  beforeAll(async () => {
    r = await analyze(
      answer,
      [{ url: 'https://one.example.com/a' }, { url: 'https://two.example.org/b' }],
      [null, null],
    );
    [c1, c2] = r.sources;
  });

  it('segments three units with the stated word counts', async () => {
    expect(r.answer.units).toBe(3);
    expect(r.answer.words).toBe(20);
  });

  it("reproduces the GEO paper's word counts (eq. 2) and position-adjusted counts (eq. 3), raw and normalised", () => {
    // eq. 3 with |S| = 3: c1 = (10·e^0 + 6/2·e^(−1/3)) / 20 = 0.6075; c2 = 3·e^(−1/3) / 20 = 0.1075.
    expect(c1.geo).toMatchObject({
      wordCount: 0.65,
      positionAdjustedWordCount: 0.6075,
      normalizedWordCount: 0.8125,
      normalizedPositionAdjustedWordCount: 0.8497,
    });
    expect(c2.geo).toMatchObject({
      wordCount: 0.15,
      positionAdjustedWordCount: 0.1075,
      normalizedWordCount: 0.1875,
      normalizedPositionAdjustedWordCount: 0.1503,
    });
  });

  it('computes the subjective-impression proxies without a model, click likelihood left null', () => {
    // No page text and no query: influence, uniqueness and relevance have no basis; position e^(−pos/|S|),
    // count 2/3 and 1/3, diversity 16/20 and 6/20 distinct words; the impression averages the normalised facets.
    expect(c1.geo.subjective).toEqual({
      basis: 'lexical_proxies',
      relevance: null,
      influence: 0,
      uniqueness: 0,
      position: 1,
      count: 0.6667,
      diversity: 0.8,
      clickLikelihood: null,
      impression: 0.6588,
    });
    expect(c2.geo.subjective).toMatchObject({ position: 0.7165, count: 0.3333, diversity: 0.3, impression: 0.3412 });
  });

  it('reproduces the influence shares 0.7822 / 0.1204 and unattributed 0.0974', async () => {
    expect(c1.influence.share).toBe(0.7822);
    expect(c2.influence.share).toBe(0.1204);
    expect(r.summary.unattributedShare).toBe(0.0974);
    // By share alone c1 is high and c2 medium; no text of either was read, so no claim rests on them and the level
    // shown is held at low, with the reason (docs/analysis.md §2.8).
    expect(c1.influence).toMatchObject({ score: 78, rank: 1, levelByShare: 'high', level: 'low' });
    expect(c2.influence).toMatchObject({ score: 12, rank: 2, levelByShare: 'medium', level: 'low' });
    expect(c1.influence.levelNote).toBe(
      'It is cited for 2 claims, but no text of it could be read, so no claim rests on its content: ' +
        'its share alone would rate it high; the level is held at low.',
    );
    expect(r.summary.topSourceId).toBe('c1');
  });

  it('counts citations per source (Profound citation share within one answer)', async () => {
    expect(c1.citations).toEqual({ count: 2, citedUnits: 2, firstCitedUnit: 0, citationShare: 0.6667 });
    expect(c2.citations).toEqual({ count: 1, citedUnits: 1, firstCitedUnit: 1, citationShare: 0.3333 });
  });
});

describe('marker grammar (§2.5)', () => {
  it('expands lists and ranges, reads footnotes and lenticular markers', async () => {
    const nums = (t: string) => findMarkers(t, false).flatMap((m) => m.numbers);
    expect(nums('a [1, 3] b')).toEqual([1, 3]);
    expect(nums('a [2-4] b [5–6]')).toEqual([2, 3, 4, 5, 6]);
    expect(nums('a [^2] b')).toEqual([2]);
    expect(nums('a 【3†source】 b 【4】')).toEqual([3, 4]);
    expect(nums('see [the docs](https://x.test) [7]')).toEqual([7]);
  });

  it('reads superscripts only when the answer has no bracketed markers', async () => {
    const sup = segmentAnswer('Foam absorbs most of the shock¹. Lugs grip well in mud².');
    expect(sup.units.map((u) => u.markers.flatMap((m) => m.numbers))).toEqual([[1], [2]]);
    const mixed = segmentAnswer('Foam absorbs most of the shock¹ [2]. Lugs grip well in mud.');
    expect(mixed.units[0]?.markers.flatMap((m) => m.numbers)).toEqual([2]);
  });

  it('gives a marker standing after the period to the sentence before it', async () => {
    const s = segmentAnswer('Foam absorbs most of the shock in long runs. [1] Lugs grip well in deep mud. [2]');
    expect(s.units.map((u) => u.markers.flatMap((m) => m.numbers))).toEqual([[1], [2]]);
  });

  it('keeps markers glued to a period with their sentence (footnote and lenticular forms)', async () => {
    const foot = segmentAnswer(
      'Short answer.[^1] More text follows here for sure.[^2]\n\n[^1]: https://a.example.com/x\n[^2]: https://b.example.com/y',
    );
    expect(foot.units.map((u) => [u.plainText, u.markers.flatMap((m) => m.numbers)])).toEqual([
      ['Short answer.', [1]],
      ['More text follows here for sure.', [2]],
    ]);
    expect(foot.referencesBlock).toBe(true);
    const lent = segmentAnswer('First claim is here.【1†source】Second claim is also here.【2†news】');
    expect(lent.units.map((u) => u.markers.flatMap((m) => m.numbers))).toEqual([[1], [2]]);
  });

  it('detects a references block, maps markers through it and makes no units of it', async () => {
    const answer =
      'Foam absorbs most of the shock in long runs [1].\nLugs grip well in deep mud [2].\n\nSources:\n[1] Foam study https://b.example.com/foam\n[2] Mud guide https://a.example.com/mud';
    const r = await analyze(
      answer,
      [{ url: 'https://a.example.com/mud' }, { url: 'https://b.example.com/foam' }],
      [null, null],
    );
    expect(r.answer.referencesBlock).toBe(true);
    expect(r.answer.units).toBe(2);
    expect(r.sources[0].citations.firstCitedUnit).toBe(1); // [2] → a.example.com/mud = c1
    expect(r.sources[1].citations.firstCitedUnit).toBe(0);
  });

  it('uses distinct citation positions, reports invalid markers and unmatched links', async () => {
    const answer =
      'Foam absorbs most of the shock in long runs [5]. Lugs grip well in deep mud [9]. Rock plates protect the foot ([guide](https://other.example.net/x)).';
    const r = await analyze(
      answer,
      [
        { url: 'https://a.example.com/', position: 5 },
        { url: 'https://b.example.com/', position: 6 },
      ],
      [null, null],
    );
    expect(r.sources[0].citations.count).toBe(1);
    expect(r.answer.invalidMarkers).toEqual([{ marker: '[9]', unitIndex: 1 }]);
    expect(r.answer.unmatchedLinks).toEqual([{ url: 'https://other.example.net/x', unitIndex: 2 }]);
    expect(r.warnings.map((w: { code: string }) => w.code)).toContain('INVALID_CITATION_MARKER');
  });

  it('treats markers as 0-based when they run from 0 to N−1', async () => {
    const r = await analyze(
      'Foam absorbs most of the shock in long runs [0]. Lugs grip well in deep mud [1].',
      [{ url: 'https://a.example.com/' }, { url: 'https://b.example.com/' }],
      [null, null],
    );
    expect(r.sources.map((s: any) => s.citations.firstCitedUnit)).toEqual([0, 1]);
  });

  it('merges duplicate URLs: the later one is a duplicate and its markers count for the first', async () => {
    const r = await analyze(
      'Foam absorbs most of the shock in long runs [2].',
      [{ url: 'https://a.example.com/x?utm_source=t' }, { url: 'https://a.example.com/x' }],
      [null, null],
    );
    expect(r.sources[1].duplicateOf).toBe('c1');
    expect(r.sources[1].fetch.status).toBe('duplicate');
    expect(r.sources[0].citations.count).toBe(1);
    expect(r.summary.sources).toBe(1);
  });

  it('makes each list item and table row a unit, excludes code and headings', async () => {
    const s = segmentAnswer(
      '## Picks\n\n1. Acme Glide is light and fast [1]\n2. Brooks Ghost is soft and durable ' +
        '[2]\n\n| Model | Weight |\n|---|---|\n| Glide | 250 g |\n\n```\nconst x = 1;\n```',
    );
    expect(s.units.map((u) => [u.kind, u.listItem])).toEqual([
      ['list_item', 1],
      ['list_item', 2],
      ['table_row', null],
      ['table_row', null],
    ]);
  });
});

describe('ALCE-style citation precision with the lexical judge (§2.9)', () => {
  const S1 = 'Cushioned running shoes reduce impact forces on the knees during long runs. Foam midsoles absorb shock.';
  const S2 = 'Trail models add a rock plate that protects the foot on rocky terrain. Lugs grip mud well.';
  const S3 = 'Bananas are rich in potassium and are a popular snack among athletes.';
  const cites = [
    { url: 'https://a.example.com/1' },
    { url: 'https://b.example.com/2' },
    { url: 'https://c.example.com/3' },
  ];
  const run = async (answer: string) => (await analyze(answer, cites, [okPage(S1), okPage(S2), okPage(S3)])).summary;

  it('one citation that supports the statement is precise', async () => {
    expect(await run('Cushioned running shoes reduce impact forces on the knees during long runs [1].')).toMatchObject({
      citationRecall: 1,
      citationPrecision: 1,
    });
  });

  it('one citation that does not support it is not', async () => {
    expect(await run('Cushioned running shoes reduce impact forces on the knees during long runs [3].')).toMatchObject({
      citationRecall: 0,
      citationPrecision: 0,
    });
  });

  it('a redundant second citation is imprecise', async () => {
    expect(
      await run('Cushioned running shoes reduce impact forces on the knees during long runs [1][3].'),
    ).toMatchObject({ citationRecall: 1, citationPrecision: 0.5 });
  });

  it('joint-only support makes both citations precise', async () => {
    expect(
      await run(
        'Cushioned running shoes reduce impact on knees, and trail models add a rock plate for rocky terrain [1][2].',
      ),
    ).toMatchObject({ citationRecall: 1, citationPrecision: 1 });
  });

  it('credits a source that supports an uncited statement (used without citation)', async () => {
    const r = await analyze('Cushioned running shoes reduce impact forces on the knees during long runs [3].', cites, [
      okPage(S1),
      okPage(S2),
      okPage(S3),
    ]);
    expect(r.sources[0].content.usedWithoutCitation).toBe(true);
    expect(r.summary.groundedShare).toBe(1);
  });
});

describe('model judgements replace lexical support (§2.10)', () => {
  const page =
    'Runners with a history of knee pain often choose cushioned shoes. A wide toe ' +
    'box helps runners with broad feet, and a firm heel counter keeps the foot stable.';
  const answer = 'Runners who have knee pain often pick cushioned shoes, and a broad toe box suits wide feet [1].';
  const input = { answer, prompt: null, citations: [{ url: 'https://a.example.com/knees' }], analysis: null };

  it('a judged pair takes the model label (support 1 / ½ / 0), records the judge, and the metrics follow', () => {
    const core = analyzeCore(input, [okPage(page)], cfg);
    const lexical = core.alignments[0]?.support[0] ?? 0;
    expect(lexical).toBeLessThan(cfg.tauFull);
    expect(core.answer.citationRecall).toBe(0);
    const judged = withModelJudgements(core, new Map([[0, new Map([[0, 'supported' as const]])]]), cfg);
    // Attribution reads the expected support; a model's label has no measured confidence, so it is the label's own.
    expect(judged.alignments[0]?.support[0]).toBe(1);
    expect(judged.alignments[0]?.judgements[0]?.confidence).toBeNull();
    expect(judged.alignments[0]?.judgements[0]).toMatchObject({ label: 'supported', judge: 'model' });
    expect(core.alignments[0]?.judgements[0]?.judge).toBe('lexical');
    expect(judged.alignments[0]?.joint).toBe(1);
    expect(judged.answer).toMatchObject({ citationRecall: 1, citationPrecision: 1, groundedShare: 1 });
    expect(judged.raw[0]?.supportedUnits).toBe(1);
    const refuted = withModelJudgements(core, new Map([[0, new Map([[0, 'contradicted' as const]])]]), cfg);
    expect(refuted.answer.citationPrecision).toBe(0);
    expect(refuted.raw[0]?.contradictedUnits).toBe(1);
    expect(refuted.weights[0]?.[0]).toBe(0);
    expect(core.alignments[0]?.support[0]).toBe(lexical); // the lexical core is not modified
  });

  it('only near-boundary pairs are sent to the model, heaviest first', () => {
    const core = analyzeCore(input, [okPage(page)], cfg);
    const pairs = checkPairs(core, cfg, 'ambiguous');
    const s = core.alignments[0]?.support[0] ?? 0;
    expect(s).toBeGreaterThanOrEqual(Math.max(cfg.tauPartial - cfg.modelCheck.band, cfg.modelCheck.minSupport));
    expect(s).toBeLessThan(cfg.tauFull + cfg.modelCheck.band);
    expect(pairs.map((p) => [p.id, p.unit, p.source])).toEqual([['p1', 0, 0]]);
    const unrelated = analyzeCore(
      { ...input, answer: 'Bananas are rich in potassium and popular with athletes [1].' },
      [okPage(page)],
      cfg,
    );
    expect(checkPairs(unrelated, cfg, 'ambiguous')).toEqual([]);
    expect(checkPairs(unrelated, cfg, 'all').map((p) => [p.unit, p.source])).toEqual([[0, 0]]);
  });
});

/** Deterministic pseudo-random numbers (mulberry32), so the property runs are reproducible. */
const rng = mulberry32;

const VOCAB = (
  'foam knee shoe trail rock plate mud lug cushion runner marathon ' +
  'price weight heel toe drop sole mesh grip pace 사료 강아지 단백질 소형견 체중 성분'
).split(' ');

function randomCase(seed: number): { answer: string; citations: CitationIn[]; records: Array<FetchRecord | null> } {
  const r = rng(seed);
  const pick = () => VOCAB[Math.floor(r() * VOCAB.length)] as string;
  const n = 1 + Math.floor(r() * 5);
  const sentencesOut: string[] = [];
  for (let i = 0; i < 1 + Math.floor(r() * 8); i++) {
    const words = Array.from({ length: 2 + Math.floor(r() * 10) }, pick).join(' ');
    const markers = Array.from({ length: Math.floor(r() * 3) }, () => `[${1 + Math.floor(r() * (n + 1))}]`).join('');
    sentencesOut.push(`${words[0]?.toUpperCase()}${words.slice(1)} ${Math.floor(r() * 100)}${markers}.`);
  }
  const citations = Array.from(
    { length: n },
    (_, i) =>
      ({
        url: `https://s${i % 3}.example.com/${i}`,
        title: r() < 0.5 ? `${pick()} ${pick()}` : undefined,
      }) as CitationIn,
  );
  const records = citations.map(() =>
    r() < 0.7 ? okPage(`${Array.from({ length: 20 + Math.floor(r() * 60) }, pick).join(' ')}.`) : null,
  );
  return { answer: sentencesOut.join(' '), citations, records };
}

describe('properties (§5)', () => {
  it('shares in [0,1], influence + unattributed sums to 1, normalised GEO sums to 1, output is stable', async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const c = randomCase(seed);
      const a = await analyze(c.answer, c.citations, c.records, 'foam shoe price');
      const b = await analyze(c.answer, c.citations, c.records, 'foam shoe price');
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      let total = a.summary.unattributedShare;
      for (const s of a.sources) {
        expect(s.influence.share).toBeGreaterThanOrEqual(0);
        expect(s.influence.share).toBeLessThanOrEqual(1);
        total += s.influence.share;
      }
      expect(Math.abs(total - 1)).toBeLessThan(1e-9);
      const anyCitation = a.sources.some((s: any) => s.citations.citedUnits > 0);
      if (anyCitation) {
        const sum = a.sources.reduce((acc: number, s: any) => acc + s.geo.normalizedWordCount, 0);
        const sumPos = a.sources.reduce((acc: number, s: any) => acc + s.geo.normalizedPositionAdjustedWordCount, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(1e-9);
        expect(Math.abs(sumPos - 1)).toBeLessThan(1e-9);
      } else {
        for (const s of a.sources) expect(s.geo.wordCount).toBeNull();
      }
    }
  });
});
