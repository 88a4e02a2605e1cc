import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, tempDir, type RunningService } from '../helpers/service.js';
import { builtDashboard } from './dashboard-rig.js';

/**
 * How /dashboard is served: its files without a key (they hold no data) under a CSP that lets the page run only
 * its own scripts and talk only to this service; every API call still needs the key; without a build, a 503 that
 * says how to make one.
 */
describe('serving the dashboard', () => {
  let svc: RunningService;
  let unbuilt: RunningService;

  beforeAll(async () => {
    svc = await startIdleService({ AEQ_DASHBOARD_DIR: await builtDashboard() });
    unbuilt = await startIdleService({ AEQ_DASHBOARD_DIR: tempDir('aeq-no-dashboard-') });
  });
  afterAll(async () => {
    await svc.stop();
    await unbuilt.stop();
  });

  it('serves its page and assets without a key, under a strict content security policy', async () => {
    const redirect = await fetch(`${svc.url}/dashboard`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/dashboard/');
    const page = await fetch(`${svc.url}/dashboard/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    // Every asset is the service's own: no other origin is named.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const asset of ['app.js', 'app.css']) {
      const r = await fetch(`${svc.url}/dashboard/${asset}`);
      expect(r.status, asset).toBe(200);
      expect(r.headers.get('content-security-policy')).toBe(csp);
      expect(await r.text()).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    }
    // A file that is not there is a 404 envelope; the API beside it still wants the key.
    expect((await fetch(`${svc.url}/dashboard/secret.txt`)).status).toBe(404);
    expect((await fetch(`${svc.url}/dashboard/../openapi.json`)).status).not.toBe(500);
    expect((await svc.raw('GET', '/v1/monitors')).status).toBe(401);
  });

  it('says how to build it when it is not built', async () => {
    const r = await fetch(`${unbuilt.url}/dashboard/`);
    expect(r.status).toBe(503);
    expect(await r.text()).toContain('npm run build');
  });
});
