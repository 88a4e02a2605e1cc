import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimContext } from '../../src/sandbox/sim-context.js';
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
 * No secret ever leaves the service: account secrets, provider API keys, the forum's OAuth client
 * credentials (and the token they buy), a proxy password. Every engine runs, successes and
 * failures alike, with every include flag; then every text the outside world can see is searched:
 * polling views, webhook deliveries, logs, the operational endpoints, the internal pool listing,
 * the OpenAPI document, the raw bytes of the SQLite files and every task artefact's file.
 */
const SECRETS = {
  accountUs1: 'sk-SECRET-ACCOUNT-us1-9f2c41d7e0',
  accountUs2: 'sk-SECRET-ACCOUNT-us2-3b8e5a1c44',
  accountKr1: 'sk-SECRET-ACCOUNT-kr1-7d0f2e9b13',
  copilotAccount: 'sk-SECRET-ACCOUNT-copilot-5e1a7c2f90',
  openaiKey: 'SECRET-API-KEY-openai-c4d2e8f1a6',
  perplexityKey: 'SECRET-API-KEY-pplx-8a3f1d6e2b',
  geminiKey: 'SECRET-API-KEY-gemini-2e7b9c4d0f',
  forumClientId: 'SECRET-CLIENT-ID-forum-6c1e0b5a77',
  forumClientSecret: 'SECRET-CLIENT-SECRET-forum-0d9a3f8e21',
  proxyPassword: 'SECRET-PROXY-PASSWORD-4f7e2a9c1d',
  // A webhook signing secret as operators write it (whsec_ and the base64 of the key).
  webhookSecret: `whsec_${Buffer.from('SECRET-WEBHOOK-KEY-7a1c9e3b5d').toString('base64')}`,
};
const PROXY_USER = 'aeq-proxy';

/** Every form a secret could take on the way out. */
function secretForms(): Array<[label: string, text: string]> {
  const forms: Array<[string, string]> = Object.entries(SECRETS).map(([k, v]) => [k, v]);
  forms.push([
    'forum basic credentials (base64)',
    Buffer.from(`${SECRETS.forumClientId}:${SECRETS.forumClientSecret}`).toString('base64'),
  ]);
  forms.push([
    'proxy basic credentials (base64)',
    Buffer.from(`${PROXY_USER}:${SECRETS.proxyPassword}`).toString('base64'),
  ]);
  // The simulator's OAuth token for this client id (the same derivation the sandbox route uses).
  forms.push(['forum access token', `sim-${new SimContext().hash(SECRETS.forumClientId, 'token').toString(36)}`]);
  // Any fragment of a planted secret is a leak too.
  forms.push(['SECRET- marker', 'SECRET-']);
  return forms;
}

const INTERNAL_TOKEN = 'secrets-internal-token';
const asInternal = { authorization: `Bearer ${INTERNAL_TOKEN}` };
const include = { rawResponse: true, html: true, markdown: true, artifacts: true };

/** Prompt- and query-addressed engines: one normal task and one per failure directive. */
const TEXT_ENGINES: Array<
  [taskType: string, field: 'prompt' | 'query', text: string, extra?: Record<string, unknown>]
> = [
  ['CHATBOT_A', 'prompt', 'best trail running shoes', { country: 'US' }],
  ['ANSWER_ENGINE_A', 'prompt', 'what is pydantic'],
  ['ASSISTANT_A', 'prompt', 'louvre opening hours'],
  ['AIMODE', 'prompt', 'how to brew pour-over coffee'],
  ['SEARCH_A', 'prompt', 'best budget laptops sandbox:aio'],
  ['SEARCH_A_SERP', 'query', 'espresso grinder', { page: 2 }],
  ['SEARCH_B_AI_BRIEF', 'query', '캠핑 장비 추천'],
  ['SEARCH_B_AI_TAB', 'query', '캠핑 장비 추천'],
  ['SEARCH_B_SERP', 'query', '캠핑 장비 추천'],
  ['SEARCH_C_SEARCH', 'query', 'hiking boots'],
  ['SEARCH_C_ASSISTANT', 'prompt', 'what is a heat pump', { country: 'US' }],
  ['FORUM', 'query', 'espresso grinder'],
];
const DIRECTIVES = ['', ' sandbox:error', ' sandbox:captcha', ' sandbox:timeout'];

describe('secrets never leave the service', () => {
  let svc: RunningService;
  let hooks: Receiver;
  const logLines: string[] = [];
  const seen: Array<[source: string, text: string]> = [];
  const views: any[] = [];

  beforeAll(async () => {
    hooks = await startReceiver();
    const usExits = [1, 2, 3].map((i) => ({ id: `exit-us-${i}`, country: 'US', maxConcurrent: 64 }));
    const krExits = [1, 2, 3].map((i) => ({ id: `exit-kr-${i}`, country: 'KR', maxConcurrent: 64 }));
    const config = writeConfig(tempDir(), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, pollMs: 50 },
      engines: {
        CHATBOT_A: { upstream: { apiKey: SECRETS.openaiKey } },
        ANSWER_ENGINE_A: { upstream: { apiKey: SECRETS.perplexityKey } },
        ASSISTANT_A: { upstream: { apiKey: SECRETS.geminiKey } },
        // Signed-in Copilot: the account secret rides on HTTP headers and the socket URL.
        SEARCH_C_ASSISTANT: { mode: 'account', upstream: { options: { doneGraceMs: 100 } } },
        FORUM: { upstream: { options: { clientId: SECRETS.forumClientId, clientSecret: SECRETS.forumClientSecret } } },
      },
      accounts: [
        { id: 'acct-chatbot-us-1', engine: 'CHATBOT_A', country: 'US', secret: SECRETS.accountUs1 },
        { id: 'acct-chatbot-us-2', engine: 'CHATBOT_A', country: 'US', secret: SECRETS.accountUs2 },
        { id: 'acct-chatbot-kr-1', engine: 'CHATBOT_A', country: 'KR', secret: SECRETS.accountKr1 },
        { id: 'acct-copilot-us-1', engine: 'SEARCH_C_ASSISTANT', country: 'US', secret: SECRETS.copilotAccount },
      ],
      exitAddresses: [
        ...usExits,
        ...krExits,
        // Nothing listens on port 9: a task sent through it fails at the proxy, with its password in hand.
        {
          id: 'exit-nl-proxy',
          country: 'NL',
          proxyUrl: `http://${PROXY_USER}:${SECRETS.proxyPassword}@127.0.0.1:9`,
          maxConcurrent: 4,
        },
      ],
    });
    svc = await startService(
      // Parses inline: a parse thread's first start under tsx (it loads jsdom, cheerio and turndown)
      // can take longer than this test's 1.5 s attempts; the parse pool has its own tests.
      {
        AEQ_CONFIG: config,
        AEQ_INTERNAL_TOKEN: INTERNAL_TOKEN,
        AEQ_WEBHOOK_SECRET: SECRETS.webhookSecret,
        AEQ_ENGINE_TIMEOUT_MS: '1500',
        AEQ_ENGINE_MAX_ATTEMPTS: '2',
        AEQ_PARSE_THREADS: '0',
      },
      { logLines },
    );

    const webhook = { url: `${hooks.url}/hook` };
    const envelopes: unknown[] = [];
    for (const [taskType, field, text, extra] of TEXT_ENGINES) {
      for (const d of DIRECTIVES)
        envelopes.push({ taskType, payload: { [field]: text + d, include, ...extra }, webhook });
    }
    envelopes.push({ taskType: 'CHATBOT_A', payload: { prompt: '서울 맛집 추천', country: 'KR', include }, webhook });
    for (const d of ['', 'sandbox:error/', 'sandbox:captcha/', 'sandbox:timeout/']) {
      envelopes.push({ taskType: 'WEB_SCRAPE', payload: { url: `https://example.com/${d}guide`, include }, webhook });
    }
    for (const payload of [
      { action: 'read', url: 'https://redd.it/1k9x2q7' },
      { action: 'feed', community: 'rust' },
      { action: 'user_posts', user: 'spez' },
    ]) {
      envelopes.push({ taskType: 'FORUM', payload: { ...payload, include }, webhook });
    }

    // The proxy exit address leads nowhere: the listing must show its scheme only, then it rests
    // disabled while the other tasks run (tasks without a country may use any exit address).
    const listed = await svc.call('GET', '/internal/pools', undefined, asInternal);
    expect(listed.body.exitAddresses.find((x: { id: string }) => x.id === 'exit-nl-proxy')).toMatchObject({
      country: 'NL',
      proxy: 'http',
      disabled: false,
    });
    seen.push(['/internal/pools (proxy enabled)', JSON.stringify(listed.body)]);
    const proxyExit = (op: 'enable' | 'disable') =>
      svc.call('POST', `/internal/pools/exit-addresses/exit-nl-proxy/${op}`, undefined, asInternal);
    expect((await proxyExit('disable')).status).toBe(200);

    const ids = await Promise.all(envelopes.map((e) => submit(svc, e)));
    ids.push(
      await analysis('/v1/source-influence', {
        answer: 'Foam absorbs shock [1].',
        prompt: 'shoes?',
        citations: ['https://example.com/foam-review'],
        webhook,
      }),
    );
    ids.push(await analysis('/v1/prompt-research', { seed: 'running shoes', webhook }));
    for (const id of ids) views.push(await waitTerminal(svc, id, 45_000));

    // Then one task through the proxy, alone, so its connection failure (with the password in the
    // proxy URL and its Proxy-Authorization header) is logged and recorded; then it is disabled again.
    expect((await proxyExit('enable')).status).toBe(200);
    const viaProxy = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'via the proxy', country: 'NL', include },
      webhook,
    });
    views.push(await waitTerminal(svc, viaProxy, 20_000));
    ids.push(viaProxy);
    expect((await proxyExit('disable')).status).toBe(200);
    // Every task is terminal: a sender step delivers what is left of their webhooks.
    await deliverDue(svc);
    expect(new Set(hooks.received.map((r) => r.body?.task?.id)).size).toBe(ids.length);
  }, 90_000);

  afterAll(async () => {
    await svc?.stop();
    await hooks?.close();
  });

  const analysis = async (route: string, body: unknown): Promise<string> => {
    const r = await svc.call('POST', route, body);
    if (r.status !== 202) throw new Error(`${route}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.task.id as string;
  };

  it('ran every engine, with successes and each kind of failure, through the configured credentials', () => {
    const byType = new Map<string, Set<string>>();
    for (const v of views) {
      const outcome = v.task.status === 'COMPLETED' ? 'COMPLETED' : String(v.error).replace(/:.*$/s, '');
      byType.set(v.task.taskType, (byType.get(v.task.taskType) ?? new Set()).add(outcome));
    }
    for (const [taskType] of TEXT_ENGINES) {
      expect([...(byType.get(taskType) ?? [])].sort(), taskType).toEqual([
        'COMPLETED',
        'ENGINE_FAILED',
        'ENGINE_TIMEOUT',
      ]);
    }
    expect(byType.get('WEB_SCRAPE')).toEqual(new Set(['COMPLETED', 'ENGINE_FAILED', 'ENGINE_TIMEOUT']));
    expect(byType.get('SOURCE_INFLUENCE')).toEqual(new Set(['COMPLETED']));
    // Prompt research needs more than the short attempt timeout of this run: it only has to end.
    expect(byType.has('PROMPT_RESEARCH')).toBe(true);
    // The raw upstream payload was asked for and returned where the engine honours it.
    expect(views.some((v) => v.task.taskType === 'CHATBOT_A' && v.response?.rawResponse)).toBe(true);
    expect(views.some((v) => v.task.taskType === 'ASSISTANT_A' && v.response?.rawResponse)).toBe(true);
    // The last task went through the proxy exit address and failed there.
    const viaProxy = views.at(-1);
    expect(viaProxy.task.taskType).toBe('ANSWER_ENGINE_A');
    expect(viaProxy.error).toMatch(/^ENGINE_FAILED: /);
    expect(logLines.some((l) => l.includes('"exit":"exit-nl-proxy"'))).toBe(true);
  });

  it(
    'shows the proxy scheme but not its password in /internal/pools, ' +
      'and refuses operator mistakes without echoing secrets',
    async () => {
      const after = await svc.call('GET', '/internal/pools', undefined, asInternal);
      expect(after.body.exitAddresses.find((x: { id: string }) => x.id === 'exit-nl-proxy')).toMatchObject({
        proxy: 'http',
        disabled: true,
      });
      seen.push(['/internal/pools (proxy disabled)', JSON.stringify(after.body)]);
      const dup = await svc.call(
        'POST',
        '/internal/pools/accounts',
        { id: 'acct-chatbot-us-1', engine: 'CHATBOT_A', country: 'US', secret: SECRETS.accountUs1 },
        asInternal,
      );
      expect(dup.status).toBe(409);
      seen.push(['409 on a duplicate account', JSON.stringify(dup.body)]);
      const badProxy = await svc.call(
        'POST',
        '/internal/pools/exit-addresses',
        { id: 'x', country: 'NL', proxyUrl: `ftp://${PROXY_USER}:${SECRETS.proxyPassword}@127.0.0.1:21` },
        asInternal,
      );
      expect(badProxy.status).toBe(400);
      seen.push(['400 on an unusable proxy URL', JSON.stringify(badProxy.body)]);
      // Added at run time (disabled at once, nothing listens there): listed by scheme only.
      const socks = await svc.call(
        'POST',
        '/internal/pools/exit-addresses',
        { id: 'exit-nl-socks', country: 'NL', proxyUrl: `socks5://${PROXY_USER}:${SECRETS.proxyPassword}@127.0.0.1:9` },
        asInternal,
      );
      expect(socks.status).toBe(201);
      await svc.call('POST', '/internal/pools/exit-addresses/exit-nl-socks/disable', undefined, asInternal);
      seen.push(['201 on a SOCKS proxy', JSON.stringify(socks.body)]);
      seen.push([
        '/internal/pools (socks added)',
        JSON.stringify((await svc.call('GET', '/internal/pools', undefined, asInternal)).body),
      ]);
      const badSecret = await svc.call(
        'POST',
        '/internal/pools/accounts',
        { id: 'y', engine: 'NOPE', country: 'US', secret: SECRETS.accountUs2, extra: SECRETS.accountUs2 },
        asInternal,
      );
      expect(badSecret.status).toBe(400);
      seen.push(['400 on a bad account', JSON.stringify(badSecret.body)]);
    },
  );

  it('no secret in polling views, webhook bodies and headers, logs, endpoints or the SQLite files', async () => {
    for (const v of views) seen.push([`polling ${v.task.taskType} ${v.task.id}`, JSON.stringify(v)]);
    for (const r of hooks.received)
      seen.push([
        `webhook ${r.body?.task?.taskType} ${r.body?.task?.id}`,
        JSON.stringify({ headers: r.headers, body: r.body }),
      ]);
    for (const p of ['/metrics', '/capacity', '/stats', '/openapi.json', '/health', '/ready']) {
      // The metrics are the operator's: they take the internal token.
      const r = await svc.call('GET', p, undefined, p === '/metrics' ? asInternal : {});
      expect(r.status, p).toBe(200);
      seen.push([p, typeof r.body === 'string' ? r.body : JSON.stringify(r.body)]);
    }
    // Logs: every line, including the engine-failure warnings with their details.
    expect(logLines.some((l) => l.includes('engine attempt failed'))).toBe(true);
    for (const [i, l] of logLines.entries()) seen.push([`log line ${i}`, l]);
    // The database as stored (tasks.result, tasks.error, payloads, webhook bodies), journal included.
    for (const f of fs.readdirSync(svc.dataDir)) {
      const file = path.join(svc.dataDir, f);
      if (fs.statSync(file).isFile()) seen.push([`data file ${f}`, fs.readFileSync(file).toString('latin1')]);
    }
    expect(seen.some(([s]) => s.startsWith('data file aeq.sqlite'))).toBe(true);
    // Every task artefact as written (include.artifacts: the raw payload of every engine that completed).
    const artifactDir = svc.app.settings.artifactDir;
    const artefacts = fs
      .readdirSync(artifactDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name));
    expect(artefacts.filter((f) => f.endsWith('raw.json')).length).toBeGreaterThanOrEqual(TEXT_ENGINES.length);
    for (const f of artefacts)
      seen.push([`artefact ${path.relative(artifactDir, f)}`, fs.readFileSync(f).toString('latin1')]);

    const hits: string[] = [];
    for (const [source, text] of seen) {
      for (const [label, secret] of secretForms()) {
        if (text.includes(secret)) hits.push(`${label} in ${source}: …${excerpt(text, secret)}…`);
      }
    }
    expect(hits).toEqual([]);
  });
});

function excerpt(text: string, needle: string): string {
  const at = text.indexOf(needle);
  return text.slice(Math.max(0, at - 80), at + needle.length + 40);
}
