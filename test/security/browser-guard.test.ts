import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../browser/chromium.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

/** A public address (example.com's); the exit's proxy serves it from the local simulator instead. */
const PUBLIC = '93.184.215.14';

interface FakeInternet {
  url: string;
  /** `host:port` of every CONNECT, in order. */
  targets: string[];
  close(): Promise<void>;
}

/** The exit's HTTP proxy, standing for the internet: every CONNECT reaches the simulator. */
async function startFakeInternet(simPort: number): Promise<FakeInternet> {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer();
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    targets.push(req.url ?? '');
    sockets.add(client);
    const upstream = net.connect(simPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/**
 * The browser's private-address guard through the real service (docs/security.md#browser-isolation):
 * outside the sandbox and with `AEQ_READER_ALLOW_PRIVATE` off, ANSWER_ENGINE_A's web mode still answers
 * through the exit's proxy (the guard relay checks the public host and tunnels through the exit),
 * and the same engine pointed at a loopback address fails without a single request reaching it.
 */
describe.skipIf(!chromiumAvailable())('browser private-address guard, through the service', () => {
  let sim: Simulator;
  let internet: FakeInternet;
  const services: RunningService[] = [];

  beforeAll(async () => {
    sim = await startSimulator();
    internet = await startFakeInternet(Number(new URL(sim.url).port));
  });
  afterAll(async () => {
    for (const s of services) await s.stop();
    await internet?.close();
    await sim?.close();
  });

  async function serviceFor(webBaseUrl: string): Promise<RunningService> {
    const config = writeConfig(tempDir(), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, pollMs: 50 },
      // Perplexity's page needs no session: chatgpt.com's `__Secure-` cookie would need https.
      engines: {
        ANSWER_ENGINE_A: {
          transport: 'browser',
          maxAttempts: 2,
          // Web mode reads the page, but the engine counts as configured only with its API key.
          upstream: { apiKey: 'pplx-unused-by-web-mode', options: { webBaseUrl, browserStableMs: 600 } },
        },
      },
      exitAddresses: [{ id: 'exit-us', country: 'US', proxyUrl: internet.url, maxConcurrent: 4 }],
    });
    const svc = await startService({
      AEQ_SANDBOX: '0',
      AEQ_READER_ALLOW_PRIVATE: '0',
      AEQ_CONFIG: config,
      AEQ_CHROMIUM_PATH: CHROMIUM_PATH,
      AEQ_BROWSER_PAGES: '1',
    });
    services.push(svc);
    return svc;
  }

  const pageHits = async (): Promise<number> => {
    const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as {
      families: Record<string, { total: number }>;
    };
    return stats.families['perplexity-web']?.total ?? 0;
  };

  it('a public upstream answers through the guard and the exit proxy', async () => {
    const svc = await serviceFor(`http://${PUBLIC}/perplexity-web`);
    internet.targets.length = 0;
    const r = await runTask(
      svc,
      { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'how to descale a kettle' } },
      60_000,
    );
    expect(r.error ?? null).toBeNull();
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.text).toMatch(/^how to descale a kettle /);
    expect(r.response.sources).toHaveLength(3);
    expect(internet.targets.length).toBeGreaterThan(0);
    expect(new Set(internet.targets)).toEqual(new Set([`${PUBLIC}:80`]));
  }, 90_000);

  it('the same engine pointed at loopback fails, and nothing reaches the address', async () => {
    const before = await pageHits();
    const svc = await serviceFor(`${sim.url}/perplexity-web`);
    internet.targets.length = 0;
    const r = await runTask(
      svc,
      { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'how to descale a kettle' } },
      60_000,
    );
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED/);
    expect(await pageHits()).toBe(before);
    expect(internet.targets).toEqual([]);
  }, 90_000);
});
