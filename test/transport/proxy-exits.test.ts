import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpProxy, startSocksProxy, type ProxyCredentials, type TestProxy } from '../helpers/proxies.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

const INTERNAL_TOKEN = 'internal-proxy-test-token';
const internal = { authorization: `Bearer ${INTERNAL_TOKEN}` };
const US_CREDS: ProxyCredentials = { username: 'us-exit', password: 'us-proxy-secret-7f3a' };
const KR_CREDS: ProxyCredentials = { username: 'kr-exit', password: 'kr-socks-secret-91bd' };
const DEAD_PASSWORD = 'dead-proxy-secret-55e0';
const FAST = { retryBaseMs: 20, retryMaxMs: 100, pollMs: 50 };

interface PoolView {
  id: string;
  country: string;
  proxy: string;
  coolingDownUntil: string | null;
}

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const search = (country: string, prompt: string) => ({ taskType: 'SEARCH_C_SEARCH', payload: { prompt, country } });

async function exitsOf(svc: RunningService): Promise<PoolView[]> {
  const r = await svc.call('GET', '/internal/pools', undefined, internal);
  expect(r.status).toBe(200);
  return r.body.exitAddresses as PoolView[];
}

/** Neither the plain nor the percent-encoded password may appear anywhere the service exposes. */
function expectNoPasswords(text: string): void {
  for (const p of [US_CREDS.password, KR_CREDS.password, DEAD_PASSWORD]) {
    expect(text).not.toContain(p);
    expect(text).not.toContain(encodeURIComponent(p));
  }
}

describe('exit addresses are real proxies (end to end, sandbox on)', () => {
  let usProxy: TestProxy;
  let krProxy: TestProxy;

  beforeAll(async () => {
    usProxy = await startHttpProxy({ auth: US_CREDS });
    krProxy = await startSocksProxy({ auth: KR_CREDS });
  });
  afterAll(async () => {
    await Promise.all([usProxy.close(), krProxy.close()]);
  });

  it('US tasks go through the HTTP proxy, KR tasks through SOCKS5; no password in pools, logs or metrics', async () => {
    const logLines: string[] = [];
    const config = writeConfig(tempDir(), {
      scheduler: { ...FAST, exitCooldownMs: 100 },
      exitAddresses: [
        { id: 'us-http-1', country: 'US', proxyUrl: usProxy.url('http', US_CREDS) },
        { id: 'kr-socks-1', country: 'KR', proxyUrl: krProxy.url('socks5', KR_CREDS) },
      ],
    });
    const svc = await startService({ AEQ_CONFIG: config, AEQ_INTERNAL_TOKEN: INTERNAL_TOKEN }, { logLines });
    try {
      const sandboxHost = new URL(svc.app.simulator?.url ?? '').host;
      const kr0 = krProxy.stats.tunnels;
      const us = await runTask(svc, search('US', 'trail running shoes'));
      expect(us.task.status).toBe('COMPLETED');
      expect(us.response.sources.length).toBeGreaterThan(0);
      const usCarried = usProxy.stats.tunnels;
      expect(usCarried).toBeGreaterThan(0);
      expect(usProxy.stats.targets.every((t) => t === sandboxHost)).toBe(true);
      expect(krProxy.stats.tunnels).toBe(kr0);

      const kr = await runTask(svc, search('KR', '서울 러닝화 추천'));
      expect(kr.task.status).toBe('COMPLETED');
      expect(krProxy.stats.tunnels).toBeGreaterThan(kr0);
      expect(krProxy.stats.targets.every((t) => t === `[ipv4] ${sandboxHost}`)).toBe(true);
      expect(usProxy.stats.tunnels).toBe(usCarried);
      expect(usProxy.stats.authFailures + krProxy.stats.authFailures).toBe(0);

      const exits = await exitsOf(svc);
      expect(exits.map((x) => [x.id, x.proxy])).toEqual([
        ['us-http-1', 'http'],
        ['kr-socks-1', 'socks5'],
      ]);
      const metrics = await svc.raw('GET', '/metrics', undefined, internal);
      expectNoPasswords(
        JSON.stringify(exits) + JSON.stringify(us) + JSON.stringify(kr) + String(metrics.body) + logLines.join('\n'),
      );
    } finally {
      await svc.stop();
    }
  });

  it('a dead first US exit is cooled down and the task completes on the second one', async () => {
    const deadPort = await closedPort();
    const logLines: string[] = [];
    const config = writeConfig(tempDir(), {
      // A long cooldown, so the dead exit is still resting when /internal/pools is read.
      scheduler: { ...FAST, exitCooldownMs: 60_000 },
      exitAddresses: [
        { id: 'us-dead', country: 'US', proxyUrl: `http://us-exit:${DEAD_PASSWORD}@127.0.0.1:${deadPort}` },
        { id: 'us-live', country: 'US', proxyUrl: krProxy.url('socks5h', KR_CREDS) },
      ],
    });
    const svc = await startService({ AEQ_CONFIG: config, AEQ_INTERNAL_TOKEN: INTERNAL_TOKEN }, { logLines });
    try {
      const before = krProxy.stats.tunnels;
      const r = await runTask(svc, search('US', 'espresso grinder'));
      expect(r.task.status).toBe('COMPLETED');
      expect(krProxy.stats.tunnels).toBeGreaterThan(before);

      const exits = await exitsOf(svc);
      expect(exits.find((x) => x.id === 'us-dead')?.coolingDownUntil).not.toBeNull();
      expect(exits.find((x) => x.id === 'us-live')?.coolingDownUntil).toBeNull();

      const failure = logLines
        .map((l) => JSON.parse(l) as { msg?: string; exit?: string; kind?: string; detail?: string })
        .find((l) => l.msg === 'engine attempt failed');
      expect(failure).toMatchObject({
        exit: 'us-dead',
        kind: 'UPSTREAM_BLOCKED',
        detail: `exit address us-dead: proxy http://127.0.0.1:${deadPort} connection failed (ECONNREFUSED)`,
      });
      expectNoPasswords(logLines.join('\n') + JSON.stringify(exits) + JSON.stringify(r));
    } finally {
      await svc.stop();
    }
  });
});
