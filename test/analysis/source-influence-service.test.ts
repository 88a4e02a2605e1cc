import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitTerminal, type RunningService } from '../helpers/service.js';
import { startAnalysisService, submitAnalysis } from './analysis-service.js';

/**
 * SOURCE_INFLUENCE end to end: the real service fetches cited pages from a real HTTP server on
 * 127.0.0.1 (UTF-8 and EUC-KR pages, a 404, a redirect, a PDF) and completes with per-source statuses.
 */
const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/analysis/${name}`, import.meta.url));

function startPages(): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    switch (req.url) {
      case '/en':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fixture('page-en.html'));
        return;
      case '/ko':
        // No charset in the header: the reader must find `euc-kr` in the page's meta tag.
        res.writeHead(200, { 'content-type': 'text/html' }).end(fixture('page-ko-euckr.html'));
        return;
      case '/old':
        res.writeHead(301, { location: '/moved-here' }).end();
        return;
      case '/moved-here':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fixture('page-review.html'));
        return;
      case '/huge':
        // Over the 5 MiB cap: the reader aborts the stream.
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body><p>${'running shoes '.repeat(450_000)}</p></body></html>`);
        return;
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/html' }); // headers, then nothing: the page never finishes
        res.write('<html><body>');
        return;
      case '/captcha':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fixture('page-captcha.html'));
        return;
      case '/spec.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\n');
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        base: `http://127.0.0.1:${port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(() => r()));
        },
      });
    });
  });
}

const ANSWER = [
  'Cushioned running shoes reduce the impact forces that travel through the knees during long runs [1].',
  'Most runners replace their running shoes every 500 to 800 kilometres [1][4].',
  '소형견에게는 단백질 함량이 높은 강아지 사료가 적합합니다 [2].',
  'Trail models add a rock plate that protects the foot on rocky terrain [3].',
  'The Acme Glide 3 weighs 250 grams and costs 130 dollars at launch [4][5].',
].join(' ');

describe('SOURCE_INFLUENCE through the service', () => {
  let svc: RunningService;
  let pages: { base: string; close: () => Promise<void> };
  let citations: unknown[];

  beforeAll(async () => {
    pages = await startPages();
    svc = await startAnalysisService({ model: false });
    citations = [
      { url: `${pages.base}/en`, title: 'Cushioning and knees' },
      { url: `${pages.base}/ko` },
      {
        url: `${pages.base}/missing`,
        title: 'Trail shoe guide',
        snippet: 'Trail models add a rock plate that protects the foot on rocky terrain.',
      },
      { url: `${pages.base}/old` },
      `${pages.base}/spec.pdf`,
      { url: `${pages.base}/huge` },
      { url: `${pages.base}/slow` },
      { url: `${pages.base}/captcha`, title: 'Knee pain and running' },
    ];
  });
  afterAll(async () => {
    await svc.stop();
    await pages.close();
  });

  it('completes the legacy shape with per-source fetch statuses, snippet fallback and metering', async () => {
    const id = await submitAnalysis(svc, '/v1/source-influence', {
      answer: ANSWER,
      prompt: 'Which running shoes protect the knees?',
      citations,
    });
    const view = await waitTerminal(svc, id, 30_000);
    expect(view.task).toMatchObject({ taskType: 'SOURCE_INFLUENCE', status: 'COMPLETED' });
    // Metered: 8 billed fetches × 0.1 credit, no model tokens → 1 credit (hold: 25 k-token budget + 8 fetches → 2).
    expect(view.credits).toEqual({ creditsToCharge: 1, creditsCharged: 1 });
    expect(view.response.usage.credits).toEqual({ held: 2, charged: 1 });
    const r = view.response;
    // Computed from the sandbox's pages: the result says so.
    expect(r).toMatchObject({
      resultVersion: 2,
      methodVersion: 'source-influence/2.2.0',
      simulated: true,
      language: 'en',
    });
    expect(r.summary).toMatchObject({ judge: 'lexical', judgeModel: null });
    expect(r.claims.length).toBe(r.answer.units);
    expect(r).not.toHaveProperty('analysis');
    expect(r).not.toHaveProperty('text');

    const byId = Object.fromEntries(r.sources.map((s: any) => [s.sourceId, s]));
    expect(byId.c1.fetch).toMatchObject({ status: 'ok', httpStatus: 200, contentType: 'text/html' });
    expect(byId.c2.fetch.status).toBe('ok');
    expect(byId.c2.text.language).toBe('ko');
    expect(byId.c2.evidence[0].sourceExcerpt).toContain('단백질 함량이 높은 강아지 사료');
    expect(byId.c3.fetch).toMatchObject({ status: 'http_error', httpStatus: 404 });
    expect(byId.c3.text.source).toBe('snippet');
    expect(byId.c3.content.supportedUnits).toBe(1);
    expect(byId.c4.fetch.status).toBe('ok');
    expect(byId.c4.url).toBe(`${pages.base}/old`);
    expect(byId.c4.finalUrl).toBe(`${pages.base}/moved-here`);
    expect(byId.c5.fetch.status).toBe('unsupported_content_type');
    expect(byId.c6.fetch.status).toBe('too_large');
    expect(byId.c7.fetch.status).toBe('timeout');
    expect(byId.c8.fetch.status).toBe('blocked');
    expect(byId.c8.text.source).toBe('title');
    expect(byId.c1.evidence[0]).toMatchObject({ unitIndex: 0, level: 'full', cited: true });
    // Levels never say more than the claims (docs/analysis.md §2.8): high needs a claim the source supports fully,
    // medium one it supports partly; a lowered level says why.
    const rank = ['none', 'low', 'medium', 'high'];
    for (const src of r.sources) {
      const labels = r.claims.flatMap((c: any) =>
        c.sources.filter((x: any) => x.sourceId === src.sourceId).map((x: any) => x.label),
      );
      const cap = labels.includes('supported') ? 'high' : labels.includes('partial') ? 'medium' : 'low';
      expect(rank.indexOf(src.influence.level)).toBeLessThanOrEqual(rank.indexOf(cap));
      expect(src.influence.levelNote === null).toBe(src.influence.level === src.influence.levelByShare);
    }
    expect(byId.c1.content.relevanceToPrompt).toBeGreaterThan(0);

    const codes = r.warnings.map((w: any) => `${w.code}:${w.sourceId ?? ''}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'SOURCE_FETCH_FAILED:c3',
        'SOURCE_SNIPPET_ONLY:c3',
        'SOURCE_FETCH_FAILED:c5',
        'SOURCE_FETCH_FAILED:c7',
      ]),
    );
    expect(r.usage.sourceFetches).toMatchObject({ attempted: 8, succeeded: 3, failed: 5, cacheHits: 0 });
    expect(r.usage.sourceFetches.bytes).toBeGreaterThan(1000);
    expect(r.summary).toMatchObject({
      sources: 8,
      sourcesWithText: 3,
      sourcesSnippetOnly: 2,
      sourcesWithoutText: 3,
      alignmentMethod: 'lexical',
    });

    const total = r.sources.reduce((a: number, s: any) => a + s.influence.share, r.summary.unattributedShare);
    expect(Math.abs(total - 1)).toBeLessThan(1e-9);
    expect(r.domains).toEqual([expect.objectContaining({ registrableDomain: '127.0.0.1', urls: 8 })]);
  });

  it('adds the analysis object with analysis.version = 1 (deterministic components, no model)', async () => {
    const id = await submitAnalysis(svc, '/v1/source-influence', {
      answer: ANSWER,
      prompt: 'What are the best running shoes under $150 in 2025?',
      citations,
      analysis: {
        version: 1,
        entities: [
          { id: 'acme', name: 'Acme', role: 'brand' },
          { name: 'Nike', role: 'competitor' },
        ],
      },
    });
    const view = await waitTerminal(svc, id, 30_000);
    expect(view.task.status).toBe('COMPLETED');
    const a = view.response.analysis;
    expect(a).toMatchObject({
      version: 1,
      status: 'partial',
      components: { questionRequirements: 'partial', brandDecisions: 'partial', sourceMetadata: 'ok' },
      budget: { tokensUsed: 0 },
    });
    expect(a.errors.map((e: any) => `${e.component}:${e.code}`)).toEqual([
      'questionRequirements:MODEL_NOT_CONFIGURED',
      'brandDecisions:MODEL_NOT_CONFIGURED',
    ]);
    expect(a.questionRequirements.items.map((i: any) => [i.type, i.quote])).toEqual([
      ['budget', 'under $150'],
      ['time', '2025'],
    ]);
    const [acme, nike] = a.brandDecisions.entities;
    expect(acme).toMatchObject({
      entityId: 'acme',
      mentioned: true,
      mentionCount: 1,
      mentionOrder: 1,
      shareOfVoice: 1,
      decision: null,
      firstMention: { unitIndex: 4 },
    });
    expect(nike).toMatchObject({
      entityId: 'e2',
      mentioned: false,
      mentionCount: 0,
      decision: 'absent',
      topPick: false,
    });

    const meta = Object.fromEntries(a.sourceMetadata.map((m: any) => [m.sourceId, m]));
    expect(meta.c1).toMatchObject({
      sourceType: 'news',
      typeMethod: 'structured_data',
      mediaClass: 'earned',
      publishedAt: '2024-03-04',
      dateSource: 'json_ld',
      author: { name: 'Jane Miller', kind: 'person' },
    });
    expect(meta.c2).toMatchObject({
      publishedAt: '2024-05-20',
      author: { name: '김하늘', kind: 'person', source: 'text' },
      language: 'ko',
    });
    expect(meta.c4).toMatchObject({
      ownership: { relation: 'owned', entityId: 'acme', method: 'site_name', confidence: null },
      sourceType: 'vendor_page',
      mediaClass: 'owned',
    });
    expect(a.sourceTypeShares).toHaveProperty('unattributed', view.response.summary.unattributedShare);
    expect(a.budget.tokenLimit).toBeGreaterThan(2000);
  });

  it('accepts zero citations with analysis.version = 1', async () => {
    const id = await submitAnalysis(svc, '/v1/source-influence', {
      answer: ANSWER,
      citations: [],
      analysis: { version: 1, entities: [] },
    });
    const view = await waitTerminal(svc, id, 30_000);
    expect(view.task.status).toBe('COMPLETED');
    expect(view.response.sources).toEqual([]);
    expect(view.response.summary).toMatchObject({
      sources: 0,
      attributedShare: 0,
      unattributedShare: 1,
      citationRecall: null,
    });
    expect(view.response.analysis).toMatchObject({
      sourceMetadata: [],
      components: { questionRequirements: 'insufficient_input', brandDecisions: 'ok', sourceMetadata: 'ok' },
      status: 'partial',
    });
  });

  it('keeps the CITATION_ATTRIBUTION alias off the generic endpoint; polling shows the canonical type', async () => {
    const r = await svc.call('POST', '/v1/async/task', { taskType: 'CITATION_ATTRIBUTION', payload: { prompt: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('USE_DEDICATED_ENDPOINT');
    const id = await submitAnalysis(svc, '/v1/source-influence', {
      answer: 'Foam absorbs shock in long runs [1].',
      citations: [`${pages.base}/en`],
    });
    const view = await svc.call('GET', `/v1/async/task/${id}`);
    expect(view.body.task.taskType).toBe('SOURCE_INFLUENCE');
    await waitTerminal(svc, id, 30_000);
  });
});
