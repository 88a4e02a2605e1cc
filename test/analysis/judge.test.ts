import { describe, expect, it } from 'vitest';
import { THRESHOLD_JUDGE } from './threshold-judge.js';
import { analyzeSourceInfluence } from '../../src/analysis/source-influence/analyze.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';

/**
 * The lexical judge on worked pairs in English and Korean (unit tests; its quality is measured on the held-out set
 * by `npm run eval:analysis`): a claim that reuses the page's words but negates it, swaps an antonym, or changes a
 * number, date or name is contradicted, never supported; paraphrases through the lexicon still match; and the
 * per-claim view flags a miscited claim and credits the uncited page that supports it.
 */

async function run(answer: string, pages: string[]): Promise<any> {
  const citations = pages.map((_, i) => ({ url: `https://p${i + 1}.example/` }));
  const { result } = await analyzeSourceInfluence(
    { answer, prompt: null, citations, analysis: null },
    pages.map((t) => readPageRecord(t)),
    THRESHOLD_JUDGE,
  );
  return result;
}

async function judge(claim: string, text: string): Promise<{ label: string; reason: string | null; score: number }> {
  const r = await run(`${claim} [1]`, [text]);
  return r.claims[0].sources[0];
}

const EN_PAGE =
  'The museum opened in 1994 on the old harbour. Visitor numbers increased sharply after the new wing was built. ' +
  'The collection was founded by Roger Hale, a shipbuilder. The museum is open to visitors every day except Monday.';
const KO_PAGE =
  '이 박물관은 1994년에 옛 항구에 문을 열었다. 새 전시관이 지어진 뒤 관람객 수가 크게 증가하였다. ' +
  '소장품은 조선업자 김철수가 모았으며 박물관은 대구에 있다. 국회의원의 수는 법률로 정하되, 200인 이상으로 한다. ' +
  '관람객은 월요일을 제외하고 매일 입장할 수 있다. 이 박물관의 설립자는 조선업자 김철수이다.';

describe('contradictions that reuse the page are never supported', () => {
  it.each([
    ['negation', 'The museum is not open to visitors every day except Monday.'],
    ['antonym', 'Visitor numbers decreased sharply after the new wing was built.'],
    ['date', 'The museum opened in 1998 on the old harbour.'],
    ['name', 'The collection was founded by Peter Hale, a shipbuilder.'],
  ])('English %s', async (reason, claim) => {
    const j = await judge(claim, EN_PAGE);
    expect(j).toMatchObject({ label: 'contradicted', reason });
  });

  it.each([
    ['negation', '관람객은 월요일을 제외하고 매일 입장할 수 없다.'],
    ['negation', '새 전시관이 지어진 뒤 관람객 수가 크게 증가하지 않았다.'],
    ['negation', '새 전시관이 지어진 뒤 관람객 수가 크게 증가하지 못했다.'],
    ['negation', '관람객은 월요일을 제외하고 매일 입장하지 못한다.'],
    ['negation', '이 박물관의 설립자는 조선업자 김철수가 아니다.'],
    ['antonym', '새 전시관이 지어진 뒤 관람객 수가 크게 감소하였다.'],
    ['date', '이 박물관은 1998년에 옛 항구에 문을 열었다.'],
    ['number', '국회의원의 수는 법률로 정하되, 300인 이상으로 한다.'],
  ])('Korean %s', async (reason, claim) => {
    const j = await judge(claim, KO_PAGE);
    expect(j).toMatchObject({ label: 'contradicted', reason });
  });

  it('a negated antonym says the same thing and is not a contradiction', async () => {
    const j = await judge('Visitor numbers did not decrease after the new wing was built.', EN_PAGE);
    expect(j.label).not.toBe('contradicted');
  });

  it('the page restated is supported', async () => {
    expect((await judge('The museum opened in 1994 on the old harbour.', EN_PAGE)).label).toBe('supported');
    expect((await judge('이 박물관은 1994년에 옛 항구에 문을 열었습니다.', KO_PAGE)).label).toBe('supported');
  });
});

describe('paraphrases through stems, synonyms and phrases', () => {
  it('matches Sino-Korean and native words and a phrase for a word (결혼/혼인, 비과세/세금이 붙지 않다)', async () => {
    const text = '이 적금은 혼인한 지 3년 이내의 부부에게 비과세 혜택을 준다. 가입 기간은 2년이다.';
    const j = await judge('결혼한 지 3년 이내인 부부는 이 적금에 세금이 붙지 않는다.', text);
    expect(j.label).not.toBe('contradicted');
    expect(j.score).toBeGreaterThan(0.5);
  });

  it('matches English synonyms and irregular forms (bought/purchase, start/begin)', async () => {
    const text = 'The company purchased the factory in 2001 and began production two years later.';
    const j = await judge('The company bought the factory in 2001 and started production two years later.', text);
    expect(j.label).toBe('supported');
  });
});

describe('the per-claim view', () => {
  const pages = [
    'Espresso machines need a pump that reaches nine bars of pressure for a proper extraction.',
    'Drip coffee makers heat water and let it pass through ground coffee by gravity into a carafe.',
  ];

  it('lists every claim with its position, citations and a judgement per source with evidence', async () => {
    const answer = 'Drip coffee makers heat water and let it pass through ground coffee by gravity [2].';
    const r = await run(answer, pages);
    const [claim] = r.claims;
    expect(claim).toMatchObject({ claimId: 'u1', index: 0, start: 0, cites: ['c2'], miscited: false });
    expect(claim.sources.map((s: any) => [s.sourceId, s.label])).toEqual([
      ['c1', 'unsupported'],
      ['c2', 'supported'],
    ]);
    expect(claim.sources[1].evidence).toContain('gravity');
    expect(r.summary).toMatchObject({ judge: 'lexical', judgeModel: null, claims: 1, miscitedClaims: 0 });
    expect(r.simulated).toBe(false);
  });

  it('flags a miscited claim and gives its weight to the page that supports it (uncited support)', async () => {
    const answer = 'A drip coffee maker lets hot water pass through the ground coffee by gravity [1].';
    const r = await run(answer, pages);
    const [claim] = r.claims;
    expect(claim).toMatchObject({ cites: ['c1'], miscited: true, uncitedSupport: ['c2'] });
    expect(claim.sources[0].weight).toBe(0);
    expect(claim.sources[1].weight).toBe(1);
    expect(r.sources[1].influence.uncitedShare).toBeGreaterThan(0);
    expect(r.sources[1].content.uncitedSupportedUnits).toBe(1);
    expect(r.summary.miscitedClaims).toBe(1);
  });
});

describe('inputs that once broke the judge (review findings)', () => {
  it('reads words that are names of Object.prototype members', async () => {
    const text = "The constructor of the bridge used toString valueOf hasOwnProperty and the constructor's plans.";
    const j = await judge("The bridge's constructor drew the plans.", text);
    expect(j.label).not.toBe('contradicted');
  });

  it('does not take "5 months" for "5 m", nor a list or a version for a number', async () => {
    expect(
      (
        await judge(
          'The repair lasted 5 months and cost 7 million dollars.',
          'The repair lasted 5 months and cost 7 million dollars.',
        )
      ).label,
    ).toBe('supported');
    const months = await judge('The war lasted 5 months.', 'The war lasted 7 months, and the repairs cost 5 million.');
    expect(months).toMatchObject({ label: 'contradicted', reason: 'date' });
    const lists = await judge(
      'Steps 1,2,3 are required for version 3.5.1 of the tool.',
      'Steps 4 and 5 are required for version 3.5.1 of the tool.',
    );
    expect(lists.reason).not.toBe('number');
  });
});
