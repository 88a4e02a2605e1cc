import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalysisService, submitAnalysis } from '../analysis/analysis-service.js';
import { type RunningService, waitTerminal } from '../helpers/service.js';

const INTERNAL = 'internal-token-monitors-012345';

/**
 * The monitor resource: create with prompts or a prompt research's monitor set,
 * read, list, edit, pause and resume, delete; the schedule (cron with time zone, daily by default) gives the next
 * run; the contract's 200 tasks per run; another account's monitor is not found.
 */
describe('monitors: create, read, edit, pause, delete', () => {
  let svc: RunningService;
  const body = {
    name: 'running shoes',
    prompts: ['best running shoes', 'best trail running shoes'],
    engines: ['CHATBOT_A', 'SEARCH_A_AIO'],
    countries: ['us', 'KR'],
    brand: { name: 'Nike', aliases: ['나이키'], domains: ['nike.com'] },
    competitors: [{ name: 'Adidas' }],
  };
  beforeAll(async () => {
    svc = await startAnalysisService({ env: { AEQ_INTERNAL_TOKEN: INTERNAL } });
  });
  afterAll(() => svc.stop());

  it('creates a monitor with names made canonical and a daily schedule, then reads and lists it', async () => {
    const before = Date.now();
    const r = await svc.call('POST', '/v1/monitors', body);
    expect(r.status).toBe(201);
    const m = r.body.monitor;
    expect(m).toMatchObject({
      name: 'running shoes',
      status: 'active',
      engines: ['CHATBOT_A', 'SEARCH_A'],
      countries: ['US', 'KR'],
      brand: { name: 'Nike', aliases: ['나이키'], domains: ['nike.com'] },
      competitors: [{ name: 'Adidas', aliases: [], domains: [] }],
      schedule: { cron: '0 0 * * *', timezone: 'UTC' },
      tasksPerRun: 8,
      promptResearchTaskId: null,
    });
    // The next midnight UTC after now.
    const next = Date.parse(m.schedule.nextRunAt);
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(86_400_000);
    expect(new Date(next).getUTCHours()).toBe(0);
    expect((await svc.call('GET', `/v1/monitors/${m.id}`)).body.monitor).toEqual(m);
    const list = await svc.call('GET', '/v1/monitors?limit=100');
    expect(list.body.monitors.map((x: { id: string }) => x.id)).toContain(m.id);
  });

  it('pages the list in creation order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await svc.call('POST', '/v1/monitors', { ...body, name: `page ${i}` })).body.monitor.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      // Cursors are ids: their case does not matter.
      const q: string = cursor ? `&cursor=${cursor.toUpperCase()}` : '';
      const page = await svc.call('GET', `/v1/monitors?limit=2${q}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.monitors.map((x: { id: string }) => x.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.filter((id) => ids.includes(id))).toEqual(ids);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('edits, pauses and resumes: a new schedule or a resume starts from the next slot', async () => {
    const m = (await svc.call('POST', '/v1/monitors', body)).body.monitor;
    const edited = await svc.call('PATCH', `/v1/monitors/${m.id}`, {
      schedule: { cron: '30 6 * * 1', timezone: 'Asia/Seoul' },
      competitors: [{ name: 'Adidas' }, { name: 'Hoka', domains: ['hoka.com'] }],
    });
    expect(edited.status).toBe(200);
    const next = new Date(edited.body.monitor.schedule.nextRunAt);
    // 06:30 on a Monday in Seoul is 21:30 UTC on a Sunday.
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([0, 21, 30]);
    expect(edited.body.monitor.competitors).toHaveLength(2);
    expect(edited.body.monitor.prompts).toEqual(body.prompts);

    // A new expression alone keeps the monitor's time zone.
    const sameZone = await svc.call('PATCH', `/v1/monitors/${m.id}`, { schedule: { cron: '30 6 * * 1' } });
    expect(sameZone.body.monitor.schedule).toMatchObject({ timezone: 'Asia/Seoul' });
    expect(sameZone.body.monitor.schedule.nextRunAt).toBe(edited.body.monitor.schedule.nextRunAt);

    const paused = await svc.call('PATCH', `/v1/monitors/${m.id}`, { status: 'paused' });
    expect(paused.body.monitor).toMatchObject({ status: 'paused', schedule: { nextRunAt: null } });
    const resumed = await svc.call('PATCH', `/v1/monitors/${m.id}`, { status: 'active' });
    expect(resumed.body.monitor.status).toBe('active');
    expect(resumed.body.monitor.schedule.nextRunAt).toBe(edited.body.monitor.schedule.nextRunAt);
  });

  it('takes the prompts of a completed prompt research (its monitor set)', async () => {
    const id = await submitAnalysis(svc, '/v1/prompt-research', {
      seed: 'running shoes',
      country: 'US',
      monitorSize: 5,
    });
    const done = await waitTerminal(svc, id, 30_000);
    expect(done.task.status).toBe('COMPLETED');
    const set = done.response.monitorSet.items.map((i: { text: string }) => i.text);
    const r = await svc.call('POST', '/v1/monitors', {
      name: 'from research',
      promptResearchTaskId: id,
      engines: ['CHATBOT_A'],
      brand: { name: 'Nike' },
    });
    expect(r.status).toBe(201);
    expect(r.body.monitor).toMatchObject({ prompts: set, promptResearchTaskId: id, countries: ['US'] });
  }, 60_000);

  it('refuses what it cannot run, with the field at fault', async () => {
    const bad = async (b: unknown, status: number, field: string) => {
      const r = await svc.call('POST', '/v1/monitors', b);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(r.body.error.details)).toContain(field);
    };
    await bad({ ...body, schedule: { cron: 'every day' } }, 400, 'schedule.cron');
    await bad({ ...body, schedule: { cron: '0 0 * * *', timezone: 'Mars/Olympus' } }, 400, 'schedule.timezone');
    await bad({ ...body, schedule: { cron: '* * * * * * *' } }, 400, 'schedule.cron');
    await bad({ ...body, schedule: { cron: '*/5 * * * *' } }, 400, 'at least an hour apart');
    await bad({ ...body, engines: ['WEB_SCRAPE'] }, 400, 'engines');
    await bad({ ...body, prompts: undefined }, 400, 'prompts');
    await bad({ ...body, promptResearchTaskId: '01a20000-0000-7000-8000-000000000000' }, 400, 'prompts');
    await bad(
      { ...body, prompts: undefined, promptResearchTaskId: '01a20000-0000-7000-8000-000000000000' },
      400,
      'promptResearchTaskId',
    );
    // 51 prompts × 4 engines = 204 prompt-by-engine tasks, over the contract's 200; 50 × 4 in two countries is fine.
    const engines = ['CHATBOT_A', 'SEARCH_A', 'AIMODE', 'ANSWER_ENGINE_A'];
    const prompts = Array.from({ length: 51 }, (_, i) => `prompt ${i}`);
    await bad({ ...body, prompts, engines }, 422, 'prompts');
    const fifty = await svc.call('POST', '/v1/monitors', { ...body, prompts: prompts.slice(0, 50), engines });
    expect(fifty.status).toBe(201);
    expect(fifty.body.monitor.tasksPerRun).toBe(400);
    await bad({ ...body, extra: 1 }, 400, 'extra');
    const patch = await svc.call('PATCH', '/v1/monitors/01a20000-0000-7000-8000-000000000000', { name: 'x' });
    expect(patch.status).toBe(404);
    expect(patch.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("deletes a monitor; another account's monitor is not found", async () => {
    const internal = { authorization: `Bearer ${INTERNAL}` };
    await svc.call('POST', '/internal/accounts', { name: 'monitors-b' }, internal);
    const key = (await svc.call('POST', '/internal/keys', { account: 'monitors-b' }, internal)).body.key;
    const other = { authorization: `Bearer ${key}` };
    const m = (await svc.call('POST', '/v1/monitors', body)).body.monitor;
    expect((await svc.call('GET', `/v1/monitors/${m.id}`, undefined, other)).status).toBe(404);
    expect((await svc.call('PATCH', `/v1/monitors/${m.id}`, { status: 'paused' }, other)).status).toBe(404);
    expect((await svc.call('DELETE', `/v1/monitors/${m.id}`, undefined, other)).status).toBe(404);
    const mine = await svc.call('GET', '/v1/monitors?limit=100', undefined, other);
    expect(mine.body.monitors).toEqual([]);
    expect((await svc.call('DELETE', `/v1/monitors/${m.id}`)).status).toBe(204);
    expect((await svc.call('GET', `/v1/monitors/${m.id}`)).status).toBe(404);
    expect((await svc.call('DELETE', `/v1/monitors/${m.id}`)).status).toBe(404);
  });
});
