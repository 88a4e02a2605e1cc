import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';
import { cleanDetail } from '../../src/domain/task-failure.js';
import type { EngineAdapter } from '../../src/engines/adapter.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { fastConfig, startService, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';

/**
 * A failed task's `failure.message` quotes the adapter's detail, which is written for logs. What reaches a client
 * (polling, webhook) is fenced again: URLs cut to their host, userinfo, credential words' values, opaque tokens and
 * the engine's own key removed, control characters dropped, the length bounded.
 */
const PLANTED_KEY = 'plantedkey-perplexity-abcdef';
const PROXY_PASSWORD = 'hunter-two-proxy-pass';

describe('cleanDetail', () => {
  it('keeps the host of a URL, never its userinfo, path or query', () => {
    const out = cleanDetail('challenge at https://bob:pw123@shop.example.com:8443/cart/42?session=abc#x (cf)');
    expect(out).toBe('challenge at shop.example.com:8443 (cf)');
  });

  it('removes credential words, opaque tokens, userinfo without a scheme and the secrets it is given', () => {
    const out = cleanDetail(
      `Bearer sk-live-4f9a8b7c6d5e; api_key=zzz; password: opensesame; proxy bob:${PROXY_PASSWORD}@10.0.0.1 ` +
        `token 0123456789abcdefABCDEF0123 then ${PLANTED_KEY}`,
      [PLANTED_KEY, PROXY_PASSWORD],
    );
    expect(out).not.toMatch(/sk-live|zzz|sesame|hunter|0123456789abcdef|plantedkey/);
    expect(out).toMatch(/Bearer \[redacted\]/);
    expect(out).toMatch(/api_key=\[redacted\]/);
  });

  it('keeps what a reader needs: host names, statuses, counts', () => {
    expect(cleanDetail('getaddrinfo ENOTFOUND generativelanguage.googleapis.com')).toBe(
      'getaddrinfo ENOTFOUND generativelanguage.googleapis.com',
    );
    expect(cleanDetail('responses stream: ended before response.completed after 12 events (340 text chars)')).toBe(
      'responses stream: ended before response.completed after 12 events (340 text chars)',
    );
  });

  it('drops control characters and bounds a body quoted by mistake', () => {
    const out = cleanDetail(`bad\u0000frame\r\n${'<div>lorem ipsum </div>'.repeat(50)}`);
    expect(out).not.toMatch(/\p{Cc}/u);
    expect(out.length).toBeLessThanOrEqual(200);
  });
});

/** ANSWER_ENGINE_A that fails with a detail quoting its key, a credentialled URL and a token. */
const leakyAnswerEngine: EngineAdapter = {
  taskType: 'ANSWER_ENGINE_A',
  needsAccount: false,
  async run(ctx) {
    throw new UpstreamFailure(
      'UPSTREAM_BLOCKED',
      `challenge at https://u:p@api.example.com/v1?key=${ctx.config.upstream.apiKey} with Bearer ${ctx.config.upstream.apiKey}`,
    );
  },
};

describe('through the service', () => {
  let svc: RunningService;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    const config = fastConfig(tempDir(), {
      engines: { ANSWER_ENGINE_A: { mode: 'api', maxAttempts: 1, upstream: { apiKey: PLANTED_KEY } } },
    });
    svc = await startService({ AEQ_CONFIG: config }, { registry: defaultRegistry().register(leakyAnswerEngine) });
  });
  afterAll(async () => {
    await svc.stop();
    await receiver.close();
  });

  it("never shows the engine's key in polling or in the webhook", async () => {
    const sub = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'anything' },
      webhook: { url: `${receiver.url}/hook` },
    });
    expect(sub.status).toBe(202);
    const r = await waitTerminal(svc, sub.body.task.id);
    expect(r.failure.code).toBe('UPSTREAM_BLOCKED');
    expect(r.failure.message).toMatch(/challenge at api\.example\.com/);
    await receiver.waitUntil((all) => all.length === 1, 10_000, 'the webhook');
    for (const text of [JSON.stringify(r), receiver.received[0]?.raw ?? '']) {
      expect(text).not.toContain('plantedkey');
      expect(text).not.toContain('u:p@');
    }
    expect(receiver.received[0]?.body.failure).toEqual(r.failure);
  });
});
