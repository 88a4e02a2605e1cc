import { describe, expect, it } from 'vitest';
import { analysisConfig } from '../../src/analysis/config.js';
import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import type { RequestResult } from '../../src/analysis/prompt-research/collector.js';
import type { PrefixClass } from '../../src/analysis/prompt-research/expansion.js';
import { expansionRequests } from '../../src/analysis/prompt-research/expansion.js';
import type { ProviderName } from '../../src/analysis/prompt-research/providers.js';
import { questionText } from '../../src/analysis/prompt-research/questions.js';
import { kendallTauB, midRanks, spearmanRho } from '../../src/analysis/prompt-research/rank-correlation.js';
import { assembleResearch } from '../../src/analysis/prompt-research/research.js';
import { hintKeyword, type KeywordVolume } from '../../src/analysis/prompt-research/searchad.js';
import { SIMULATOR_MOUNTS, isSimulatorUrl } from '../../src/analysis/prompt-research/simulation.js';
import type { EngineConfig } from '../../src/config/engine-config.js';
import { sandboxSuggestions } from '../../src/sandbox/routes/suggest.js';
import { SimContext } from '../../src/sandbox/sim-context.js';
import { researchAttempt, researchInput, startLoopback, useSimulator } from './prompt-research-rig.js';

/**
 * Prompt research says what it knows and how: simulated upstreams say so, question text is grammatical in both
 * languages, ties say what broke them, volumes come only from a keyword tool, and the rank
 * correlation between autocomplete evidence and keyword volumes (Spearman, Kendall tau-b).
 */
const PR = analysisConfig({ pr: { requests: { delayMs: 0, jitterMs: 0 }, cacheTtlMs: 0 } }).pr;

describe('question text: observed questions verbatim, grammatical templates otherwise (§3.8)', () => {
  it.each([
    ['how to clean running shoes', 'How do I clean running shoes?', 'templated'],
    ['running shoes for flat feet', 'Which running shoes are best for flat feet?', 'templated'],
    ['best running shoes 2024', 'What are the best running shoes in 2024?', 'templated'],
    ['best running shoes for women', 'What are the best running shoes for women?', 'templated'],
    ['best laptop', 'What is the best laptop?', 'templated'],
    ['running shoes price', 'How much do running shoes cost?', 'templated'],
    ['running shoes worth it', 'Are running shoes worth it?', 'templated'],
    ['running shoes how to clean', 'How do I clean running shoes?', 'templated'],
    ['hoka vs nike', 'Which is better, hoka or nike?', 'templated'],
    ['are running shoes good for beginners', 'Are running shoes good for beginners?', 'observed'],
    ['why are running shoes so expensive', 'Why are running shoes so expensive?', 'observed'],
    ['러닝화 추천', '러닝화 추천해줘', 'templated'],
    ['러닝화 세탁 방법', '러닝화 세탁 방법 알려줘', 'templated'],
    ['러닝화 세탁하는법', '러닝화 세탁하는 방법 알려줘', 'templated'],
    ['러닝화 끈 묶는법', '러닝화 끈 묶는 방법 알려줘', 'templated'],
    ['러닝화 추천 2025', '2025년 러닝화 추천해줘', 'templated'],
    ['러닝화 가성비', '가성비 좋은 러닝화 추천해줘', 'templated'],
    ['러닝화 vs 워킹화', '러닝화와 워킹화 비교해줘', 'templated'],
    ['러닝화 어떻게 세탁해요', '러닝화 어떻게 세탁해요', 'observed'],
    ['어떤 러닝화가 좋을까', '어떤 러닝화가 좋을까', 'observed'],
  ])('%s → %s', (query, text, origin) => {
    expect(questionText(query, query.startsWith('러닝화') ? '러닝화' : 'running shoes')).toEqual({ text, origin });
  });

  it('never puts the seed (a noun phrase) where the verb of "how to" belongs', () => {
    // One word after the seed is read as the verb; anything longer stays as observed, untemplated.
    expect(questionText('how to running shoes clean', 'running shoes')).toEqual({
      text: 'How do I clean running shoes?',
      origin: 'templated',
    });
    expect(questionText('how to running shoes for kids fast', 'running shoes')).toEqual({
      text: 'How to running shoes for kids fast?',
      origin: 'observed',
    });
  });
});

describe('rank correlation (Spearman rho, Kendall tau-b)', () => {
  it('worked example without ties: adjacent pairs swapped', () => {
    const x = [1, 2, 3, 4, 5, 6, 7, 8];
    const y = [2, 1, 4, 3, 6, 5, 8, 7];
    // Σd² = 8: rho = 1 − 6·8 / (8·63) = 0.904762; 4 discordant of 28 pairs: tau = (24 − 4) / 28.
    expect(spearmanRho(x, y)).toBeCloseTo(1 - 48 / 504, 10);
    expect(kendallTauB(x, y)).toBeCloseTo(20 / 28, 10);
    expect(spearmanRho(x, [...y].reverse())).toBeLessThan(0);
  });

  it('worked example with ties: mid-ranks for rho, tie correction for tau-b', () => {
    const x = [1, 2, 2, 3];
    const y = [1, 3, 2, 4];
    expect(midRanks(x)).toEqual([1, 2.5, 2.5, 4]);
    // Ranks x (1, 2.5, 2.5, 4), y (1, 3, 2, 4): Sxy = 4.5, Sxx = 4.5, Syy = 5 → 4.5 / √22.5.
    expect(spearmanRho(x, y)).toBeCloseTo(4.5 / Math.sqrt(22.5), 10);
    // 5 concordant, 0 discordant, one pair tied in x: 5 / √((6 − 1)(6 − 0)).
    expect(kendallTauB(x, y)).toBeCloseTo(5 / Math.sqrt(30), 10);
  });

  it('is undefined (null) for a constant side or fewer than two pairs', () => {
    expect(spearmanRho([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearmanRho([1], [2])).toBeNull();
  });
});

function results(
  provider: ProviderName,
  lists: ReadonlyArray<{ query: string; cls: PrefixClass; suggestions: string[] }>,
): RequestResult[] {
  return lists.map((l, i) => ({
    provider,
    requestId: `${provider}:1:${String(i).padStart(3, '0')}`,
    request: { query: l.query, cls: l.cls },
    suggestions: l.suggestions.map((text) => ({ text, relevance: null, type: null })),
    order: [1, i],
  }));
}

function research(
  seed: string,
  country: 'KR' | 'US',
  res: RequestResult[],
  volumes: Map<string, KeywordVolume> | null,
  extra: { simulated?: boolean; volumeSource?: string; limit?: number } = {},
): any {
  const order: ProviderName[] = country === 'KR' ? ['naver', 'google'] : ['google'];
  return assembleResearch(
    {
      input: researchInput(seed, country, extra.limit ?? 10),
      results: res,
      providers: [],
      answered: [order[0] as ProviderName],
      providerOrder: order,
      requestsSent: res.length,
      autocompleteRequests: { google: 0, naver: 0, bing: 0 },
      cacheHits: 0,
      warnings: [],
      simulated: extra.simulated ?? false,
      volumeSource: extra.volumeSource ?? 'naver_searchad',
      volumes,
      volumeRequests: volumes ? 1 : 0,
    },
    PR,
  );
}

const KR_SEED_LIST = [
  '러닝화 추천',
  '러닝화 비교',
  '러닝화 가격',
  '러닝화 후기',
  '러닝화 순위',
  '러닝화 종류',
  '러닝화 장단점',
  '러닝화 세탁 방법',
  '러닝화 부작용',
  '러닝화 효과',
];

function volumesOf(pairs: ReadonlyArray<[string, number]>): Map<string, KeywordVolume> {
  return new Map(pairs.map(([k, v]) => [hintKeyword(k), { volume: v, low: false }]));
}

describe('demand check against keyword-tool volumes (§3.7)', () => {
  const res = results('naver', [{ query: '러닝화', cls: 'seed', suggestions: KR_SEED_LIST }]);
  const volumes = [5000, 4000, 4500, 3000, 2000, 2500, 1000, 800, 900, 100];

  it('reports Spearman rho and Kendall tau-b of evidence against actual volumes with ≥ 8 of them', () => {
    const r = research('러닝화', 'KR', res, volumesOf(KR_SEED_LIST.map((q, i) => [q, volumes[i] as number])), {
      limit: 5,
    });
    // Evidence falls with rank 1…10; volume ranks 1,3,2,4,6,5,7,9,8,10: Σd² = 6, 3 discordant pairs of 45.
    expect(r.demandCheck).toEqual({
      method: 'spearman',
      ranking: 'autocomplete_evidence',
      against: 'monthly_volume',
      volumeSource: 'naver_searchad',
      n: 10,
      rho: Number((1 - 36 / 990).toFixed(4)),
      kendallTauB: Number((42 / 45 - 3 / 45).toFixed(4)),
    });
    expect(r.demandBasis).toBe('keyword_volume');
    for (const q of r.questions)
      expect(q.demand).toMatchObject({ scoreBasis: 'monthly_volume', tierBasis: 'absolute', volumeIsEstimate: false });
  });

  it('is null with fewer than 8 actual volumes; imputation never runs on fewer either', () => {
    const seven = volumesOf(KR_SEED_LIST.slice(0, 7).map((q, i) => [q, volumes[i] as number]));
    const r = research('러닝화', 'KR', res, seven);
    expect(r.demandCheck).toBeNull();
    expect(r.demandBasis).toBe('mixed');
    const without = r.questions.filter((q: any) => q.demand.monthlyVolume === null);
    expect(without.map((q: any) => q.query)).toEqual(['러닝화 세탁 방법', '러닝화 부작용', '러닝화 효과']);
    for (const q of without)
      expect(q.demand).toMatchObject({
        scoreBasis: 'autocomplete_evidence',
        tierBasis: 'relative',
        volumeSource: null,
        volumeIsEstimate: false,
      });
  });

  it('without a volume source: relative tiers, no number invented, no check', () => {
    const r = research('러닝화', 'KR', res, null);
    expect(r.demandCheck).toBeNull();
    expect(r.demandBasis).toBe('autocomplete');
    for (const q of r.questions)
      expect(q.demand).toMatchObject({
        scoreBasis: 'autocomplete_evidence',
        tierBasis: 'relative',
        monthlyVolume: null,
        volumeSource: null,
        volumeIsEstimate: false,
      });
  });

  it('names the simulator as the volume source when the keyword tool is the sandbox', () => {
    const r = research('러닝화', 'KR', res, volumesOf(KR_SEED_LIST.map((q, i) => [q, volumes[i] as number])), {
      simulated: true,
      volumeSource: 'sandbox_searchad',
    });
    expect(r.simulated).toBe(true);
    expect(r.demandCheck.volumeSource).toBe('sandbox_searchad');
    for (const q of r.questions) expect(q.demand.volumeSource).toBe('sandbox_searchad');
  });
});

describe('ties: the criterion that put each question above the next (§3.11)', () => {
  // Four modifier requests whose top completion is a different question: equal evidence E = 0.7.
  const res = results('google', [
    { query: 'running shoes', cls: 'seed', suggestions: ['best running shoes', 'running shoes for flat feet'] },
    { query: 'how to running shoes', cls: 'modifier', suggestions: ['how to clean running shoes'] },
    { query: 'best running shoes', cls: 'modifier', suggestions: ['best running shoes 2024'] },
    { query: 'running shoes vs', cls: 'modifier', suggestions: ['running shoes vs walking shoes'] },
    {
      query: 'running shoes for',
      cls: 'modifier',
      suggestions: ['running shoes for flat feet', 'running shoes for men'],
    },
    // E = 0.4 (alphabet, rank 1) + 0.3 (second pass, rank 1) = 0.7 as well, from two appearances.
    { query: 'running shoes c', cls: 'alphabet', suggestions: ['running shoes comparison'] },
    { query: 'running shoes co', cls: 'depth2', suggestions: ['running shoes comparison'] },
  ]);

  it('names score, evidence or a tie-break, consistent with the fields shown', () => {
    const r = research('running shoes', 'US', res, null);
    const qs = r.questions;
    expect(qs.map((q: any) => [q.query, q.demand.score, q.aboveNextBy])).toEqual([
      ['running shoes for flat feet', 100, 'score'],
      ['best running shoes', 82, 'score'],
      ['running shoes comparison', 63, 'appearances'],
      ['how to clean running shoes', 63, 'textLength'],
      ['best running shoes 2024', 63, 'textLength'],
      ['running shoes vs walking shoes', 63, 'score'],
      ['running shoes for men', 43, null],
    ]);
    for (let i = 0; i + 1 < qs.length; i++) {
      const [a, b] = [qs[i], qs[i + 1]];
      if (a.aboveNextBy === 'score') expect(a.demand.score).toBeGreaterThan(b.demand.score);
      else {
        expect(a.demand.score).toBe(b.demand.score);
        expect(a.demand.evidence.autocompleteScore).toBe(b.demand.evidence.autocompleteScore);
      }
    }
  });
});

describe('simulated upstreams are labelled from configuration', () => {
  const rig = useSimulator();
  const ctx = (seed: string, country: 'KR' | 'US', upstream: EngineConfig['upstream']) =>
    researchAttempt(rig.agent, researchInput(seed, country), upstream);
  const adapter = createPromptResearchAdapter({ config: analysisConfig({ pr: PR }), cache: null });

  it('the mounts the analysis recognises are where the simulator answers', async () => {
    for (const [path, query] of [
      [`${SIMULATOR_MOUNTS.google}/complete/search?client=firefox&q=x`, null],
      [`${SIMULATOR_MOUNTS.naver}/nx/ac?q=x`, null],
    ] as const) {
      const res = await fetch(`${rig.sim.url}${path}`, { dispatcher: rig.agent } as RequestInit);
      expect(res.status, `${path} ${query}`).toBe(200);
    }
    const searchad = await fetch(`${rig.sim.url}${SIMULATOR_MOUNTS.searchad}/keywordstool?hintKeywords=x`, {
      dispatcher: rig.agent,
    } as RequestInit);
    expect(searchad.status).toBe(401); // there, and asking for credentials
    expect(isSimulatorUrl(`${rig.sim.url}/google-suggest`, 'google')).toBe(true);
    expect(isSimulatorUrl('https://suggestqueries.google.com', 'google')).toBe(false);
    expect(isSimulatorUrl('https://api.searchad.naver.com', 'searchad')).toBe(false);
    expect(isSimulatorUrl('not a url', 'naver')).toBe(false);
  });

  it('KR through the simulator: simulated, sandbox_ names, sandbox_searchad volumes and check', async () => {
    const upstream = {
      baseUrl: `${rig.sim.url}/google-suggest`,
      headers: {},
      options: { naverBaseUrl: `${rig.sim.url}/naver-ac`, searchadBaseUrl: `${rig.sim.url}/naver-searchad` },
      apiKey: '1234567:sandbox-access-license:sandbox-searchad-secret',
    };
    const r = (await adapter.run(ctx('러닝화', 'KR', upstream))).extra as any;
    expect(r.simulated).toBe(true);
    expect(r.methodVersion).toBe('prompt-research/1.2.0');
    expect(r.providers.map((p: any) => p.name)).toEqual([
      'sandbox_naver_autocomplete',
      'sandbox_google_autocomplete',
      'sandbox_searchad',
      'google_ads',
    ]);
    expect(JSON.stringify(r)).not.toMatch(/"naver_searchad"|"naver_autocomplete"|"google_autocomplete"/);
    for (const q of r.questions) expect(q.demand.volumeSource).toBe('sandbox_searchad');
    expect(r.demandCheck).toMatchObject({ method: 'spearman', volumeSource: 'sandbox_searchad' });
    expect(r.demandCheck.n).toBeGreaterThanOrEqual(8);
    expect(r.usage.modelTokens.calls).toEqual([]); // no model: no model name to report
  });

  it('an upstream that is not a simulator mount keeps the vendor names and simulated: false', async () => {
    // A loopback stand-in for Google suggest: the same wire format, but not the simulator's mount,
    // so nothing about it is labelled simulated (configuration decides, not the answer).
    const standIn = await startLoopback((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([q, [`best ${q}`, `${q} for beginners`], [], {}]));
    });
    try {
      const upstream = { baseUrl: standIn.base, headers: {}, options: {} };
      const real = (await adapter.run(ctx('running shoes', 'US', upstream))).extra as any;
      expect(real.simulated).toBe(false);
      expect(real.providers[0]).toMatchObject({ name: 'google_autocomplete', status: 'ok' });
      const viaSim = { baseUrl: `${rig.sim.url}/google-suggest`, headers: {}, options: {} };
      const simulated = (await adapter.run(ctx('running shoes', 'US', viaSim))).extra as any;
      expect(simulated.simulated).toBe(true);
      expect(simulated.providers[0].name).toBe('sandbox_google_autocomplete');
      expect(simulated.demandCheck).toBeNull();
      for (const q of simulated.questions)
        expect(q.demand).toMatchObject({ tierBasis: 'relative', monthlyVolume: null });
    } finally {
      await standIn.close();
    }
  });
});

describe('the autocomplete simulator completes any seed sensibly', () => {
  const sim = new SimContext();
  const all = (seed: string, lang: 'en' | 'ko') =>
    expansionRequests(seed, lang).flatMap((r) => sandboxSuggestions(sim, r.query, lang, 'google'));

  it('an unrelated seed gets no shoe, dog-food or gendered words', () => {
    const en = all('pydantic', 'en');
    expect(en.length).toBeGreaterThan(20);
    expect(en.join('\n')).not.toMatch(/\b(women|men|nike|hoka|adidas|flat feet|arch support|walking shoes)\b/i);
    const ko = all('노트북', 'ko');
    expect(ko.length).toBeGreaterThan(20);
    expect(ko.join('\n')).not.toMatch(/로얄캐닌|퍼피|노견|소형견|여성|남성|dog food|세탁/);
    for (const s of [...en, ...ko]) expect(s.toLowerCase()).toMatch(/pydantic|노트북/);
  });

  it('question prefixes complete to whole questions with the seed in its place', () => {
    const howTo = sandboxSuggestions(sim, 'how to running shoes', 'en', 'google');
    expect(howTo.length).toBeGreaterThan(0);
    for (const s of howTo) expect(s).toMatch(/^how to \w+( in)? running shoes$/);
    for (const s of sandboxSuggestions(sim, 'is running shoes', 'en', 'google')) expect(s).toMatch(/^are /);
    for (const s of sandboxSuggestions(sim, '어떤 노트북', 'ko', 'naver')) expect(s).toMatch(/^어떤 노트북(이|을) /);
  });

  it('every templated question of a simulated run reads as a question or request', () => {
    for (const [seed, lang] of [
      ['pydantic', 'en'],
      ['running shoes', 'en'],
    ] as const) {
      for (const s of new Set(all(seed, lang))) {
        const t = questionText(s, seed).text;
        expect(t, s).toMatch(/\?$/);
        expect(t, s).not.toMatch(/How do I (running shoes|pydantic)\b/);
      }
    }
  });
});
