import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The worktree's own client (the package name can resolve to another checkout's copy through a shared node_modules).
import { AeqClient, AeqError } from '../../packages/client/src/index.js';
import { SANDBOX_CHATGPT_HISTORY, sandboxChatGptIdentity } from '../../src/sandbox/routes/chatgpt.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../browser/chromium.js';
import { runMonitorToEnd } from '../helpers/monitors.js';
import {
  TEST_KEY,
  movableClock,
  runTask,
  startService,
  tempDir,
  writeConfig,
  type RunningService,
} from '../helpers/service.js';

const INTERNAL = 'internal-token-artifacts-0123';
/** Over the hour a monitor's run waits for its tasks before it saves what has ended (docs/contract.md). */
const RETENTION_MS = 2 * 3_600_000;
/** A credential the operator configured for AIMODE's upstream: it must be in no artefact, whatever the page says. */
const HEADER_SECRET = 'SECRET-UPSTREAM-HEADER-5b1e9c7a3f';
/** ANSWER_ENGINE_A's provider key. */
const PPLX_KEY = 'SECRET-API-KEY-pplx-artifacts-61d0c2';
/** The sandbox's CHATBOT_A pool accounts, API keys and app sessions (engine-config.ts sandboxPools). */
const POOL_SECRETS = ['us-1', 'us-2', 'us-3', 'us-4', 'kr-1', 'kr-2'].flatMap((s) => [
  `sk-sandbox-${s}`,
  `sandbox-session-${s}`,
]);

interface Listed {
  name: string;
  kind: string;
  contentType: string;
  bytes: number;
  sha256: string;
  createdAt: string;
  url: string;
}

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What no artefact may hold: the planted credentials and everything of a pool account's page. */
function forbidden(): Array<[label: string, text: string]> {
  const out: Array<[string, string]> = [
    ['configured header secret', HEADER_SECRET],
    ['provider key', PPLX_KEY],
  ];
  for (const secret of POOL_SECRETS) {
    const who = sandboxChatGptIdentity(secret);
    out.push(['session secret', secret], ['e-mail', who.email], ['name', who.name], ['user id', who.userId]);
    out.push(['access token', who.accessToken]);
    for (const part of who.accessToken.split('.')) out.push(['access token segment', part]);
  }
  for (const title of SANDBOX_CHATGPT_HISTORY) out.push(['other conversation', title]);
  return out;
}

/**
 * Task artefacts (docs/contract.md#artifacts), through the real service over HTTP on the store of the project (SQLite
 * or PostgreSQL), the sandbox's upstreams and the system Chromium: what is kept for which engine, the listing, the
 * downloads with their headers and ranges, another account's task, the retention sweep, and that no secret is kept.
 */
describe.skipIf(!chromiumAvailable())('task artefacts', () => {
  const clock = movableClock();
  let svc: RunningService;
  let otherKey: string;

  beforeAll(async () => {
    const browser = { transport: 'browser', upstream: { options: { browserStableMs: 600 } } };
    const config = writeConfig(tempDir(), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, leaseMs: 3_600_000 },
      engines: {
        AIMODE: { ...browser, upstream: { ...browser.upstream, headers: { 'x-api-key': HEADER_SECRET } } },
        CHATBOT_A: browser,
        ANSWER_ENGINE_A: { upstream: { apiKey: PPLX_KEY } },
      },
    });
    svc = await startService(
      {
        AEQ_CONFIG: config,
        AEQ_CHROMIUM_PATH: CHROMIUM_PATH,
        AEQ_BROWSER_PAGES: '2',
        AEQ_INTERNAL_TOKEN: INTERNAL,
        AEQ_RETENTION_MS: String(RETENTION_MS),
      },
      { clock },
    );
    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'other' }, internal)).status).toBe(201);
    otherKey = (await svc.call('POST', '/internal/keys', { account: 'other' }, internal)).body.key as string;
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const list = async (id: string, key = TEST_KEY) =>
    svc.call('GET', `/v1/async/task/${id}/artifacts`, undefined, { authorization: `Bearer ${key}` });

  const download = async (urlPath: string, headers: Record<string, string> = {}): Promise<Download> => {
    const res = await fetch(svc.url + urlPath, { headers: { authorization: `Bearer ${TEST_KEY}`, ...headers } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  const artifactsOf = async (id: string): Promise<Listed[]> => {
    const r = await list(id);
    expect(r.status).toBe(200);
    return r.body.artifacts as Listed[];
  };

  /** Every artefact of a task, listed and downloaded whole. */
  const everything = async (id: string): Promise<Array<{ meta: Listed; body: Download }>> =>
    Promise.all((await artifactsOf(id)).map(async (meta) => ({ meta, body: await download(meta.url) })));

  let browserTask: string;

  it('a browser mode keeps the raw payload, the page HTML and a full-page PNG, each with its headers', async () => {
    const done = await runTask(
      svc,
      {
        taskType: 'AIMODE',
        payload: { prompt: 'how to descale a kettle', country: 'US', include: { artifacts: true } },
      },
      60_000,
    );
    expect(done.task.status).toBe('COMPLETED');
    browserTask = done.task.id as string;
    const r = await list(browserTask);
    expect(r.status).toBe(200);
    expect(r.body.task.id).toBe(browserTask);
    const listed = r.body.artifacts as Listed[];
    expect(listed.map((a) => [a.kind, a.name, a.contentType])).toEqual([
      ['raw', 'raw.json', 'application/json; charset=utf-8'],
      ['html', 'page.html', 'text/html; charset=utf-8'],
      ['screenshot', 'screenshot.png', 'image/png'],
    ]);
    for (const a of listed) {
      expect(a.url).toBe(`/v1/async/task/${browserTask}/artifacts/${a.name}`);
      expect(Number.isNaN(Date.parse(a.createdAt))).toBe(false);
      const got = await download(a.url);
      expect(got.status, a.name).toBe(200);
      expect(got.headers.get('content-type')).toBe(a.contentType);
      expect(got.headers.get('content-length')).toBe(String(a.bytes));
      expect(got.headers.get('accept-ranges')).toBe('bytes');
      expect(got.headers.get('etag')).toBe(`"${a.sha256}"`);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      expect(got.bytes.length).toBe(a.bytes);
      expect(createHash('sha256').update(got.bytes).digest('hex')).toBe(a.sha256);
    }
    const [raw, html, png] = await Promise.all(listed.map((a) => download(a.url)));
    // The raw payload is the engine's `raw`, as rawResponse would show it: the rendered page's diagnostics.
    const payload = JSON.parse(raw?.bytes.toString('utf8') ?? '') as Record<string, unknown>;
    expect(payload.transport).toBe('browser');
    // The page as the browser read it: the answer is in it.
    expect(html?.bytes.toString('utf8')).toMatch(/<html/i);
    expect(html?.bytes.toString('utf8')).toContain(String(done.response.sources[0].url).replace(/&/g, '&amp;'));
    // A PNG as wide as the window, and no taller than the cap.
    const picture = png?.bytes ?? Buffer.alloc(0);
    expect(picture.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(picture.readUInt32BE(16)).toBe(1366);
    expect(picture.readUInt32BE(20)).toBeGreaterThan(0);
    expect(picture.readUInt32BE(20)).toBeLessThanOrEqual(8000);
  }, 90_000);

  it('honours one byte range (206), a suffix, If-Range, and answers 416 past the end', async () => {
    const listed = await artifactsOf(browserTask);
    const png = listed.find((a) => a.kind === 'screenshot') as Listed;
    const whole = (await download(png.url)).bytes;

    const head = await download(png.url, { range: 'bytes=0-7' });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-7/${png.bytes}`);
    expect(head.headers.get('content-length')).toBe('8');
    expect(head.bytes.equals(PNG_SIGNATURE)).toBe(true);

    const middle = await download(png.url, { range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.bytes.equals(whole.subarray(100, 200))).toBe(true);

    const tail = await download(png.url, { range: 'bytes=-12' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${png.bytes - 12}-${png.bytes - 1}/${png.bytes}`);
    expect(tail.bytes.equals(whole.subarray(png.bytes - 12))).toBe(true);

    // A last position past the end is the end.
    const open = await download(png.url, { range: `bytes=${png.bytes - 3}-${png.bytes + 1000}` });
    expect(open.status).toBe(206);
    expect(open.bytes.equals(whole.subarray(png.bytes - 3))).toBe(true);

    // If-Range naming another version: the whole file; naming this one: the range.
    expect((await download(png.url, { range: 'bytes=0-7', 'if-range': '"other"' })).status).toBe(200);
    expect((await download(png.url, { range: 'bytes=0-7', 'if-range': `"${png.sha256}"` })).status).toBe(206);
    // A range list or a unit the service does not serve is ignored: the whole file.
    const several = await download(png.url, { range: 'bytes=0-1,4-5' });
    expect(several.status).toBe(200);
    expect(several.bytes.length).toBe(png.bytes);

    const beyond = await download(png.url, { range: `bytes=${png.bytes}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${png.bytes}`);
    expect(beyond.headers.get('content-type')).toMatch(/^application\/json/);
    const envelope = JSON.parse(beyond.bytes.toString('utf8')) as { success: boolean; error: { code: string } };
    expect(envelope).toMatchObject({ success: false, error: { code: 'RANGE_NOT_SATISFIABLE' } });

    // The typed client: the list, a range, and a refusal as an AeqError with its code.
    const client = new AeqClient({ baseUrl: svc.url, apiKey: TEST_KEY });
    expect((await client.artifacts(browserTask)).artifacts?.map((a) => a.name)).toEqual(listed.map((a) => a.name));
    expect(Buffer.from(await client.artifact(browserTask, png.name, { start: 0, end: 7 })).equals(PNG_SIGNATURE)).toBe(
      true,
    );
    const refused = await client
      .artifact(browserTask, png.name, { start: png.bytes, end: png.bytes + 1 })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(AeqError);
    expect((refused as AeqError).code).toBe('RANGE_NOT_SATISFIABLE');
  });

  it('an HTTP engine keeps its raw payload only; a task that did not ask keeps nothing', async () => {
    const asked = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'what is pydantic', include: { artifacts: true } },
    });
    const kept = await everything(asked.task.id as string);
    expect(kept.map((k) => k.meta.kind)).toEqual(['raw']);
    const raw = JSON.parse(kept[0]?.body.bytes.toString('utf8') ?? '') as { response: { choices: unknown[] } };
    // The provider's own answer body, as the engine received it.
    expect(Array.isArray(raw.response.choices)).toBe(true);
    expect((await download(`/v1/async/task/${asked.task.id}/artifacts/page.html`)).status).toBe(404);

    const plain = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'what is pydantic' } });
    const r = await list(plain.task.id as string);
    expect(r.status).toBe(200);
    expect(r.body.artifacts).toEqual([]);
    const none = await download(`/v1/async/task/${plain.task.id}/artifacts/raw.json`);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.bytes.toString('utf8'))).toMatchObject({
      success: false,
      error: { code: 'ARTIFACT_NOT_FOUND', details: { id: plain.task.id, name: 'raw.json' } },
    });
  });

  it('names the service did not make are not found, whatever they spell', async () => {
    for (const name of ['secret.txt', '..%2F..%2Faeq.sqlite', '%2E%2E', 'raw.json%00', 'RAW.JSON']) {
      const got = await download(`/v1/async/task/${browserTask}/artifacts/${name}`);
      expect(got.status, name).toBe(404);
      // A dot segment is resolved by the URL parser: no route of an artefact is then matched at all.
      expect(JSON.parse(got.bytes.toString('utf8')).error.code, name).toMatch(/^((ARTIFACT|RESOURCE)_)?NOT_FOUND$/);
    }
  });

  it("another account's task is 404 as an unknown one; no key is 401", async () => {
    const unknown = '0190c8a0-0000-7000-8000-000000000000';
    const theirs = await list(browserTask, otherKey);
    const none = await list(unknown, otherKey);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect(none.status).toBe(404);
    expect(Object.keys(theirs.body.error).sort()).toEqual(Object.keys(none.body.error).sort());
    const bytes = await fetch(`${svc.url}/v1/async/task/${browserTask}/artifacts/raw.json`, {
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(bytes.status).toBe(404);
    expect(((await bytes.json()) as { error: { code: string } }).error.code).toBe('RESOURCE_NOT_FOUND');
    // The task itself still is the default account's.
    expect((await list(browserTask)).status).toBe(200);
    const anonymous = await fetch(`${svc.url}/v1/async/task/${browserTask}/artifacts/raw.json`);
    expect(anonymous.status).toBe(401);
  });

  it('no artefact holds a secret: the upstream credentials, the pool account or its page', async () => {
    // The page itself shows the configured credential (the prompt carries it into AI Mode's page): the HTML and the
    // raw payload are redacted, and the picture, which cannot be, is not kept.
    const echoed = await runTask(
      svc,
      {
        taskType: 'AIMODE',
        payload: { prompt: `what is ${HEADER_SECRET}`, country: 'US', include: { artifacts: true } },
      },
      60_000,
    );
    // CHATBOT_A's web mode runs on a pool account whose page carries its identity, a token and other chats.
    const chat = await runTask(
      svc,
      {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'quiet mechanical keyboards for an office', country: 'US', include: { artifacts: true } },
      },
      60_000,
    );
    const api = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'what is a heat pump', include: { artifacts: true } },
    });
    for (const t of [echoed, chat, api]) expect(t.task.status).toBe('COMPLETED');

    const echoedKept = await everything(echoed.task.id as string);
    expect(echoedKept.map((k) => k.meta.kind)).toEqual(['raw', 'html']);
    expect(echoedKept.find((k) => k.meta.kind === 'html')?.body.bytes.toString('utf8')).toContain('[redacted]');

    // The chat's page is drawn from the scrubbed answer alone, and still pictured.
    const chatKept = await everything(chat.task.id as string);
    expect(chatKept.map((k) => k.meta.kind)).toEqual(['raw', 'html', 'screenshot']);
    const chatHtml = chatKept.find((k) => k.meta.kind === 'html')?.body.bytes.toString('utf8') ?? '';
    // Read from the app's stream, the answer's own text stands in for the turn's markup.
    expect(chatHtml).toContain('### Details');
    expect(chatHtml).not.toMatch(/<script|<nav|prompt-textarea|__NEXT_DATA__/);
    const chatPng = chatKept.find((k) => k.meta.kind === 'screenshot')?.body.bytes ?? Buffer.alloc(0);
    expect(chatPng.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    const kept = [...echoedKept, ...chatKept, ...(await everything(api.task.id as string))];
    expect(kept.length).toBeGreaterThanOrEqual(6);
    for (const { meta, body } of kept) {
      expect(body.status).toBe(200);
      for (const [label, value] of forbidden())
        expect(body.bytes.includes(Buffer.from(value, 'utf8')), `${label} in ${meta.name}`).toBe(false);
    }
    // And on disk, every file the service wrote (those of every attempt).
    const root = svc.app.settings.artifactDir;
    const files = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(files.length).toBeGreaterThanOrEqual(kept.length);
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(f.parentPath, f.name));
      for (const [label, value] of forbidden())
        expect(bytes.includes(Buffer.from(value, 'utf8')), `${label} in ${f.name} on disk`).toBe(false);
    }
  }, 90_000);

  it("a monitor's tasks keep their artefacts without asking", async () => {
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'evidence',
      prompts: ['is Nike good for running'],
      engines: ['ANSWER_ENGINE_A'],
      countries: ['US'],
      brand: { name: 'Nike' },
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor.id as string;
    await runMonitorToEnd(svc, id);
    const runs = await svc.call('GET', `/v1/monitors/${id}/runs?include=results`);
    const taskIds = (runs.body.runs[0].results as Array<{ taskId: string }>).map((r) => r.taskId);
    expect(taskIds.length).toBe(1);
    for (const taskId of taskIds) expect((await artifactsOf(taskId)).map((a) => a.kind)).toEqual(['raw']);
  });

  it('the retention sweep deletes the files with their task', async () => {
    const fresh = (
      await runTask(svc, {
        taskType: 'ANSWER_ENGINE_A',
        payload: { prompt: 'kept a while', include: { artifacts: true } },
      })
    ).task.id as string;
    const root = svc.app.settings.artifactDir;
    const dirOf = (id: string) =>
      fs
        .readdirSync(root)
        .map((hour) => path.join(root, hour, id))
        .find((d) => fs.existsSync(d));
    // Every task kept so far has its folder, until the sweep.
    const old = [browserTask, fresh];
    for (const id of old) expect(dirOf(id)).toBeDefined();

    clock.advance(RETENTION_MS + 60_000);
    // A task created now is younger than the window: its files stay.
    const young = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'young', include: { artifacts: true } },
    });
    await svc.app.sweeper.runOnce();
    for (const id of old) {
      expect(dirOf(id), id).toBeUndefined();
      expect((await list(id)).status).toBe(404);
    }
    expect(dirOf(young.task.id as string)).toBeDefined();
    expect((await artifactsOf(young.task.id as string)).map((a) => a.kind)).toEqual(['raw']);
  });
});
