import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simCredentialId } from '../../src/sandbox/load-stats.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

interface Src {
  position: number;
  url: string;
  label: string;
}

/**
 * The answer's three sentences about the topic (the brand sentence is drawn again at every ask, so it is left out).
 */
function topicSentences(text: string): string[] {
  const out = text.split(/(?<=\.)\s+|\n+/).map((x) => x.replace(/^- /, '').trim());
  const about = out.filter((x) => /^(?:compare|best) /.test(x));
  expect(about).toHaveLength(3);
  return about;
}

const FAST = { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 };
const POOL = ['us-1', 'us-2', 'us-3', 'us-4', 'kr-1', 'kr-2'];
/** The sandbox's CHATBOT_A API keys and app sessions (engine-config.ts sandboxPools). */
const API_KEYS = POOL.map((s) => `sk-sandbox-${s}`);
const SESSIONS = POOL.map((s) => `sandbox-session-${s}`);

/** The credentials the simulator saw per upstream family (`/__sim/stats`, hashed with `simCredentialId`). */
async function credentialsSeen(svc: RunningService, family: string): Promise<string[]> {
  const sim = svc.app.simulator?.url;
  if (!sim) throw new Error('the sandbox simulator did not start');
  const stats = (await (await fetch(`${sim}/__sim/stats`)).json()) as { credentials: Record<string, unknown> };
  return Object.keys(stats.credentials)
    .filter((k) => k.startsWith(`${family}:`))
    .map((k) => k.slice(family.length + 1));
}
/** The sandbox CHATBOT_A accounts' secrets (keys, sessions) and the pool account's identity on the simulated page. */
const SECRET = /sk-sandbox-|sandbox-session-|pool\.[0-9a-f]{10}@|Pool Member/;

/**
 * The app surfaces end to end (docs/engines.md#app-streams): the real service over HTTP, its default configuration
 * (the API is each engine's default surface), tasks asking `surface: "app"`; real Chromium loads the sandbox's
 * ChatGPT and Perplexity apps, which stream their answers in the apps' wire formats. The answer comes from the stream
 * the page received (`capture: "stream"`) with its signals; a cut stream leaves the page to read (`capture: "dom"`).
 */
describe.skipIf(!chromiumAvailable())('app surfaces read the apps own streams', { timeout: 150_000 }, () => {
  let svc: RunningService;
  const logLines: string[] = [];

  beforeAll(async () => {
    const config = writeConfig(tempDir(), {
      scheduler: FAST,
      engines: {
        CHATBOT_A: { upstream: { options: { browserStableMs: 500 } } },
        ANSWER_ENGINE_A: { upstream: { options: { browserStableMs: 500 } } },
      },
    });
    svc = await startService(
      { AEQ_CONFIG: config, AEQ_CHROMIUM_PATH: CHROMIUM_PATH, AEQ_BROWSER_PAGES: '2' },
      { logLines },
    );
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const chat = (prompt: string) =>
    runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt, country: 'US', surface: 'app' } }, 60_000);
  const pplx = (prompt: string) =>
    runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt, surface: 'app' } }, 60_000);

  it('CHATBOT_A: answer, citations in place, searches, results read and product cards from the stream', async () => {
    const r = await chat('best trail running shoes');
    expect(r.error ?? null).toBeNull();
    expect(r.response.capture).toBe('stream');
    const sources = r.response.sources as Src[];
    expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
    for (const s of sources) expect(s.url).toMatch(/^https:\/\/[^?]+$/);
    // Each citation mark is replaced where the app placed it; the last item cites two pages, [3] and again [1].
    expect(r.response.markdown).toMatch(/^best trail running shoes [^\n]* \[1\]$/m);
    expect(r.response.markdown).toMatch(/^### Details$/m);
    expect(r.response.markdown).toMatch(/^- best trail running shoes [^\n]* \[3\]\[1\]$/m);
    expect(r.response.markdown).not.toMatch(/[\ue200-\ue203]|utm_source/);
    expect(r.response.text).not.toMatch(/\[\d\]/);
    expect(r.response.searchTriggered).toBe(true);
    expect(r.response.searchQueries).toEqual(['best trail running shoes', 'best trail running shoes reviews']);
    // Five results listed, three cited: the other two were read only.
    const retrieved = r.response.retrievedSources as Array<{ position: number; url: string; title: string }>;
    expect(retrieved.map((x) => x.position)).toEqual([1, 2]);
    for (const x of retrieved) expect(sources.map((s) => s.url)).not.toContain(x.url);
    expect(retrieved[0]?.title).toMatch(/source 4$/);
    const products = r.response.products as Array<Record<string, unknown>>;
    expect(products).toHaveLength(2);
    expect(products[0]).toMatchObject({ position: 1, currency: 'USD', url: expect.stringMatching(/^https:\/\/shop/) });
    expect(products[0]?.price).toMatch(/^\$\d+\.99$/);
    expect(typeof products[0]?.rating).toBe('number');
    expect(r.response.ads).toBeNull();
    expect(JSON.stringify(r)).not.toMatch(SECRET);
    expect(logLines.join('\n')).not.toMatch(SECRET);
  });

  it('CHATBOT_A: a cut stream leaves the page to read, with the same answer and sources', async () => {
    const [streamed, cut] = await Promise.all([
      chat('compare e-bikes for commuting'),
      chat('compare e-bikes for commuting sandbox:brokenstream'),
    ]);
    expect(streamed.response.capture).toBe('stream');
    expect(cut.error ?? null).toBeNull();
    expect(cut.response.capture).toBe('dom');
    expect((cut.response.sources as Src[]).map((s) => s.url)).toEqual(
      (streamed.response.sources as Src[]).map((s) => s.url),
    );
    // The page shows the citations as site-name pills; the sentences are the stream's.
    for (const s of topicSentences(streamed.response.text)) expect(cut.response.text).toContain(s);
    // The page says nothing of searches or cards: unknown, not none.
    expect(cut.response.searchQueries).toBeNull();
    expect(cut.response.products).toBeNull();
  });

  it('CHATBOT_A: no search and no cards in the stream read as none', async () => {
    const r = await chat('best trail running shoes sandbox:nosearch sandbox:noproducts');
    expect(r.response.capture).toBe('stream');
    expect(r.response.sources).toEqual([]);
    expect(r.response).toMatchObject({ searchTriggered: false, searchQueries: [], retrievedSources: [], products: [] });
    expect(r.response.text).toMatch(/^best trail running shoes /);
  });

  it('ANSWER_ENGINE_A: the answer stream gives renumbered citations, searches, results read and cards', async () => {
    const r = await pplx('best running shoes for flat feet');
    expect(r.error ?? null).toBeNull();
    expect(r.response.capture).toBe('stream');
    const sources = r.response.sources as Src[];
    expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
    // The wire cites result [2] first: it becomes [1].
    expect(r.response.markdown).toMatch(/^best running shoes for flat feet [^\n]*\[1\]$/m);
    expect(r.response.markdown).toMatch(/\[2\]\[3\]$/m);
    expect(r.response.searchQueries).toEqual([
      'best running shoes for flat feet',
      'best running shoes for flat feet guide',
    ]);
    expect(r.response.searchTriggered).toBe(true);
    expect((r.response.retrievedSources as unknown[]).length).toBe(2);
    expect((r.response.products as unknown[]).length).toBe(2);

    const cut = await pplx('best running shoes for flat feet sandbox:brokenstream');
    expect(cut.response.capture).toBe('dom');
    expect((cut.response.sources as Src[]).map((s) => s.url)).toEqual(sources.map((s) => s.url));
    // The page's citation chips read as their numbers in the text; the sentences are the stream's.
    for (const s of topicSentences(r.response.text)) expect(cut.response.text).toContain(s);
    expect(cut.response.retrievedSources).toBeNull();
  });

  it('CHATBOT_A: the app gets only app sessions as its cookie, the API only API keys as its bearer', async () => {
    const [us, kr, api] = await Promise.all([
      chat('compare standing desks'),
      runTask(
        svc,
        { taskType: 'CHATBOT_A', payload: { prompt: '서울 맛집 추천', country: 'KR', surface: 'app' } },
        60_000,
      ),
      runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'compare standing desks', surface: 'api' } }, 60_000),
    ]);
    for (const r of [us, kr, api]) expect(r.task.status).toBe('COMPLETED');
    expect(us.response.capture).toBe('stream');
    expect(api.response.capture).toBeUndefined();
    // What chatgpt.com received as its session cookie: sessions of the pool, never one of its API keys.
    const app = await credentialsSeen(svc, 'chatgpt');
    const sessionIds = SESSIONS.map((s) => simCredentialId(`session ${s}`));
    expect(app.length).toBeGreaterThan(0);
    for (const id of app) expect(sessionIds).toContain(id);
    for (const key of API_KEYS) expect(app).not.toContain(simCredentialId(`session ${key}`));
    // A KR task ran on a KR session.
    const krIds = SESSIONS.filter((s) => s.includes('-kr-')).map((s) => simCredentialId(`session ${s}`));
    expect(app.some((id) => krIds.includes(id))).toBe(true);
    // And the API received keys as its bearer, never a session.
    const bearer = await credentialsSeen(svc, 'openai');
    expect(bearer.length).toBeGreaterThan(0);
    const keyIds = API_KEYS.map((k) => simCredentialId(`Bearer ${k}`));
    for (const id of bearer) expect(keyIds).toContain(id);
  });

  it('surface: validated per engine; the API surface answers without a capture', async () => {
    const bad = await svc.call('POST', '/v1/async/task', {
      taskType: 'CHATBOT_A',
      payload: { prompt: 'x', surface: 'web' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const single = await svc.call('POST', '/v1/async/task', {
      taskType: 'ASSISTANT_A',
      payload: { prompt: 'x', surface: 'app' },
    });
    expect(single.status).toBe(400);
    expect(single.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'payload.surface' }] });
    const api = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'descale a kettle', surface: 'api' },
    });
    expect(api.task.status).toBe('COMPLETED');
    expect(api.response.capture).toBeUndefined();
  });
});

/**
 * Pool accounts have a kind (docs/configuration.md#account-kinds): a deployment whose CHATBOT_A accounts are API keys
 * only cannot serve ChatGPT's app, and says so at submit instead of sending a key as the app's session cookie.
 */
describe.skipIf(!chromiumAvailable())('app surface without app sessions', { timeout: 60_000 }, () => {
  const TOKEN = 'internal-token-app-kinds-0001';
  let svc: RunningService;
  const appTask = (country: string) => ({
    taskType: 'CHATBOT_A',
    payload: { prompt: 'compare standing desks', country, surface: 'app' },
  });

  beforeAll(async () => {
    const config = writeConfig(tempDir(), {
      scheduler: FAST,
      // Keys with no kind, as configurations before kinds: the `http` transport makes them `api`.
      accounts: [
        { id: 'key-us-1', engine: 'CHATBOT_A', country: 'US', secret: 'sk-proj-kinds-us-0001' },
        { id: 'key-kr-1', engine: 'CHATBOT_A', country: 'KR', secret: 'sk-proj-kinds-kr-0001' },
      ],
    });
    svc = await startService({
      AEQ_CONFIG: config,
      AEQ_CHROMIUM_PATH: CHROMIUM_PATH,
      AEQ_INTERNAL_TOKEN: TOKEN,
      AEQ_SECRETS_KEY: 'secrets-key-app-kinds-0123456789abcdef',
    });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('is 422 ENGINE_UNAVAILABLE (NO_CREDENTIALS) with no app session anywhere; the API still serves', async () => {
    const r = await svc.call('POST', '/v1/async/task', appTask('US'));
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({
      code: 'ENGINE_UNAVAILABLE',
      details: { engine: 'CHATBOT_A', reason: 'NO_CREDENTIALS', message: expect.stringMatching(/kind "app"/) },
    });
    expect(JSON.stringify(r.body)).not.toContain('sk-proj-kinds');
    const api = await svc.call('POST', '/v1/async/task', {
      taskType: 'CHATBOT_A',
      payload: { prompt: 'compare standing desks', country: 'US' },
    });
    expect(api.status).toBe(202);
  });

  it('an app session in KR serves KR; US without one is REGION_UNAVAILABLE, like any region without', async () => {
    const internal = { authorization: `Bearer ${TOKEN}` };
    const added = await svc.call(
      'POST',
      '/internal/pools/accounts',
      { id: 'session-kr-1', engine: 'CHATBOT_A', country: 'KR', kind: 'app', secret: 'sess-kinds-kr-0001' },
      internal,
    );
    expect(added.status).toBe(201);
    expect(added.body.account).toMatchObject({ id: 'session-kr-1', kind: 'app', country: 'KR' });
    const us = await svc.call('POST', '/v1/async/task', appTask('US'));
    expect(us.status).toBe(422);
    expect(us.body.error).toMatchObject({ code: 'REGION_UNAVAILABLE', details: { country: 'US', serveable: false } });
    const kr = await runTask(svc, appTask('KR'), 45_000);
    expect(kr.task.status).toBe('COMPLETED');
    expect(kr.response.capture).toBe('stream');
    const app = await credentialsSeen(svc, 'chatgpt');
    expect(app).toEqual([simCredentialId('session sess-kinds-kr-0001')]);
  });

  it('a configuration that gives an API key as an app session does not start', async () => {
    const given = writeConfig(tempDir(), {
      accounts: [{ id: 'a', engine: 'CHATBOT_A', country: 'US', kind: 'app', secret: 'sk-proj-misplaced-0001' }],
    });
    await expect(startService({ AEQ_CONFIG: given })).rejects.toThrow(/accounts\[0\] \("a"\): .*API key/);
    // Inferred from the browser transport (its accounts were sessions), an `sk-` key is refused the same way.
    const inferred = writeConfig(tempDir(), {
      engines: { CHATBOT_A: { transport: 'browser' } },
      accounts: [{ id: 'b', engine: 'CHATBOT_A', country: 'US', secret: 'sk-proj-misplaced-0002' }],
    });
    await expect(startService({ AEQ_CONFIG: inferred, AEQ_CHROMIUM_PATH: CHROMIUM_PATH })).rejects.toThrow(
      /accounts\[0\] \("b"\): .*set "kind"/,
    );
    const wrongKind = writeConfig(tempDir(), {
      accounts: [{ id: 'c', engine: 'SEARCH_C_ASSISTANT', country: 'US', kind: 'api', secret: 'token' }],
    });
    await expect(startService({ AEQ_CONFIG: wrongKind })).rejects.toThrow(/kind "api" is not one SEARCH_C_ASSISTANT/);
  });
});
