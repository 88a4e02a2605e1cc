import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  deliverDue,
  fastConfig,
  startService,
  submit,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';

/**
 * AEQ_WEBHOOK_ALLOW_PRIVATE and AEQ_READER_ALLOW_PRIVATE each lift one guard: with one on, the other
 * still refuses loopback. Both the page and the receiver listen on 127.0.0.1, which the sandbox
 * fetches as asked (docs/contract.md#sandbox-scope), so what decides is the guard alone.
 */
const ARTICLE = `<!doctype html><html><head><title>Loopback article</title></head><body><article>
<h1>Loopback article</h1><p>${'This page is served on the loopback interface for the guard test. '.repeat(12)}</p>
</article></body></html>`;

async function startPageServer(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each([
  { reader: '1', webhook: '0' },
  { reader: '0', webhook: '1' },
])('AEQ_READER_ALLOW_PRIVATE=$reader, AEQ_WEBHOOK_ALLOW_PRIVATE=$webhook', ({ reader, webhook }) => {
  let svc: RunningService;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let hooks: Receiver;
  beforeAll(async () => {
    pages = await startPageServer();
    hooks = await startReceiver();
    svc = await startService({
      AEQ_CONFIG: fastConfig(tempDir()),
      AEQ_READER_ALLOW_PRIVATE: reader,
      AEQ_WEBHOOK_ALLOW_PRIVATE: webhook,
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await pages?.close();
    await hooks?.close();
  });

  it('the page reader follows its own switch, the webhook sender its own', async () => {
    const id = await submit(svc, {
      taskType: 'WEB_SCRAPE',
      payload: { url: `${pages.url}/article` },
      webhook: { url: `${hooks.url}/hook` },
    });
    const view = await waitTerminal(svc, id);
    if (reader === '1') {
      expect(view.task.status).toBe('COMPLETED');
      expect(view.response.title).toBe('Loopback article');
      expect(pages.hits()).toBe(1);
    } else {
      expect(view.task.status).toBe('FAILED');
      expect(view.error).toBe('BAD_PAYLOAD: payload.url must point to a host that resolves to a public address.');
      expect(pages.hits()).toBe(0);
    }

    await deliverDue(svc);
    const log = (await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body.webhook;
    if (webhook === '1') {
      expect(hooks.received).toHaveLength(1);
      expect(hooks.received[0]?.body.task.id).toBe(id);
      expect(log).toMatchObject({ status: 'delivered' });
    } else {
      expect(hooks.received).toHaveLength(0);
      // Refused (and retried on the usual schedule, as a name that does not resolve is), never sent.
      expect(log).toMatchObject({
        status: 'pending',
        attempts: [{ attempt: 1, outcome: 'retry', errorCode: 'PRIVATE_ADDRESS' }],
      });
    }
  });
});
