import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';

const TOKEN = 'internal-pools-token';
const internal = { authorization: `Bearer ${TOKEN}` };
const chatbot = (country: string, prompt = 'hello') => ({ taskType: 'CHATBOT_A', payload: { prompt, country } });

describe('/internal/* without AEQ_INTERNAL_TOKEN', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.stop());

  it('answers 404 on every internal route, with or without a bearer', async () => {
    for (const [method, path] of [
      ['GET', '/internal/pools'],
      ['POST', '/internal/pools/accounts'],
      ['POST', '/internal/pools/exit-addresses'],
      ['DELETE', '/internal/pools/accounts/sandbox-chatbot-a-us-1'],
      ['POST', '/internal/pools/accounts/sandbox-chatbot-a-us-1/disable'],
      ['POST', '/internal/engines/CHATBOT_A/pause'],
    ] as const) {
      const r = await svc.call(method, path, method === 'POST' ? {} : undefined, internal);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('internal pool management (changes apply without a restart)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_INTERNAL_TOKEN: TOKEN, AEQ_CONFIG: fastConfig(tempDir()) });
  });
  afterAll(() => svc.stop());

  const op = (method: string, path: string, body?: unknown) => svc.call(method, path, body, internal);
  const pools = async () => (await op('GET', '/internal/pools')).body;
  const capacity = async () => (await svc.call('GET', '/capacity')).body;

  it('refuses the client key and a wrong token with 401', async () => {
    expect((await svc.call('GET', '/internal/pools')).status).toBe(401);
    expect((await svc.call('GET', '/internal/pools', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await op('GET', '/internal/pools')).status).toBe(200);
  });

  it('lists ids, countries, load and cooldown state only', async () => {
    const p = await pools();
    // Four US and two KR API keys, as many app sessions (engine-config.ts sandboxPools).
    expect(p.accounts).toHaveLength(12);
    expect(p.accounts.filter((a: { kind: string }) => a.kind === 'app')).toHaveLength(6);
    expect(p.exitAddresses).toHaveLength(15);
    expect(p.accounts[0]).toEqual({
      id: 'sandbox-chatbot-a-us-1',
      engine: 'CHATBOT_A',
      kind: 'api',
      country: 'US',
      inUse: 0,
      disabled: false,
      coolingDownUntil: null,
      coolingDownFor: {},
    });
    expect(Object.keys(p.exitAddresses[0]).sort()).toEqual([
      'capacity',
      'coolingDownFor',
      'coolingDownUntil',
      'country',
      'disabled',
      'id',
      'inUse',
      'proxy',
    ]);
    expect(JSON.stringify(p)).not.toContain('sk-sandbox');
  });

  it('adding a JP account for CHATBOT_A makes JP accepted, not REGION_UNAVAILABLE, and /capacity follows', async () => {
    const before = await svc.call('POST', '/v1/async/task', chatbot('JP'));
    expect(before.status).toBe(422);
    expect(before.body.error.code).toBe('REGION_UNAVAILABLE');
    expect((await capacity()).chatbot_a.countries.JP).toEqual({ serveable: false, accounts: 0, hasIps: true });

    const added = await op('POST', '/internal/pools/accounts', {
      id: 'jp-chatbot-1',
      engine: 'CHATBOT_A',
      country: 'jp',
      secret: 'sk-jp-account-secret-1',
    });
    expect(added.status).toBe(201);
    expect(added.body.account).toEqual({
      id: 'jp-chatbot-1',
      engine: 'CHATBOT_A',
      kind: 'api',
      country: 'JP',
      inUse: 0,
      disabled: false,
      coolingDownUntil: null,
      coolingDownFor: {},
    });
    expect(JSON.stringify(added.body)).not.toContain('sk-jp-account-secret-1');
    expect(JSON.stringify(await pools())).not.toContain('sk-jp-account-secret-1');

    expect((await capacity()).chatbot_a.countries.JP).toEqual({ serveable: true, accounts: 1, hasIps: true });
    const id = await submit(svc, chatbot('JP', 'ramen in tokyo'));
    const done = await waitTerminal(svc, id);
    expect(done.task.status).toBe('COMPLETED');
  });

  it('an account stored before accounts had kinds gets the kind its engine implies', async () => {
    // As an older version stored them: the spec without `kind` (its secret left in clear here; sealing is beside it).
    const legacy = (id: string, engine: string, secret: string) =>
      svc.app.store.runtime.putChange({
        key: `account:${id}`,
        state: JSON.stringify({
          kind: 'account',
          spec: { id, engine, country: 'BR', secret },
          disabled: false,
          removed: false,
        }),
        now: Date.now(),
      });
    await legacy('legacy-chatbot-br', 'CHATBOT_A', 'sk-legacy-br-0001');
    await legacy('legacy-copilot-br', 'SEARCH_C_ASSISTANT', 'copilot-legacy-br-0001');
    // Every process reads the stored changes within a second.
    const deadline = Date.now() + 10_000;
    let kinds: Record<string, string> = {};
    while (Date.now() < deadline) {
      const accounts = (await pools()).accounts as Array<{ id: string; kind: string }>;
      kinds = Object.fromEntries(accounts.filter((a) => a.id.startsWith('legacy-')).map((a) => [a.id, a.kind]));
      if (Object.keys(kinds).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // CHATBOT_A's `http` transport: its accounts were API keys; Copilot's chat protocol: app sessions.
    expect(kinds).toEqual({ 'legacy-chatbot-br': 'api', 'legacy-copilot-br': 'app' });
    for (const id of Object.keys(kinds))
      expect((await op('DELETE', `/internal/pools/accounts/${id}`)).status).toBe(200);
  });

  it('adding an exit address in a new country gives it IPs at once', async () => {
    expect((await svc.call('POST', '/v1/async/task', chatbot('FR'))).body.error.details).toEqual({
      country: 'FR',
      serveable: false,
      hasIps: false,
    });
    const added = await op('POST', '/internal/pools/exit-addresses', {
      id: 'fr-exit-1',
      country: 'FR',
      proxyUrl: 'http://user:fr-proxy-password@127.0.0.1:9/',
      maxConcurrent: 4,
    });
    expect(added.status).toBe(201);
    expect(added.body.exitAddress).toEqual({
      id: 'fr-exit-1',
      country: 'FR',
      capacity: 4,
      inUse: 0,
      disabled: false,
      coolingDownUntil: null,
      coolingDownFor: {},
      proxy: 'http',
    });
    expect(JSON.stringify(await pools())).not.toContain('fr-proxy-password');
    expect((await svc.call('POST', '/v1/async/task', chatbot('FR'))).body.error.details).toEqual({
      country: 'FR',
      serveable: false,
      hasIps: true,
    });
    expect((await capacity()).chatbot_a.countries.FR).toEqual({ serveable: false, accounts: 0, hasIps: true });
    // Nothing listens behind that proxy: take it out again so no task is sent through it.
    expect((await op('DELETE', '/internal/pools/exit-addresses/fr-exit-1')).body).toEqual({
      ok: true,
      id: 'fr-exit-1',
      removed: true,
      inUse: 0,
    });
    expect((await svc.call('POST', '/v1/async/task', chatbot('FR'))).body.error.details).toEqual({
      country: 'FR',
      serveable: false,
      hasIps: false,
    });
    expect((await capacity()).chatbot_a.countries.FR).toBeUndefined();
  });

  it('validates the bodies with field details (400 VALIDATION_ERROR), without echoing a secret', async () => {
    const bad = await op('POST', '/internal/pools/accounts', {
      id: '',
      engine: 'NOPE',
      country: 'Japan',
      secret: 5,
      extra: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const fields = (bad.body.error.details as Array<{ field: string }>).map((d) => d.field);
    for (const f of ['id', 'engine', 'country', 'secret']) expect(fields).toContain(f);

    // An API key offered as an app session is refused: it would be sent as chatgpt.com's cookie.
    const keyAsSession = await op('POST', '/internal/pools/accounts', {
      id: 'x-app-1',
      engine: 'CHATBOT_A',
      country: 'JP',
      kind: 'app',
      secret: 'sk-proj-not-a-session-9f3a',
    });
    expect(keyAsSession.status).toBe(400);
    expect(keyAsSession.body.error.details).toEqual([{ field: 'kind', message: expect.stringMatching(/API key/) }]);
    expect(JSON.stringify(keyAsSession.body)).not.toContain('not-a-session-9f3a');
    const badKind = await op('POST', '/internal/pools/accounts', {
      id: 'x-app-2',
      engine: 'CHATBOT_A',
      country: 'JP',
      kind: 'cookie',
      secret: 'x',
    });
    expect(badKind.status).toBe(400);
    expect((badKind.body.error.details as Array<{ field: string }>).map((d) => d.field)).toContain('kind');
    expect((await pools()).accounts.map((a: { id: string }) => a.id)).not.toContain('x-app-1');

    const missing = await op('POST', '/internal/pools/accounts', { id: 'x-1', engine: 'CHATBOT_A', country: 'JP' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ field: 'secret', message: 'is required' }]);

    const exit = await op('POST', '/internal/pools/exit-addresses', {
      id: 'bad id/with slash',
      country: 'DE',
      maxConcurrent: 0,
    });
    expect(exit.status).toBe(400);
    expect((exit.body.error.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual([
      'id',
      'maxConcurrent',
    ]);

    for (const proxyUrl of ['not a url with secret-pw', 'ftp://u:secret-pw@127.0.0.1/', 'http://u:secret-pw@/']) {
      const r = await op('POST', '/internal/pools/exit-addresses', { id: 'de-exit-x', country: 'DE', proxyUrl });
      expect(r.status, proxyUrl).toBe(400);
      expect(r.body.error.details[0].field).toBe('proxyUrl');
      expect(JSON.stringify(r.body)).not.toContain('secret-pw');
    }
    expect((await pools()).exitAddresses.some((x: { id: string }) => x.id === 'de-exit-x')).toBe(false);
  });

  it('lists a SOCKS5 exit address by its scheme only', async () => {
    const added = await op('POST', '/internal/pools/exit-addresses', {
      id: 'de-socks-1',
      country: 'DE',
      proxyUrl: 'socks5h://u:socks-secret-pw@127.0.0.1:9',
    });
    expect(added.status).toBe(201);
    expect(added.body.exitAddress).toMatchObject({ id: 'de-socks-1', proxy: 'socks5h', capacity: 8 });
    expect(JSON.stringify(await pools())).not.toContain('socks-secret-pw');
    // Nothing listens there: out again before a task could pick it.
    expect((await op('DELETE', '/internal/pools/exit-addresses/de-socks-1')).status).toBe(200);
  });

  it('answers 409 RESOURCE_ALREADY_EXISTS on a duplicate id, across both pools', async () => {
    const dupAccount = await op('POST', '/internal/pools/accounts', {
      id: 'sandbox-chatbot-a-us-1',
      engine: 'CHATBOT_A',
      country: 'US',
      secret: 'sk-other',
    });
    expect(dupAccount.status).toBe(409);
    expect(dupAccount.body.error).toMatchObject({
      code: 'RESOURCE_ALREADY_EXISTS',
      details: { id: 'sandbox-chatbot-a-us-1' },
    });
    const dupExit = await op('POST', '/internal/pools/exit-addresses', { id: 'sandbox-chatbot-a-us-1', country: 'US' });
    expect(dupExit.status).toBe(409);
    const dupOfExit = await op('POST', '/internal/pools/accounts', {
      id: 'sandbox-exit-us-1',
      engine: 'CHATBOT_A',
      country: 'US',
      secret: 'sk-other',
    });
    expect(dupOfExit.status).toBe(409);
  });

  it('disabling both KR accounts makes KR REGION_UNAVAILABLE (hasIps true); enabling one serves it again', async () => {
    for (const n of [1, 2])
      expect((await op('POST', `/internal/pools/accounts/sandbox-chatbot-a-kr-${n}/disable`)).status).toBe(200);
    const r = await svc.call('POST', '/v1/async/task', chatbot('KR'));
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual({ country: 'KR', serveable: false, hasIps: true });
    expect((await capacity()).chatbot_a.countries.KR).toEqual({ serveable: false, accounts: 0, hasIps: true });
    expect((await op('POST', '/internal/pools/accounts/sandbox-chatbot-a-kr-2/enable')).body).toEqual({
      ok: true,
      id: 'sandbox-chatbot-a-kr-2',
      disabled: false,
    });
    expect((await svc.call('POST', '/v1/async/task', chatbot('KR'))).status).toBe(202);
    expect((await capacity()).chatbot_a.countries.KR).toEqual({ serveable: true, accounts: 1, hasIps: true });
  });

  it('disabling every exit address of a country makes hasIps false', async () => {
    for (const n of [1, 2, 3])
      expect((await op('POST', `/internal/pools/exit-addresses/sandbox-exit-us-${n}/disable`)).status).toBe(200);
    const r = await svc.call('POST', '/v1/async/task', chatbot('US'));
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual({ country: 'US', serveable: false, hasIps: false });
    expect((await capacity()).chatbot_a.countries.US).toEqual({ serveable: false, accounts: 4, hasIps: false });
    for (const n of [1, 2, 3]) await op('POST', `/internal/pools/exit-addresses/sandbox-exit-us-${n}/enable`);
    expect((await svc.call('POST', '/v1/async/task', chatbot('US'))).status).toBe(202);
  });

  it('removing an account in use lets its current attempt finish, then the region has no capacity', async () => {
    const added = await op('POST', '/internal/pools/accounts', {
      id: 'gb-chatbot-1',
      engine: 'CHATBOT_A',
      country: 'GB',
      secret: 'sk-gb-account-secret-1',
    });
    expect(added.status).toBe(201);
    // The delay keeps the attempt running while the account is removed under it.
    const id = await submit(svc, chatbot('GB', 'london weather sandbox:delay=3000'));
    const inUse = async () =>
      ((await pools()).accounts as Array<{ id: string; inUse: number }>).find((a) => a.id === 'gb-chatbot-1')?.inUse;
    const deadline = Date.now() + 10_000;
    while ((await inUse()) !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const removed = await op('DELETE', '/internal/pools/accounts/gb-chatbot-1');
    expect(removed.body).toEqual({ ok: true, id: 'gb-chatbot-1', removed: true, inUse: 1 });
    expect((await pools()).accounts.some((a: { id: string }) => a.id === 'gb-chatbot-1')).toBe(false);
    expect((await svc.call('POST', '/v1/async/task', chatbot('GB'))).body.error.details).toEqual({
      country: 'GB',
      serveable: false,
      hasIps: true,
    });
    const done = await waitTerminal(svc, id);
    expect(done.task.status).toBe('COMPLETED');
    expect((await op('DELETE', '/internal/pools/accounts/gb-chatbot-1')).status).toBe(404);
  });

  it('unknown kinds, ids and operations are 404', async () => {
    expect((await op('DELETE', '/internal/pools/widgets/x')).status).toBe(404);
    expect((await op('DELETE', '/internal/pools/exit-addresses/no-such-exit')).status).toBe(404);
    expect((await op('POST', '/internal/pools/accounts/no-such-account/disable')).status).toBe(404);
    expect((await op('POST', '/internal/pools/accounts/sandbox-chatbot-a-us-1/explode')).status).toBe(404);
    expect((await op('POST', '/internal/engines/NOPE/pause')).status).toBe(404);
  });
});
