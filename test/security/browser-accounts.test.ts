import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CHATGPT_HISTORY, sandboxChatGptIdentity } from '../../src/sandbox/routes/chatgpt.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../browser/chromium.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  deliverDue,
  startService,
  submit,
  tempDir,
  waitTerminal,
  writeConfig,
  type RunningService,
} from '../helpers/service.js';

/**
 * The sandbox's CHATBOT_A app-session accounts (engine-config.ts sandboxPools): every one may serve the task (the
 * app surface leases no API key).
 */
const POOL_SECRETS = ['us-1', 'us-2', 'us-3', 'us-4', 'kr-1', 'kr-2'].map((s) => `sandbox-session-${s}`);
const SESSION_COOKIE = '__Secure-next-auth.session-token';

/** Everything of the pool accounts' logged-in page that must never reach a tenant. */
function forbidden(): Array<[label: string, text: string]> {
  const out: Array<[string, string]> = [];
  for (const secret of POOL_SECRETS) {
    const who = sandboxChatGptIdentity(secret);
    out.push(['e-mail', who.email], ['name', who.name], ['user id', who.userId], ['access token', who.accessToken]);
    // Any one segment of the token is enough to recognise it.
    for (const part of who.accessToken.split('.')) out.push(['access token segment', part]);
    out.push(['session secret', secret]);
  }
  for (const title of SANDBOX_CHATGPT_HISTORY) out.push(['other conversation', title]);
  return out;
}

/**
 * The shared browser accounts stay private (docs/security.md#shared-browser-accounts): CHATBOT_A's
 * web mode runs on pool accounts every tenant shares. The simulated chatgpt.com page of each account
 * carries its e-mail, name and avatar, a JWT access token in its bootstrap script and a history
 * sidebar with earlier tenants' conversations. A tenant asking with `include.rawResponse` gets the
 * answer, and nothing of the page around it: not in the polling view, not in the webhook, not in
 * the logs. The chat is temporary: the account's history does not keep the prompt.
 */
describe.skipIf(!chromiumAvailable())('shared browser accounts', () => {
  let svc: RunningService;
  let hooks: Receiver;
  let sim: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    hooks = await startReceiver();
    const web = { transport: 'browser', upstream: { options: { browserStableMs: 600 } } };
    const config = writeConfig(tempDir(), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 },
      engines: { CHATBOT_A: web },
    });
    svc = await startService(
      { AEQ_CONFIG: config, AEQ_CHROMIUM_PATH: CHROMIUM_PATH, AEQ_BROWSER_PAGES: '2' },
      { logLines },
    );
    const url = svc.app.simulator?.url;
    if (!url) throw new Error('the sandbox simulator did not start');
    sim = `${url}/chatgpt`;
  });
  afterAll(async () => {
    await svc?.stop();
    await hooks?.close();
  });

  const historyOf = async (secret: string): Promise<string[]> => {
    const res = await fetch(`${sim}/backend-api/conversations`, { headers: { cookie: `${SESSION_COOKIE}=${secret}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: Array<{ title: string }> }).items.map((i) => i.title);
  };

  it('the simulated page is a logged-in page that would leak (identity, token, other chats)', async () => {
    const secret = POOL_SECRETS[0] as string;
    const who = sandboxChatGptIdentity(secret);
    const page = await (await fetch(`${sim}/`, { headers: { cookie: `${SESSION_COOKIE}=${secret}` } })).text();
    for (const text of [who.email, who.name, who.accessToken, ...SANDBOX_CHATGPT_HISTORY]) expect(page).toContain(text);
    // And an ordinary (not temporary) chat would be kept in the account's history for the next tenant.
    const res = await fetch(`${sim}/backend-api/conversation`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'probe of the simulator history' }),
    });
    expect(res.status).toBe(200);
    expect(await historyOf(secret)).toContain('probe of the simulator history');
  });

  it('rawResponse, the polling view, the webhook and the logs hold the answer and nothing of the page', async () => {
    const before = new Map<string, string[]>();
    for (const s of POOL_SECRETS) before.set(s, await historyOf(s));
    const prompt = 'quiet mechanical keyboards for an office';
    const ids = await Promise.all(
      (['US', 'KR'] as const).map((country) =>
        submit(svc, {
          taskType: 'CHATBOT_A',
          payload: { prompt, country, include: { rawResponse: true, html: true } },
          webhook: { url: `${hooks.url}/hook` },
        }),
      ),
    );
    const views = await Promise.all(ids.map((id) => waitTerminal(svc, id, 60_000)));
    await deliverDue(svc);
    await hooks.waitUntil((all) => all.length >= 2, 20_000, 'both webhooks');

    for (const view of views) {
      // The answer is still right: the streamed turn whole, with its three sources.
      expect(view.error ?? null).toBeNull();
      expect(view.task.status).toBe('COMPLETED');
      expect(view.response.text).toMatch(/^quiet mechanical keyboards for an office /);
      expect(view.response.markdown).toMatch(/^### Details$/m);
      expect(view.response.sources).toHaveLength(3);
      // rawResponse holds no page: read from the app's stream, the stream's counts only; read from the page, the
      // turn's own markup, scrubbed.
      const raw = view.response.rawResponse as Record<string, unknown>;
      expect(raw.transport).toBe('browser');
      expect(raw.html).toBeUndefined();
      if (raw.capture === 'stream') {
        expect(raw.turnHtml).toBeUndefined();
        // Counts and the encoding's name: short scalars, no markup, nothing of the stream's text.
        for (const v of Object.values(raw.stream as object)) {
          expect(['number', 'boolean', 'string']).toContain(typeof v);
          expect(String(v).length).toBeLessThan(40);
          expect(String(v)).not.toMatch(/[<>]/);
        }
      } else {
        expect(typeof raw.turnHtml).toBe('string');
        expect(raw.turnHtml).toContain('<h3>Details</h3>');
        expect(raw.turnHtml).not.toMatch(/data-message-id|<script|<nav|prompt-textarea/);
      }
    }
    const outside = [
      ['polling views', JSON.stringify(views)],
      ['webhook bodies', hooks.received.map((r) => r.raw).join('\n')],
      ['logs', logLines.join('\n')],
    ] as const;
    for (const [where, text] of outside) {
      expect(text.length).toBeGreaterThan(0);
      for (const [label, value] of forbidden()) expect(text.includes(value), `${label} in ${where}`).toBe(false);
    }

    // Temporary chats: no account's history kept the prompt.
    for (const s of POOL_SECRETS) {
      const after = await historyOf(s);
      expect(after).toEqual(before.get(s));
      expect(after).not.toContain(prompt);
    }
  });
});
