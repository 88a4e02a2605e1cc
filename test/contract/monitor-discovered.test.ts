import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitorToEnd } from '../helpers/monitors.js';
import { fastConfig, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';

const DAY = 86_400_000;
const INTERNAL = 'internal-token-for-discovered-0123';
/** The sandbox's running-shoe market names these brands (test/contract/sandbox-landscape.test.ts). */
const MARKET = ['Nike', 'Adidas', 'Hoka', 'Brooks', 'Asics', 'New Balance', 'Saucony'];

/**
 * The brands nobody told the monitor to track (docs/analysis.md §6.8): `GET /v1/monitors/{id}/discovered` lists the
 * names and domains its answers name or cite beyond the brand and competitors, pooled over its runs with a share per
 * run; `POST /v1/monitors/{id}/competitors` tracks one, after which it is no longer listed.
 */
describe('names the monitor does not track', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL }, { clock });
  });
  afterAll(() => svc.stop());

  it('lists the market brands its answers named, with their trend, and tracks one in one call', async () => {
    const made = await svc.call('POST', '/v1/monitors', {
      name: 'untracked',
      prompts: ['best running shoes for flat feet', 'running shoes for beginners', 'trail running shoes for wet rocks'],
      engines: ['CHATBOT_A', 'ANSWER_ENGINE_A'],
      brand: { name: 'Hoka', domains: ['hoka.com'] },
      competitors: [{ name: 'Nike', domains: ['nike.com'] }],
    });
    const id = made.body.monitor.id as string;
    // Paused: only the runs started here, no scheduled one.
    await svc.call('PATCH', `/v1/monitors/${id}`, { status: 'paused' });
    for (let day = 0; day < 2; day++) {
      await runMonitorToEnd(svc, id);
      clock.advance(DAY);
    }
    const found = (await svc.call('GET', `/v1/monitors/${id}/discovered`)).body;
    expect(found).toMatchObject({ success: true, monitorId: id, methodVersion: 'discovered-names/1.0.0', runs: 2 });
    expect(found.answers).toBe(12);
    const names = (found.names as Array<{ name: string; share: number; trend: unknown[]; engines: string[] }>).map(
      (n) => n.name,
    );
    // Market brands the monitor does not track are found; the tracked ones never are.
    const untracked = MARKET.filter((b) => b !== 'Hoka' && b !== 'Nike');
    expect(names.some((n) => untracked.some((b) => n.startsWith(b)))).toBe(true);
    for (const n of names) expect(['hoka', 'nike']).not.toContain(n.toLowerCase());
    for (const n of found.names) {
      expect(n.share).toBeGreaterThan(0);
      expect(n.share).toBeLessThanOrEqual(1);
      expect(n.trend).toHaveLength(2);
      expect(n.engines.length).toBeGreaterThan(0);
    }
    for (const d of found.domains as Array<{ domain: string }>)
      expect(['hoka.com', 'nike.com']).not.toContain(d.domain);

    // Track the most named market brand: one call, from the next run; then it is no longer listed.
    const pick = (found.names as Array<{ name: string }>).find((n) => untracked.some((b) => n.name.startsWith(b)));
    const brand = untracked.find((b) => pick?.name.startsWith(b)) as string;
    const promoted = await svc.call('POST', `/v1/monitors/${id}/competitors`, { name: brand });
    expect(promoted.status).toBe(201);
    expect(promoted.body.monitor.competitors.map((c: { name: string }) => c.name)).toEqual(['Nike', brand]);
    const again = (await svc.call('GET', `/v1/monitors/${id}/discovered`)).body;
    for (const n of again.names as Array<{ name: string }>) expect(n.name.startsWith(brand)).toBe(false);

    // Tracked already (as a competitor, or as the brand under another case): 409.
    for (const name of [brand, 'HOKA', 'nike'])
      expect((await svc.call('POST', `/v1/monitors/${id}/competitors`, { name })).body).toMatchObject({
        error: { code: 'COMPETITOR_EXISTS' },
      });
    expect((await svc.call('POST', `/v1/monitors/${id}/competitors`, {})).status).toBe(400);
  }, 60_000);

  it("is the caller's own: another account's key gets 404 on both", async () => {
    const made = await svc.call('POST', '/v1/monitors', {
      name: 'private',
      prompts: ['x'],
      engines: ['CHATBOT_A'],
      brand: { name: 'Hoka' },
    });
    const id = made.body.monitor.id as string;
    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'initech' }, internal)).status).toBe(201);
    const key = (await svc.call('POST', '/internal/keys', { account: 'initech' }, internal)).body.key as string;
    const as = { authorization: `Bearer ${key}` };
    expect((await svc.call('GET', `/v1/monitors/${id}/discovered`, undefined, as)).status).toBe(404);
    expect((await svc.call('POST', `/v1/monitors/${id}/competitors`, { name: 'Acme' }, as)).status).toBe(404);
    // Unchanged for its owner.
    expect((await svc.call('GET', `/v1/monitors/${id}`)).body.monitor.competitors).toEqual([]);
  });
});
