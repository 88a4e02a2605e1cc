import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENGINES, startIdleService, submit, type RunningService } from '../helpers/service.js';

const STATUSES = ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'];
const MODES = ['anon', 'account', 'api', 'off'];
const INTERNAL = 'internal-token-ops-0123456789';

describe('operational endpoints', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService({ AEQ_INTERNAL_TOKEN: INTERNAL });
  });
  afterAll(() => svc.stop());

  it('GET /health -> 200 {status: "ok"}', async () => {
    const r = await svc.raw('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
  });

  it('GET /ready -> 200 once the store is migrated', async () => {
    const r = await svc.raw('GET', '/ready');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ready');
  });

  it('GET /stats -> {tasks: {QUEUED, PROCESSING, COMPLETED, FAILED}} that counts new tasks', async () => {
    const before = await svc.call('GET', '/stats');
    expect(before.status).toBe(200);
    expect(Object.keys(before.body.tasks).sort()).toEqual([...STATUSES].sort());
    for (const s of STATUSES) expect(Number.isInteger(before.body.tasks[s]), s).toBe(true);
    await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'count me' } });
    await submit(svc, { taskType: 'SEARCH_A', payload: { query: 'count me too' } });
    const after = await svc.call('GET', '/stats');
    expect(after.body.tasks.QUEUED).toBe(before.body.tasks.QUEUED + 2);
    expect(after.body.tasks.COMPLETED).toBe(before.body.tasks.COMPLETED);
  });

  it('GET /capacity is keyed by lower-case engine names, each with a mode and per-country serveability', async () => {
    const r = await svc.call('GET', '/capacity');
    expect(r.status).toBe(200);
    for (const t of ALL_ENGINES) {
      const e = r.body[t.toLowerCase()];
      expect(e, t).toBeDefined();
      expect(MODES).toContain(e.mode);
      for (const [country, c] of Object.entries(
        e.countries as Record<string, { serveable: unknown; accounts: unknown; hasIps: unknown }>,
      )) {
        expect(country).toMatch(/^[A-Z]{2}$/);
        expect(typeof c.serveable).toBe('boolean');
        expect(Number.isInteger(c.accounts)).toBe(true);
        expect(typeof c.hasIps).toBe('boolean');
      }
    }
    for (const k of Object.keys(r.body)) expect(k).toBe(k.toLowerCase());
    expect(r.body.chatbot_a.mode).toBe('account');
    expect(r.body.search_a.mode).toBe('anon');
    expect(r.body.search_a.countries.US).toEqual({ serveable: true, accounts: 0, hasIps: true });
  });

  it('/capacity never shows account secrets or provider keys', async () => {
    const r = await svc.call('GET', '/capacity');
    const text = JSON.stringify(r.body);
    expect(text).not.toMatch(/sk-sandbox|pplx-sandbox|gemini-sandbox|secret|apiKey/i);
  });

  it('GET /metrics is Prometheus text with aeq_ metrics, for the internal token only', async () => {
    await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'metrics' } });
    expect((await fetch(`${svc.url}/metrics`)).status).toBe(401);
    expect((await svc.call('GET', '/metrics')).status).toBe(401);
    const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${INTERNAL}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# HELP aeq_tasks_submitted_total /m);
    expect(text).toMatch(/^# TYPE aeq_tasks_submitted_total counter$/m);
    expect(text).toMatch(/^aeq_tasks_submitted_total\{engine="ANSWER_ENGINE_A"\} \d+$/m);
    expect(text).toMatch(/^aeq_queue_depth\{engine="ANSWER_ENGINE_A",status="QUEUED"\} [1-9]\d*$/m);
    // Every sample line is `name{labels} value`.
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/);
    }
  });
});

describe('GET /metrics under a scrape flood', () => {
  let svc: RunningService;
  let aggregates = 0;
  beforeAll(async () => {
    svc = await startIdleService({ AEQ_INTERNAL_TOKEN: INTERNAL });
    // Counts the store aggregate over every account that the queue-depth gauge is made of.
    const figures = svc.app.store.figures;
    const stats = figures.stats.bind(figures);
    figures.stats = (a) => {
      if (a.accountId === undefined) aggregates++;
      return stats(a);
    };
  });
  afterAll(() => svc.stop());

  it('takes the store aggregate once per 5 s for 40 scrapes, not once each', async () => {
    const scrape = () => fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${INTERNAL}` } });
    const answers = await Promise.all(Array.from({ length: 30 }, scrape));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    for (let i = 0; i < 10; i++) expect((await scrape()).status).toBe(200);
    // One per 5 s: two if the machine is so slow that the scrapes straddle that age.
    expect(aggregates).toBeGreaterThanOrEqual(1);
    expect(aggregates).toBeLessThanOrEqual(2);
    expect(await (await scrape()).text()).toMatch(/^aeq_queue_depth|^# TYPE aeq_queue_depth gauge$/m);
  });
});
