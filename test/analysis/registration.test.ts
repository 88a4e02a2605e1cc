import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, waitTerminal, type RunningService } from '../helpers/service.js';

/** The analysis adapters as the service ships them (default registry and config defaults). */
describe('analysis adapters in the default registry', () => {
  let svc: RunningService;
  let page: http.Server;
  let base = '';
  beforeAll(async () => {
    svc = await startService();
    page = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const prose = 'Trail running shoes need aggressive lugs for grip on wet rock. '.repeat(6);
      res.end(`<html lang="en"><body><article><p>${prose}</p></article></body></html>`);
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await svc.stop();
    await new Promise((r) => page.close(r));
  });

  it('SOURCE_INFLUENCE completes with the analysis result shape', async () => {
    const r = await svc.call('POST', '/v1/source-influence', {
      answer: 'Trail running shoes need aggressive lugs for grip on wet rock [1].',
      citations: [`${base}/trail`],
    });
    expect(r.status).toBe(202);
    const view = await waitTerminal(svc, r.body.task.id, 30_000);
    expect(view.task.status).toBe('COMPLETED');
    expect(view.response).toMatchObject({ resultVersion: 2, summary: { topSourceId: 'c1', citationRecall: 1 } });
    expect(view.response.sources[0].fetch).toMatchObject({ status: 'ok', fromCache: false });
  });

  it('PROMPT_RESEARCH completes with the research result shape', async () => {
    const r = await svc.call('POST', '/v1/prompt-research', { seed: 'nike shoes', brand: 'Nike', country: 'US' });
    expect(r.status).toBe(202);
    const view = await waitTerminal(svc, r.body.task.id, 30_000);
    expect(view.task.status).toBe('COMPLETED');
    expect(view.response).toMatchObject({
      resultVersion: 1,
      questions: [],
      monitorSet: { engines: ['CHATBOT_A', 'ANSWER_ENGINE_A', 'AIMODE'] },
    });
    expect(view.response.warnings[0].code).toBe('SEED_CONTAINS_BRAND');
  });
});
