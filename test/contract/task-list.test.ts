import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AeqClient, AeqError } from '../../packages/client/src/index.js';
import { LIST_WINDOW } from '../../src/store/tasks/list.js';
import {
  TEST_KEY,
  fastConfig,
  startIdleService,
  startService,
  steppedClock,
  tempDir,
  type RunningService,
} from '../helpers/service.js';

const INTERNAL = 'internal-token-task-list-0123';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 20, 8);
const iso = (ms: number) => new Date(ms).toISOString();
const queued = (prompt: string) => ({ taskType: 'SEARCH_A', payload: { query: prompt } });

type Who = 'acme' | 'globex' | 'default';

/**
 * GET /v1/async/tasks: the caller's account's tasks created since a time (and before another), oldest first, a page
 * at a time, each as polling shows it; never another account's, never an expired one; bad input is a 400
 * VALIDATION_ERROR with details, a missing key a 401.
 */
describe('listing an account’s recent tasks', () => {
  const clock = steppedClock(T0);
  let svc: RunningService;
  const keys: Record<string, string> = {};
  const auth = (who: Who): Record<string, string> =>
    who === 'default' ? {} : { authorization: `Bearer ${keys[who]}` };
  const get = (who: Who, path: string) => svc.call('GET', path, undefined, auth(who));
  const post = async (who: Who, path: string, body: unknown): Promise<string[]> => {
    const r = await svc.call('POST', path, body, auth(who));
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return Array.isArray(body) ? r.body.results.map((x: any) => x.task.id) : [r.body.task.id];
  };
  /** Every page of a listing, following nextCursor; the ids in order and the pages' sizes. */
  const allPages = async (who: Who, query: string) => {
    const ids: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(who, `/v1/async/tasks?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.success).toBe(true);
      ids.push(...r.body.tasks.map((t: any) => t.task.id));
      sizes.push(r.body.tasks.length);
      cursor = r.body.nextCursor;
    } while (cursor !== null && sizes.length < 50);
    return { ids, sizes };
  };
  const idsOf = async (who: Who, query: string) => (await allPages(who, query)).ids;

  // acme: three queued tasks at T0, a batch of four at T0+1h, one COMPLETED and one FAILED at T0+2h.
  const acme = { first: [] as string[], batch: [] as string[], ok: '', failed: '' };
  const globex: string[] = [];
  const mine: string[] = [];
  const acmeAll = () => [...acme.first, ...acme.batch, acme.ok, acme.failed];

  beforeAll(async () => {
    const config = fastConfig(tempDir(), { paused: ['SEARCH_A'] });
    // One attempt: a retry would wait for the stepped clock.
    svc = await startService(
      { AEQ_CONFIG: config, AEQ_INTERNAL_TOKEN: INTERNAL, AEQ_ENGINE_MAX_ATTEMPTS: '1' },
      { clock },
    );
    const internal = { authorization: `Bearer ${INTERNAL}` };
    for (const name of ['acme', 'globex']) {
      expect((await svc.call('POST', '/internal/accounts', { name }, internal)).status).toBe(201);
      keys[name] = (await svc.call('POST', '/internal/keys', { account: name }, internal)).body.key;
    }
    for (let i = 0; i < 3; i++) {
      acme.first.push(...(await post('acme', '/v1/async/task', queued(`acme ${i}`))));
      globex.push(...(await post('globex', '/v1/async/task', queued(`globex ${i}`))));
    }
    mine.push(...(await post('default', '/v1/async/task', queued('default 0'))));
    clock.advance(HOUR);
    acme.batch = await post(
      'acme',
      '/v1/async/task/batch',
      [0, 1, 2, 3].map((i) => queued(`acme batch ${i}`)),
    );
    globex.push(...(await post('globex', '/v1/async/task/batch', [queued('globex batch')])));
    clock.advance(HOUR);
    const engine = (prompt: string) => ({ taskType: 'ANSWER_ENGINE_A', payload: { prompt } });
    acme.ok = (await post('acme', '/v1/async/task', engine('acme completes'))).join();
    acme.failed = (await post('acme', '/v1/async/task', engine('acme fails sandbox:error'))).join();
    globex.push(...(await post('globex', '/v1/async/task', engine('globex completes'))));
    for (const [who, id] of [
      ['acme', acme.ok],
      ['acme', acme.failed],
      ['globex', globex.at(-1)],
    ] as const)
      await terminal(who, id ?? '');
  });
  afterAll(() => svc.stop());

  async function terminal(who: Who, id: string): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const r = await get(who, `/v1/async/task/${id}`);
      if (r.body.task?.status === 'COMPLETED' || r.body.task?.status === 'FAILED') return;
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error(`task ${id} not terminal`);
  }

  it('pages through every task in creation order, none missed or repeated', async () => {
    const { ids, sizes } = await allPages('acme', `since=${iso(T0)}&limit=2`);
    expect(ids).toEqual(acmeAll());
    expect(new Set(ids).size).toBe(ids.length);
    expect(sizes).toEqual([2, 2, 2, 2, 1]);
    // Ids are time-ordered: creation order is id order.
    expect([...ids].sort()).toEqual(ids);

    // The default page holds 100: all nine at once, and no next page.
    const one = await get('acme', `/v1/async/tasks?since=${iso(T0)}`);
    expect(one.body.tasks).toHaveLength(9);
    expect(one.body.nextCursor).toBeNull();
    // A page exactly full, with nothing after it, says so.
    expect((await get('acme', `/v1/async/tasks?since=${iso(T0)}&limit=9`)).body.nextCursor).toBeNull();
    // Without include=result an item is {task, credits}, as polling shows them.
    for (const item of one.body.tasks) {
      expect(Object.keys(item).sort()).toEqual(['credits', 'task']);
      const { success, response, error, failure, ...polled } = (await get('acme', `/v1/async/task/${item.task.id}`))
        .body;
      expect(success).toBe(true);
      expect(item).toEqual(polled);
    }
  });

  it('keeps to [since, until): created at `since` is in, at `until` is out', async () => {
    const q = (query: string) => idsOf('acme', query);
    expect(await q(`since=${iso(T0 + HOUR)}`)).toEqual([...acme.batch, acme.ok, acme.failed]);
    expect(await q(`since=${iso(T0 + HOUR)}&until=${iso(T0 + 2 * HOUR)}`)).toEqual(acme.batch);
    expect(await q(`since=${iso(T0 + HOUR + 1)}`)).toEqual([acme.ok, acme.failed]);
    expect(await q(`since=${iso(T0)}&until=${iso(T0 + HOUR)}&limit=1`)).toEqual(acme.first);
    expect(await q(`since=${iso(T0 + 3 * HOUR)}`)).toEqual([]);
    // The same instant with an offset (URL-encoded, or its + arriving as a space), and with a fraction.
    const later = [...acme.batch, acme.ok, acme.failed];
    expect(await q(`since=${encodeURIComponent('2026-11-20T18:00:00+09:00')}`)).toEqual(later);
    expect(await q('since=2026-11-20T18:00:00+09:00')).toEqual(later);
    expect(await q('since=2026-11-20t04:00:00-05:00')).toEqual(later);
    expect(await q('since=2026-11-20T08:59:59.9999Z&until=2026-11-20T09:00:00.0001Z')).toEqual(acme.batch);
  });

  it('filters by status', async () => {
    const q = (status: string) => idsOf('acme', `since=${iso(T0)}&status=${status}&limit=3`);
    expect(await q('QUEUED')).toEqual([...acme.first, ...acme.batch]);
    expect(await q('COMPLETED')).toEqual([acme.ok]);
    expect(await q('FAILED')).toEqual([acme.failed]);
    expect(await q('PROCESSING')).toEqual([]);
  });

  it('filters by task type (an alias reads as its canonical type) and refuses an unknown one', async () => {
    const q = (engine: string) => idsOf('acme', `since=${iso(T0)}&engine=${engine}&limit=2`);
    expect(await q('SEARCH_A')).toEqual([...acme.first, ...acme.batch]);
    expect(await q('ANSWER_ENGINE_A')).toEqual([acme.ok, acme.failed]);
    expect(await q('CHATBOT_A')).toEqual([]);
    expect(await idsOf('acme', `since=${iso(T0)}&engine=ANSWER_ENGINE_A&status=FAILED`)).toEqual([acme.failed]);
    const bad = await get('acme', `/v1/async/tasks?since=${iso(T0)}&engine=NOPE_ENGINE`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details).toContainEqual(expect.objectContaining({ field: 'engine' }));
  });

  it('lists newest first with order=desc, page by page, within [since, until)', async () => {
    const { ids, sizes } = await allPages('acme', `since=${iso(T0)}&order=desc&limit=2`);
    expect(ids).toEqual(acmeAll().reverse());
    expect(sizes).toEqual([2, 2, 2, 2, 1]);
    expect(await idsOf('acme', `since=${iso(T0)}&until=${iso(T0 + 2 * HOUR)}&order=desc&limit=3`)).toEqual(
      [...acme.first, ...acme.batch].reverse(),
    );
    expect(await idsOf('acme', `since=${iso(T0)}&order=desc&status=QUEUED&engine=SEARCH_A&limit=4`)).toEqual(
      [...acme.first, ...acme.batch].reverse(),
    );
    const bad = await get('acme', `/v1/async/tasks?since=${iso(T0)}&order=newest`);
    expect(bad.status).toBe(400);
  });

  it('with include=request, each item says what it asked; GET …/request says it of one task', async () => {
    const r = await get('acme', `/v1/async/tasks?since=${iso(T0)}&include=request&engine=SEARCH_A&limit=3`);
    expect(r.body.tasks.map((t: any) => t.request.payload.query)).toEqual(['acme 0', 'acme 1', 'acme 2']);
    // The region the task is served from: none, for an engine that is not region-bound asked without a country.
    expect(r.body.tasks.map((t: any) => t.request.country)).toEqual([null, null, null]);
    expect(r.body.tasks[0].response).toBeUndefined();
    const both = await get('acme', `/v1/async/tasks?since=${iso(T0)}&include=result,request&status=COMPLETED`);
    expect(both.body.tasks[0].request.payload).toEqual({ prompt: 'acme completes' });
    expect(typeof both.body.tasks[0].response.text).toBe('string');
    const one = await get('acme', `/v1/async/task/${acme.failed}/request`);
    expect(one.status).toBe(200);
    expect(one.body.task).toMatchObject({ id: acme.failed, taskType: 'ANSWER_ENGINE_A', status: 'FAILED' });
    expect(one.body.request).toMatchObject({
      payload: { prompt: 'acme fails sandbox:error' },
      webhook: null,
      attempts: 1,
      maxAttempts: 1,
    });
    expect(typeof one.body.request.finishedAt).toBe('string');
    // Another account's task is not found, like polling it.
    expect((await get('globex', `/v1/async/task/${acme.failed}/request`)).status).toBe(404);
    expect((await get('acme', '/v1/async/tasks?since=2026-11-20T08:00:00Z&include=everything')).status).toBe(400);
  });

  it('lists the account’s batches newest first, with their progress, a page at a time', async () => {
    const first = await get('acme', '/v1/async/batches?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.batches).toHaveLength(1);
    expect(first.body.batches[0]).toMatchObject({ size: 4, total: 4, done: 0, counts: { QUEUED: 4 } });
    // acme made one batch: no next page; globex sees only its own.
    expect(first.body.nextCursor).toBeNull();
    const theirs = await get('globex', '/v1/async/batches');
    expect(theirs.body.batches.map((b: any) => b.size)).toEqual([1]);
    expect(theirs.body.batches[0].id).not.toBe(first.body.batches[0].id);
    expect((await get('default', '/v1/async/batches')).body.batches).toEqual([]);
    expect((await get('acme', '/v1/async/batches?cursor=nope')).status).toBe(400);
    expect((await get('acme', '/v1/async/batches?limit=0')).status).toBe(400);
  });

  it('with include=result, each item is the polling view: `response` when COMPLETED, `error` when FAILED', async () => {
    const r = await get('acme', `/v1/async/tasks?since=${iso(T0)}&include=result`);
    expect(r.status).toBe(200);
    expect(r.body.tasks).toHaveLength(9);
    for (const item of r.body.tasks) {
      const { success, ...polled } = (await get('acme', `/v1/async/task/${item.task.id}`)).body;
      expect(success).toBe(true);
      expect(item).toEqual(polled);
    }
    const byId = new Map<string, any>(r.body.tasks.map((t: any) => [t.task.id, t]));
    expect(byId.get(acme.ok)).toMatchObject({ task: { status: 'COMPLETED' }, response: { text: expect.any(String) } });
    expect(byId.get(acme.failed)).toMatchObject({
      task: { status: 'FAILED' },
      error: expect.stringMatching(/^ENGINE_/),
      failure: { code: 'UPSTREAM_ERROR', origin: 'upstream' },
    });
    expect(byId.get(acme.first[0] ?? '')).not.toHaveProperty('response');
    // Paged and filtered alike.
    const completed = await get('acme', `/v1/async/tasks?since=${iso(T0)}&status=COMPLETED&include=result&limit=1`);
    expect(completed.body.tasks.map((t: any) => t.task.id)).toEqual([acme.ok]);
    expect(completed.body.tasks[0].response).toEqual(byId.get(acme.ok)?.response);
    expect(completed.body.nextCursor).toBeNull();
  });

  it("never lists another account's tasks", async () => {
    const since = `since=${iso(T0)}&limit=2`;
    expect(await idsOf('globex', since)).toEqual(globex);
    expect(await idsOf('default', since)).toEqual(mine);
    const acmeIds = await idsOf('acme', since);
    for (const id of [...globex, ...mine]) expect(acmeIds).not.toContain(id);
    // A cursor is a place in the listing, not a key to another account's tasks.
    const page = await get('acme', `/v1/async/tasks?since=${iso(T0)}&limit=1`);
    const other = await get('globex', `/v1/async/tasks?since=${iso(T0)}&cursor=${page.body.nextCursor}`);
    expect(other.body.tasks.map((t: any) => t.task.id)).toEqual(globex);
  });

  it('refuses bad input with 400 VALIDATION_ERROR and its details, never a 500', async () => {
    const cases: Array<[query: string, fields: string[]]> = [
      ['', ['since']],
      ['limit=10', ['since']],
      ['since=yesterday', ['since']],
      ['since=2026-11-20', ['since']],
      ['since=2026-11-20T08:00:00', ['since']],
      ['since=2026-02-30T00:00:00Z', ['since']],
      ['since=2026-11-20T24:00:00Z', ['since']],
      [`since=${iso(T0)}&since=${iso(T0)}`, ['since']],
      [`since=${iso(T0)}&until=soon`, ['until']],
      [`since=${iso(T0)}&until=${iso(T0)}`, ['until']],
      [`since=${iso(T0)}&until=${iso(T0 - HOUR)}`, ['until']],
      [`since=${iso(T0)}&limit=0`, ['limit']],
      [`since=${iso(T0)}&limit=501`, ['limit']],
      [`since=${iso(T0)}&limit=abc`, ['limit']],
      [`since=${iso(T0)}&limit=1.5`, ['limit']],
      [`since=${iso(T0)}&limit=`, ['limit']],
      [`since=${iso(T0)}&cursor=${encodeURIComponent('not a cursor!')}`, ['cursor']],
      [`since=${iso(T0)}&cursor=bm90LWEtY3Vyc29y`, ['cursor']],
      [`since=${iso(T0)}&cursor=`, ['cursor']],
      [`since=${iso(T0)}&status=DONE`, ['status']],
      [`since=${iso(T0)}&status=queued`, ['status']],
      [`since=${iso(T0)}&include=everything`, ['include']],
      [`since=${iso(T0)}&q=`, ['q']],
      [`since=${iso(T0)}&q=${'x'.repeat(201)}`, ['q']],
      ['since=nope&limit=0&status=DONE', ['since', 'limit', 'status']],
    ];
    for (const [query, fields] of cases) {
      const r = await get('acme', `/v1/async/tasks?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error.code, query).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.map((d: any) => d.field).sort(), query).toEqual([...fields].sort());
      for (const d of r.body.error.details) expect(typeof d.message).toBe('string');
    }
  });

  it('finds tasks by the text they asked, in what was asked and never in member names', async () => {
    const since = `since=${iso(T0)}&limit=2`;
    // Across pages, oldest first and newest first; ignoring ASCII case.
    expect(await idsOf('acme', `${since}&q=batch`)).toEqual(acme.batch);
    expect(await idsOf('acme', `${since}&q=BaTcH&order=desc`)).toEqual([...acme.batch].reverse());
    expect(await idsOf('acme', `${since}&q=${encodeURIComponent('acme b')}`)).toEqual(acme.batch);
    // With the other filters: the prompt of an ANSWER_ENGINE_A task, and a failed one by its status.
    expect(await idsOf('acme', `${since}&q=acme&engine=ANSWER_ENGINE_A`)).toEqual([acme.ok, acme.failed]);
    expect(await idsOf('acme', `${since}&q=acme&status=FAILED`)).toEqual([acme.failed]);
    // The JSON's member names and the country are not the asked text.
    for (const text of ['prompt', 'query', 'country', '"', '{'])
      expect(await idsOf('acme', `${since}&q=${text}`)).toEqual([]);
    // Pattern characters are plain text.
    expect(await idsOf('acme', `${since}&q=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await idsOf('acme', `${since}&q=_`)).toEqual([]);
    // Never another account's: globex asked "globex batch", acme's text finds nothing there.
    expect(await idsOf('globex', `${since}&q=acme`)).toEqual([]);
    expect(await idsOf('globex', `${since}&q=batch`)).toEqual([globex[3]]);
  });

  it('finds a Korean query, a URL and a community by their text', async () => {
    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'initech' }, internal)).status).toBe(201);
    const key = (await svc.call('POST', '/internal/keys', { account: 'initech' }, internal)).body.key;
    const submit = async (body: unknown): Promise<string> => {
      const r = await svc.call('POST', '/v1/async/task', body, { authorization: `Bearer ${key}` });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      return r.body.task.id;
    };
    const korean = await submit({ taskType: 'SEARCH_A', payload: { query: '나이키 러닝화 추천', country: 'KR' } });
    const page = await submit({ taskType: 'WEB_SCRAPE', payload: { url: 'https://shop.example/Nike-Pegasus-41' } });
    const forum = await submit({
      taskType: 'FORUM',
      payload: { query: 'trail shoes', community: 'RunningCirclejerk' },
    });
    const find = async (text: string) =>
      (
        await svc.call('GET', `/v1/async/tasks?since=${iso(T0)}&q=${encodeURIComponent(text)}`, undefined, {
          authorization: `Bearer ${key}`,
        })
      ).body.tasks.map((t: any) => t.task.id);
    expect(await find('러닝화')).toEqual([korean]);
    expect(await find('nike-pegasus')).toEqual([page]);
    expect(await find('circlejerk')).toEqual([forum]);
    expect(await find('shoes')).toEqual([forum]);
    expect(await find('KR')).toEqual([]);
  });

  it('answers 401 MISSING_API_KEY without a key or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Array<Record<string, string>>) {
      const r = await svc.raw('GET', `/v1/async/tasks?since=${iso(T0)}`, undefined, headers);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('MISSING_API_KEY');
    }
  });

  it('is in the OpenAPI document, with its query parameters', async () => {
    const doc = (await svc.raw('GET', '/openapi.json')).body as any;
    const op = doc.paths['/v1/async/tasks']?.get;
    expect(op).toBeDefined();
    const params = Object.fromEntries(op.parameters.map((p: any) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual([
      'cursor',
      'engine',
      'include',
      'limit',
      'order',
      'q',
      'since',
      'status',
      'until',
    ]);
    expect(params.since.required).toBe(true);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
  });

  // Last: moves the clock a day on.
  it('leaves out expired tasks, swept or not; a `since` before the retention window reads as its start', async () => {
    // The test runs the sweep itself: the service's own (every 2 s on PostgreSQL) could run between the steps that
    // read expired tasks still in the store. A pass under way has read the time before the clock moves on.
    svc.app.sweeper.stop();
    clock.advance(DAY - HOUR);
    // T0 + 25 h: the tasks of T0 have expired (not swept yet); those of T0 + 1 h are 24 h old, still kept.
    const expected = [...acme.batch, acme.ok, acme.failed];
    expect(await idsOf('acme', `since=${iso(T0)}&limit=2`)).toEqual(expected);
    expect(await idsOf('acme', 'since=2000-01-01T00:00:00Z')).toEqual(expected);
    expect((await get('acme', `/v1/async/task/${acme.first[0]}`)).status).toBe(404);
    expect((await get('acme', `/v1/async/task/${acme.batch[0]}`)).status).toBe(200);
    // Still in the store (the sweep has not run): left out all the same.
    expect(await svc.app.store.tasks.get({ id: acme.first[0] ?? '', notBefore: 0 })).toBeDefined();
    clock.advance(1);
    expect(await idsOf('acme', `since=${iso(T0)}`)).toEqual([acme.ok, acme.failed]);
    expect((await get('acme', `/v1/async/task/${acme.batch[0]}`)).status).toBe(404);
    // And after the sweep deletes them.
    expect(await svc.app.sweeper.runOnce()).toBeGreaterThan(0);
    expect(await svc.app.store.tasks.get({ id: acme.first[0] ?? '', notBefore: 0 })).toBeUndefined();
    expect(await idsOf('acme', `since=${iso(T0)}`)).toEqual([acme.ok, acme.failed]);
  });
});

/**
 * An account with few of the tasks in a busy range: the listing reads the range a window at a time (LIST_WINDOW
 * ids), and finds its tasks across windows; the typed client pages it.
 */
describe('listing a few tasks among many of another account', () => {
  const clock = steppedClock(T0);
  let svc: RunningService;
  let key = '';
  const sparse: string[] = [];

  beforeAll(async () => {
    svc = await startIdleService({ AEQ_INTERNAL_TOKEN: INTERNAL }, { clock });
    const internal = { authorization: `Bearer ${INTERNAL}` };
    await svc.call('POST', '/internal/accounts', { name: 'sparse' }, internal);
    key = (await svc.call('POST', '/internal/keys', { account: 'sparse' }, internal)).body.key;
    const own = async (prompt: string) => {
      const r = await svc.call('POST', '/v1/async/task', queued(prompt), { authorization: `Bearer ${key}` });
      sparse.push(r.body.task.id);
    };
    const batches = Math.ceil((2 * LIST_WINDOW + 500) / 500);
    await own('first');
    for (let b = 0; b < batches; b++) {
      const r = await svc.call(
        'POST',
        '/v1/async/task/batch',
        Array.from({ length: 500 }, (_, i) => queued(`busy ${b}.${i}`)),
      );
      expect(r.body.summary.succeeded).toBe(500);
      if (b === Math.floor(batches / 2)) await own('middle');
    }
    await own('last');
  });
  afterAll(() => svc.stop());

  it('finds them across windows, page by page, with the typed client', async () => {
    const client = new AeqClient({ baseUrl: svc.url, apiKey: key });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await client.tasks({ since: iso(T0), limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...(answer.tasks ?? []).map((t) => t.task?.id ?? ''));
      if (!answer.nextCursor) break;
      cursor = answer.nextCursor;
    }
    expect(seen).toEqual(sparse);
    // A text search reads the same windows: the account's tasks asking "middle" or "last", among thousands.
    const found = await client.tasks({ since: iso(T0), q: 'MIDDLE' });
    expect(found.tasks?.map((t) => t.task?.id)).toEqual([sparse[1]]);
    const lastFirst = await client.tasks({ since: iso(T0), q: 'l', order: 'desc', limit: 1 });
    expect(lastFirst.tasks?.map((t) => t.task?.id)).toEqual([sparse[2]]);
    // Newest first, across the same windows from the other end.
    const newest: string[] = [];
    cursor = undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await client.tasks({ since: iso(T0), limit: 1, order: 'desc', ...(cursor ? { cursor } : {}) });
      newest.push(...(answer.tasks ?? []).map((t) => t.task?.id ?? ''));
      if (!answer.nextCursor) break;
      cursor = answer.nextCursor;
    }
    expect(newest).toEqual([...sparse].reverse());
    // Every task was made in the same millisecond of the stopped clock: the ids ran on into later milliseconds, and
    // `until` still keeps to their creation time.
    const until = await client.tasks({ since: iso(T0), until: iso(T0 + 1), status: 'QUEUED', includeResult: true });
    expect(until.tasks?.map((t) => t.task?.id)).toEqual(sparse);
    expect(until.nextCursor).toBeNull();
    // The default account's own tasks, all of them, a page of 500 at a time.
    const all = new AeqClient({ baseUrl: svc.url, apiKey: TEST_KEY });
    let total = 0;
    let next: string | undefined;
    do {
      const answer = await all.tasks({ since: iso(T0), limit: 500, ...(next ? { cursor: next } : {}) });
      total += answer.tasks?.length ?? 0;
      next = answer.nextCursor ?? undefined;
    } while (next);
    expect(total).toBe(Math.ceil((2 * LIST_WINDOW + 500) / 500) * 500);
    await expect(client.tasks({ since: 'yesterday' })).rejects.toBeInstanceOf(AeqError);
    await expect(client.tasks({ since: 'yesterday' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });
});
