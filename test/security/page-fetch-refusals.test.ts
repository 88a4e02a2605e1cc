import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalysisService, submitAnalysis } from '../analysis/analysis-service.js';
import { fastConfig, runTask, startService, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';

/**
 * A page reader with its guard on (AEQ_READER_ALLOW_PRIVATE unset) and real DNS (no sandbox routing): a
 * target that resolves to a private address and a name that does not resolve end the same way, so a
 * tenant cannot learn which host names exist on the service's network. The page server on loopback
 * shows that nothing private was fetched.
 */
let pageServer: http.Server;
let port = 0;
let hits = 0;
/** A host name (not `localhost`) that resolves to loopback here, so the check after resolution is exercised. */
let loopbackName: string | null = null;

beforeAll(async () => {
  pageServer = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>private</title><p>internal page</p>');
  });
  await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
  port = (pageServer.address() as AddressInfo).port;
  const addrs = await dns.lookup(os.hostname(), { all: true }).catch(() => []);
  if (addrs.length > 0 && addrs.every((a) => a.address.startsWith('127.') || a.address === '::1'))
    loopbackName = os.hostname();
});
afterAll(async () => {
  await new Promise<void>((r) => pageServer.close(() => r()));
});

/** Private targets (refused) and names that do not resolve (`.invalid` never does: RFC 6761). */
const targets = (): Array<[string, string]> => [
  ['the loopback address', `http://127.0.0.1:${port}/page`],
  ['localhost', `http://localhost:${port}/page`],
  ['IPv6 loopback', `http://[::1]:${port}/page`],
  ['a private network address', 'http://10.1.2.3/page'],
  ['the link-local metadata address', 'http://169.254.169.254/latest/meta-data/'],
  ...(loopbackName
    ? [[`${loopbackName}, a name of loopback`, `http://${loopbackName}:${port}/page`] as [string, string]]
    : []),
  ['an unresolvable name', 'http://no-such-host.invalid/page'],
  ['another unresolvable name', `http://intranet-${process.pid}.invalid:${port}/page`],
];

describe('WEB_SCRAPE: a private target and an unresolvable name fail alike', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_READER_ALLOW_PRIVATE: '0', AEQ_CONFIG: fastConfig(tempDir()) });
  });
  afterAll(async () => {
    await svc.stop();
  });

  it('each ends BAD_PAYLOAD with the same sentence after one attempt, and nothing private is read', async () => {
    const before = hits;
    const views = await Promise.all(
      targets().map(async ([label, url]) => [label, await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url } })]),
    );
    for (const [label, view] of views) {
      expect(view.task.status, label).toBe('FAILED');
      expect(view.error, label).toBe(
        'BAD_PAYLOAD: payload.url must point to a host that resolves to a public address.',
      );
      // Retrying one and not the other would tell them apart by the attempt count and by time.
      const asked = await svc.call('GET', `/v1/async/task/${view.task.id}/request`);
      expect(asked.body.request.attempts, label).toBe(1);
    }
    expect(hits).toBe(before);
  });
});

describe('source-influence citation fetches: a private target and an unresolvable name read alike', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startAnalysisService({ model: false, env: { AEQ_SANDBOX: '0', AEQ_READER_ALLOW_PRIVATE: '0' } });
  });
  afterAll(async () => {
    await svc.stop();
  });

  it('every source has the same status, warning and retry count, and nothing private is read', async () => {
    const before = hits;
    const list = targets();
    const answer = list.map((_, i) => `Claim number ${i + 1} about running shoes and knees [${i + 1}].`).join(' ');
    const id = await submitAnalysis(svc, '/v1/source-influence', {
      answer,
      citations: list.map(([, url]) => url),
    });
    const r = (await waitTerminal(svc, id, 30_000)).response;
    const fetches = r.sources.map((s: any) => s.fetch);
    for (const [i, f] of fetches.entries())
      expect(f, list[i]?.[0]).toMatchObject({ status: 'ssrf_refused', httpStatus: null, bytes: 0 });
    const messages = new Set(
      r.warnings
        .filter((w: any) => w.code === 'SOURCE_FETCH_FAILED')
        .map((w: any) => w.message.replace(w.sourceId, 'cN')),
    );
    expect(messages).toEqual(new Set(['Page not read (ssrf_refused: not a public address that resolves).']));
    expect(r.usage.sourceFetches).toMatchObject({ attempted: list.length, failed: list.length, retries: 0 });
    expect(hits).toBe(before);
  });
});
