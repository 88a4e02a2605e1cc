import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startService, type RunningService } from '../helpers/service.js';

/**
 * The operator's routes (`/internal/*`, `/metrics`) as an attacker with a tenant key, or none, would try them: every
 * spelling of every internal path we can think of, sent byte for byte (node:http, which does not normalise the path
 * as fetch does), GET and POST and the route's own method. Access is decided on the route the router matched, so no
 * spelling may reach a route under any rule but its own; and without AEQ_INTERNAL_TOKEN the routes do not exist.
 */
const INTERNAL = 'internal-token-security-0123456789';

/** Each internal route with its parameters filled in, and a body that would do harm if it got through. */
const ROUTES: ReadonlyArray<{ method: string; path: string; body?: unknown }> = [
  { method: 'GET', path: '/internal/stats' },
  { method: 'GET', path: '/internal/accounts' },
  { method: 'POST', path: '/internal/accounts', body: { name: 'intruder' } },
  { method: 'GET', path: '/internal/keys' },
  { method: 'POST', path: '/internal/keys', body: { account: 'default', name: 'stolen' } },
  { method: 'POST', path: '/internal/keys/aeq_abcdefgh/revoke' },
  { method: 'GET', path: '/internal/pools' },
  {
    method: 'POST',
    path: '/internal/pools/accounts',
    body: { id: 'evil-account', engine: 'CHATBOT_A', country: 'JP', secret: 'sk-evil-secret' },
  },
  {
    method: 'POST',
    path: '/internal/pools/exit-addresses',
    body: { id: 'evil-exit', country: 'US', proxyUrl: 'http://127.0.0.1:9/' },
  },
  { method: 'DELETE', path: '/internal/pools/accounts/sandbox-chatbot-a-us-1' },
  { method: 'POST', path: '/internal/pools/accounts/sandbox-chatbot-a-us-1/disable' },
  { method: 'POST', path: '/internal/engines/CHATBOT_A/pause' },
  { method: 'GET', path: '/metrics' },
];

/** Every way we know to write a path so that a string check and the router might disagree about it. */
function spellings(path: string): string[] {
  const [, first = '', rest = ''] = /^\/([^/]+)(.*)$/.exec(path) ?? [];
  const encodeAll = (s: string, upper: boolean) =>
    [...s].map((c) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
  const slashAt = rest.indexOf('/', 1);
  const out = [
    path,
    `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${rest}`,
    `/${encodeAll(first, true)}${rest}`,
    `/${encodeAll(first, false)}${rest}`,
    `/${first}${rest.replace('/', '%2F')}`,
    `/${first}${rest.replace('/', '%2f')}`,
    `/%25${first.charCodeAt(0).toString(16)}${first.slice(1)}${rest}`,
    `/${first}${rest.replace('/', '%252F')}`,
    `//${first}${rest}`,
    `/${first}/${rest}`,
    `/${first}${rest}//`,
    `/./${first}${rest}`,
    `/v1/../${first}${rest}`,
    `/health/../${first}${rest}`,
    `/dashboard/../${first}${rest}`,
    `/dashboard/%2e%2e/${first}${rest}`,
    `/x/%2E%2E/${first}${rest}`,
    `/${first}/.${rest}`,
    `${path}/`,
    `${path}?`,
    `${path}?x=1`,
    `${path}#frag`,
    `${path};x=1`,
    `${path}%00`,
    `/${first.toUpperCase()}${rest}`,
    `/${first[0]?.toUpperCase() ?? ''}${first.slice(1)}${rest}`,
    `/${first}\\${rest.slice(1)}`,
    `\\${first}${rest}`,
  ];
  if (slashAt > 0) out.push(`/${first}${rest.slice(0, slashAt)}%2F${rest.slice(slashAt + 1)}`);
  return [...new Set(out)];
}

interface Raw {
  status: number;
  text: string;
}

/** One request with the path sent exactly as given. */
function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const u = new URL(base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Raw>((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        // A connection each: a path the HTTP parser refuses ends its connection, which must not fail the next probe.
        agent: false,
        method,
        path,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A refusal: a 4xx envelope, or the 503 of an unbuilt dashboard (a dot-segment path under /dashboard/ is its file
 * route's, which serves nothing but that message).
 */
const refused = (r: Raw) =>
  (r.status >= 400 && r.status < 500) || (r.status === 503 && r.text.startsWith('The dashboard is not built'));

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The routes a Fastify instance has, flattened from its route tree (`printRoutes`; wildcards print apart). */
function registeredRoutes(tree: string): Array<{ path: string; methods: string[] }> {
  const stack: string[] = [];
  const out: Array<{ path: string; methods: string[] }> = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack[depth] = path;
    if (m[3]) out.push({ path, methods: m[3].split(', ') });
  }
  return out;
}

/** What must still hold after the probes: no account, key, resource or pause was made by any of them. */
async function operatorState(svc: RunningService) {
  const get = async (p: string) => (await svc.call('GET', p, undefined, bearer(INTERNAL))).body;
  const pools = await get('/internal/pools');
  return {
    accounts: (await get('/internal/accounts')).accounts.map((a: { name: string }) => a.name).sort(),
    keys: (await get('/internal/keys')).keys.length,
    poolAccounts: pools.accounts.map((a: { id: string; disabled: boolean }) => `${a.id}:${a.disabled}`).sort(),
    exits: pools.exitAddresses.map((x: { id: string }) => x.id).sort(),
    chatbotPaused: (await svc.call('GET', '/capacity')).body.chatbot_a.paused,
  };
}

describe('internal routes, with AEQ_INTERNAL_TOKEN', () => {
  let svc: RunningService;
  let tenantKey: string;
  beforeAll(async () => {
    svc = await startService({ AEQ_INTERNAL_TOKEN: INTERNAL });
    const made = await svc.call('POST', '/internal/accounts', { name: 'tenant' }, bearer(INTERNAL));
    expect(made.status).toBe(201);
    const key = await svc.call('POST', '/internal/keys', { account: 'tenant' }, bearer(INTERNAL));
    expect(key.status).toBe(201);
    tenantKey = key.body.key;
  });
  afterAll(() => svc.stop());

  it('the probe list is every internal route the server has', () => {
    const internal = registeredRoutes(svc.app.http?.printRoutes({ commonPrefix: false }) ?? '')
      .filter((r) => r.path.startsWith('/internal') || r.path === '/metrics')
      .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.path}`))
      .sort();
    const probed = ROUTES.map((r) => `${r.method} ${r.path}`);
    // Each registered route (a template) is matched by one probe (its parameters filled in).
    for (const route of internal) {
      const [method, template = ''] = route.split(' ');
      const pattern = new RegExp(`^${method} ${template.replace(/:[a-z]+/g, '[^/]+')}$`);
      expect(
        probed.some((p) => pattern.test(p)),
        `no probe for ${route}`,
      ).toBe(true);
    }
    expect(internal.length).toBeGreaterThanOrEqual(12);
  });

  it('the internal token reaches them (the probes below would see a way in)', async () => {
    const accounts = await rawRequest(svc.url, 'GET', '/internal/accounts', bearer(INTERNAL));
    expect(accounts.status).toBe(200);
    expect(accounts.text).toContain('tenant');
    // An encoded spelling the router decodes reaches the same route, under the same rule.
    expect((await rawRequest(svc.url, 'GET', '/%69nternal/accounts', bearer(INTERNAL))).status).toBe(200);
    expect((await rawRequest(svc.url, 'GET', '/metrics', bearer(INTERNAL))).status).toBe(200);
  });

  it('no spelling of any internal route lets a tenant key, the client key, a wrong token or no key in', async () => {
    const before = await operatorState(svc);
    const callers: Array<[string, Record<string, string>]> = [
      ['no key', {}],
      ['a tenant key', bearer(tenantKey)],
      ["the default account's key", bearer(TEST_KEY)],
      ['a wrong token', bearer(`${INTERNAL}x`)],
      ['the token as a query', {}],
    ];
    let probes = 0;
    for (const route of ROUTES) {
      for (const path of spellings(route.path)) {
        for (const method of new Set([route.method, 'GET', 'POST'])) {
          for (const [who, headers] of callers) {
            const p =
              who === 'the token as a query' ? `${path}${path.includes('?') ? '&' : '?'}token=${INTERNAL}` : path;
            const r = await rawRequest(svc.url, method, p, headers, method === 'GET' ? undefined : (route.body ?? {}));
            probes++;
            const label = `${method} ${p} with ${who}: ${r.status} ${r.text.slice(0, 120)}`;
            expect(refused(r), label).toBe(true);
            expect(r.text, label).not.toMatch(/"accounts"|"keys"|"exitAddresses"|aeq_credits|"key":"aeq_/);
          }
        }
      }
    }
    expect(probes).toBeGreaterThan(1500);
    expect(await operatorState(svc)).toEqual(before);
  }, 120_000);
});

describe('internal routes, without AEQ_INTERNAL_TOKEN', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.stop());

  it('are not registered: the router has none of them', () => {
    const router = svc.app.http;
    if (!router) throw new Error('no HTTP server');
    const templates: Array<[string, string]> = [
      ['GET', '/internal/stats'],
      ['GET', '/internal/accounts'],
      ['POST', '/internal/keys'],
      ['POST', '/internal/keys/:prefix/revoke'],
      ['GET', '/internal/pools'],
      ['POST', '/internal/pools/accounts'],
      ['DELETE', '/internal/pools/:kind/:id'],
      ['POST', '/internal/pools/:kind/:id/:op'],
      ['POST', '/internal/engines/:engine/:op'],
    ];
    for (const [method, url] of templates) expect(router.hasRoute({ method, url }), `${method} ${url}`).toBe(false);
    // Only the one public route that answers 404 for all of them remains.
    expect(router.hasRoute({ method: 'GET', url: '/internal/*' })).toBe(true);
  });

  it('answer 404 to every caller, whatever the spelling, and change nothing', async () => {
    const before = (await svc.call('GET', '/capacity')).body.chatbot_a;
    for (const route of ROUTES) {
      for (const headers of [{}, bearer(TEST_KEY), bearer(INTERNAL)]) {
        const r = await rawRequest(svc.url, route.method, route.path, headers, route.body);
        expect(r.status, `${route.method} ${route.path}`).toBe(404);
        expect(JSON.parse(r.text).error.code).toBe('NOT_FOUND');
        for (const path of spellings(route.path)) {
          const s = await rawRequest(svc.url, route.method, path, headers, route.body);
          expect(refused(s), `${route.method} ${path}: ${s.status}`).toBe(true);
        }
      }
    }
    expect((await svc.call('GET', '/capacity')).body.chatbot_a).toEqual(before);
  }, 120_000);
});
