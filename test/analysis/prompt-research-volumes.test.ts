import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import { clusterKey, clusterTexts } from '../../src/analysis/prompt-research/clusters.js';
import { fitImputation, imputedVolume, volumeScore, volumeTier } from '../../src/analysis/prompt-research/demand.js';
import {
  hintKeyword,
  keywordToolRequest,
  parseKeywordTool,
  searchadCredentials,
  searchadKey,
  searchadSignature,
} from '../../src/analysis/prompt-research/searchad.js';
import type { RunningService } from '../helpers/service.js';
import { failureKind } from '../helpers/failures.js';
import { FAST_ANALYSIS, startAnalysisService } from './analysis-service.js';
import {
  type Loopback,
  researchAttempt,
  researchInput,
  runPromptResearch,
  startLoopback,
  useSimulator,
} from './prompt-research-rig.js';

/** Naver Search Ad volumes (§3.1, §3.4, §3.7) and the Korean text rules of prompt research. */
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(new URL(`../fixtures/analysis/${name}`, import.meta.url), 'utf8')) as unknown;

describe('Naver Search Ad request signing and parsing', () => {
  it('signs "{timestamp}.{METHOD}.{path}" with HMAC-SHA256 and base64 (fixed timestamp and secret)', () => {
    // Reference values computed independently (Python hmac/hashlib/base64, as in Naver's sample client).
    expect(searchadSignature('1700000000000', 'GET', '/keywordstool', 'test-secret-0123')).toBe(
      'TYHXhdVaMY4gWvxf/AvtrPy23liFnwlrESbP9S6GJLs=',
    );
    expect(searchadSignature('1705312800000', 'GET', '/keywordstool', 'AQAAAABdb1Vf+DRB0kM8Y2hM6w==')).toBe(
      'E9Qp6QOsbHjZB25aQw39q8RM3tdTKXmwVpnWkh2hVzs=',
    );
  });

  it('builds the request: path without query in the signature, spaces removed from hint keywords', () => {
    const creds = searchadCredentials('1234567:license-x:test-secret-0123');
    expect(creds).toEqual({ customerId: '1234567', accessLicense: 'license-x', secretKey: 'test-secret-0123' });
    const req = keywordToolRequest(
      'https://api.searchad.naver.com/',
      ['강아지사료추천', 'DOGFOOD'],
      creds!,
      '1700000000000',
    );
    expect(req.url).toBe(
      `https://api.searchad.naver.com/keywordstool?hintKeywords=${encodeURIComponent('강아지사료추천,DOGFOOD')}&showDetail=1`,
    );
    expect(req.headers).toMatchObject({
      'x-timestamp': '1700000000000',
      'x-api-key': 'license-x',
      'x-customer': '1234567',
      'x-signature': 'TYHXhdVaMY4gWvxf/AvtrPy23liFnwlrESbP9S6GJLs=',
    });
    expect(hintKeyword('강아지 사료 추천?')).toBe('강아지사료추천');
    expect(searchadKey('dog food')).toBe('DOGFOOD');
    expect(searchadCredentials('only-a-key')).toBeNull();
    expect(searchadCredentials(undefined)).toBeNull();
  });

  it('reads volumes: PC + mobile, "< 10" counts as 5 and marks a low volume', () => {
    const v = parseKeywordTool(fixture('naver-searchad-keywordstool.json'));
    expect(v.get('강아지사료추천')).toEqual({ volume: 37_130, low: false });
    expect(v.get('강아지사료유통기한')).toEqual({ volume: 10, low: true });
    expect(v.get('노견사료')).toEqual({ volume: 45, low: false });
  });

  it('a body without keywordList is LAYOUT_CHANGED, never an empty success', () => {
    expect(failureKind(() => parseKeywordTool(fixture('naver-searchad-drifted.json')))).toBe('LAYOUT_CHANGED');
  });
});

describe('volume demand (§3.7)', () => {
  it('scores on log volume and tiers absolutely', () => {
    expect(volumeScore(37_130, 37_130)).toBe(100);
    expect(volumeScore(5_000, 37_130)).toBe(81);
    expect([5, 10, 99, 100, 9_999, 10_000].map(volumeTier)).toEqual([1, 2, 2, 3, 4, 5]);
  });

  it('imputes from autocomplete evidence only with ≥ 8 points, a positive slope and R² ≥ 0.2', () => {
    const points = [0.2, 0.4, 0.6, 0.8, 1, 1.5, 2, 3].map((e) => ({ e, v: 10 ** (2 + 1.5 * Math.log(1 + e)) }));
    const fit = fitImputation(points, 8, 0.2);
    expect(fit).not.toBeNull();
    expect(fit!.b).toBeCloseTo(1.5, 6);
    expect(fit!.r2).toBeCloseTo(1, 6);
    expect(imputedVolume(fit!, 1)).toBeCloseTo(10 ** (2 + 1.5 * Math.log(2)), 3);
    expect(fitImputation(points.slice(0, 7), 8, 0.2)).toBeNull();
    const falling = points.map((p, i) => ({ e: p.e, v: 10_000 / (i + 1) }));
    expect(fitImputation(falling, 8, 0.2)).toBeNull();
  });
});

describe('Korean text in prompt research', () => {
  it('decomposed Hangul (NFD) keys like composed text', () => {
    expect(clusterKey('강아지 사료 추천'.normalize('NFD'))).toBe(clusterKey('강아지 사료 추천'));
  });

  it('particles and spacing do not split a cluster; intent words still do', () => {
    const texts = [
      '강아지 사료를 추천',
      '강아지사료 추천',
      '강아지 사료 추천',
      '강아지 사료가 비교',
      '강아지 사료 비교',
    ];
    expect(clusterTexts(texts, FAST_ANALYSIS.pr.dedup)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
  });
});

describe('PROMPT_RESEARCH with Naver Search Ad through the service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startAnalysisService();
  });
  afterAll(() => svc.stop());

  const run = (body: Record<string, unknown>, on: RunningService = svc) => runPromptResearch(on, body);

  it('KR with sandbox credentials: monthly volumes, absolute tiers, keyword_volume basis, metered calls', async () => {
    const view = await run({ seed: '강아지 사료', country: 'KR', limit: 10, monitorSize: 4 });
    expect(view.task.status).toBe('COMPLETED');
    const r = view.response;
    expect(r.demandBasis).toBe('keyword_volume');
    // The keyword tool is the simulator (volumes from keyword length): said at the top and in every figure.
    expect(r.simulated).toBe(true);
    expect(r.demandCheck).toMatchObject({ method: 'spearman', volumeSource: 'sandbox_searchad' });
    expect(r.demandCheck.n).toBeGreaterThanOrEqual(8);
    const searchad = r.providers.find((p: any) => p.name === 'sandbox_searchad');
    expect(searchad).toMatchObject({ status: 'ok', failures: 0 });
    expect(searchad.requests).toBeGreaterThan(0);
    expect(searchad.requests).toBeLessThanOrEqual(FAST_ANALYSIS.pr.searchad.maxRequests);
    expect(r.usage.volumeRequests).toEqual({ naverSearchad: searchad.requests, googleAds: 0 });
    for (const q of r.questions) {
      expect(q.demand).toMatchObject({
        tierBasis: 'absolute',
        volumeSource: 'sandbox_searchad',
        volumeIsEstimate: false,
      });
      expect(q.demand.monthlyVolume).toEqual(expect.any(Number));
    }
    const volumes = r.questions.map((q: any) => q.demand.monthlyVolume);
    const scores = r.questions.map((q: any) => q.demand.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(Math.max(...volumes)).toBe(volumes[0]);
    // The head term outranks its long tails.
    expect(r.questions.slice(0, 5).map((q: any) => q.query)).toContain('강아지 사료 추천');
    // Neither the access license nor the secret key leaves the adapter.
    expect(JSON.stringify(view)).not.toMatch(/sandbox-access-license|sandbox-searchad-secret/);
  });

  it('wrong credentials: the keyword tool refuses the signature; ranking falls back to autocomplete', async () => {
    const other = await startAnalysisService({ searchad: '1234567:sandbox-access-license:not-the-secret' });
    try {
      const r = (await run({ seed: '강아지 사료', country: 'KR', limit: 5, monitorSize: 2 }, other)).response;
      expect(r.providers.find((p: any) => p.name === 'sandbox_searchad')).toEqual({
        name: 'sandbox_searchad',
        status: 'error',
        requests: 1,
        failures: 1,
      });
      expect(r.warnings.map((w: any) => w.code)).toContain('VOLUME_LOOKUP_FAILED');
      expect(r.demandBasis).toBe('autocomplete');
      expect(r.questions[0].demand).toMatchObject({ tierBasis: 'relative', monthlyVolume: null });
    } finally {
      await other.stop();
    }
  });

  it('US never asks Naver Search Ad', async () => {
    const r = (await run({ seed: 'running shoes', country: 'US', limit: 3, monitorSize: 2 })).response;
    expect(r.providers.map((p: any) => p.name)).not.toContain('sandbox_searchad');
    expect(r.usage.volumeRequests.naverSearchad).toBe(0);
    expect(r.demandBasis).toBe('autocomplete');
  });
});

/** A keyword tool that answers 429: the lookups stop at once and the task still completes. */
describe('a rate-limited keyword tool', () => {
  const rig = useSimulator();
  let limited: Loopback;
  let hits = 0;
  beforeAll(async () => {
    limited = await startLoopback((_req, res) => {
      hits++;
      res.writeHead(429, { 'content-type': 'application/json' }).end('{"title":"Too Many Requests","status":429}');
    });
  });
  afterAll(() => limited.close());

  it('stops after the first 429 with status rate_limited and VOLUME_LOOKUP_FAILED', async () => {
    const ctx = researchAttempt(rig.agent, researchInput('강아지 사료', 'KR'), {
      baseUrl: `${rig.sim.url}/google-suggest`,
      headers: {},
      options: { naverBaseUrl: `${rig.sim.url}/naver-ac`, searchadBaseUrl: limited.base },
      apiKey: '1:l:s',
    });
    const r = (await createPromptResearchAdapter({ config: FAST_ANALYSIS, cache: null }).run(ctx)).extra as any;
    expect(hits).toBe(1);
    expect(r.providers.find((p: any) => p.name === 'naver_searchad')).toEqual({
      name: 'naver_searchad',
      status: 'rate_limited',
      requests: 1,
      failures: 1,
    });
    expect(r.warnings.map((w: any) => w.code)).toContain('VOLUME_LOOKUP_FAILED');
    expect(r.questions.length).toBe(5);
  });
});
