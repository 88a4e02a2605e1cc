import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_EXPORT_COLUMNS } from '../../src/export/monitor-rows.js';
import { TASK_EXPORT_COLUMNS } from '../../src/export/task-rows.js';
import type { TerminalWrite } from '../../src/store/ports.js';
import { runMonitorToEnd } from '../helpers/monitors.js';
import {
  fastConfig,
  runTask,
  startService,
  steppedClock,
  TEST_KEY,
  tempDir,
  writeConfig,
  type RunningService,
} from '../helpers/service.js';

const INTERNAL = 'internal-token-for-export-0123456';
const COLUMNS = TASK_EXPORT_COLUMNS.map((c) => c.name);

/**
 * GET /v1/export (docs/exports.md) through the service on the sandbox: the caller's tasks of a window in JSONL, CSV
 * and Parquet with one column set and equal values, formula-escaped CSV, resumed after a task id, another account's
 * tasks never in it, bad input a 400.
 */
describe('bulk export of tasks', () => {
  let svc: RunningService;
  const since = new Date(Date.now() - 60_000).toISOString();
  const ids: string[] = [];

  beforeAll(async () => {
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 50, maxAttempts: 1 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_INTERNAL_TOKEN: INTERNAL });
    const prompts = [
      'best trail running shoes',
      '=HYPERLINK("http://evil.example","click") running shoes',
      'running shoes for beginners sandbox:error',
      '러닝화 추천',
    ];
    for (const prompt of prompts) {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt, country: 'US' } });
      ids.push(r.task.id as string);
    }
    const serp = await runTask(svc, { taskType: 'SEARCH_A', payload: { query: 'trail shoes', country: 'DE' } });
    ids.push(serp.task.id as string);
  }, 120_000);
  afterAll(() => svc?.stop());

  const get = (query: string, key = TEST_KEY) =>
    fetch(`${svc.url}/v1/export?${query}`, { headers: { authorization: `Bearer ${key}` } });
  const jsonl = async (query: string, key?: string) => {
    const res = await get(query, key);
    expect(res.status).toBe(200);
    return (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };

  it('gives every task of the window once, in creation order, with the documented columns filled', async () => {
    const res = await get(`since=${encodeURIComponent(since)}`);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const rows = await jsonl(`since=${encodeURIComponent(since)}`);
    expect(rows.map((r) => r.task_id)).toEqual(ids);
    for (const r of rows) expect(Object.keys(r)).toEqual(COLUMNS);
    const [first, , failed, , serp] = rows;
    expect(first).toMatchObject({ engine: 'CHATBOT_A', status: 'COMPLETED', country: 'US', search_triggered: true });
    expect(first?.request).toBe('best trail running shoes');
    expect(String(first?.answer).length).toBeGreaterThan(20);
    expect(first?.cited_count).toBe(String(first?.cited_urls).split(' ').length);
    expect(String(first?.retrieved_urls)).toMatch(/^https:\/\/consulted\.example\.net\//);
    expect(first?.exit_country).toBe('US');
    expect(failed).toMatchObject({ status: 'FAILED', answer: null, cited_urls: null, search_triggered: null });
    expect(failed?.failure_code).toEqual(expect.any(String));
    // A results page: Google says where it served it for.
    expect(serp).toMatchObject({ engine: 'SEARCH_A', served_country: 'DE', exit_country: 'DE' });
  });

  it('has the same columns and values in CSV and Parquet, the CSV formula-escaped', async () => {
    const reference = await jsonl(`since=${encodeURIComponent(since)}`);
    const csvRes = await get(`since=${encodeURIComponent(since)}&format=csv`);
    expect(csvRes.headers.get('content-type')).toMatch(/^text\/csv/);
    const csvText = await csvRes.text();
    const csv = parse(csvText, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(csv[0] ?? {})).toEqual(COLUMNS);
    expect(csv).toHaveLength(reference.length);
    // The prompt that starts with a formula is text in a spreadsheet.
    expect(csv[1]?.request?.startsWith("'=HYPERLINK")).toBe(true);
    for (const [i, row] of csv.entries())
      for (const c of COLUMNS) {
        const v = reference[i]?.[c];
        const want = v === null ? '' : String(v);
        expect(row[c]?.replace(/^'(?=[=+\-@\t\r])/, ''), `${c} of row ${i}`).toBe(want);
      }

    const pq = await get(`since=${encodeURIComponent(since)}&format=parquet`);
    expect(pq.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    const file = await pq.arrayBuffer();
    const rows = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(reference.length);
    for (const [i, row] of rows.entries()) {
      expect(Object.keys(row)).toEqual(COLUMNS);
      for (const c of COLUMNS) {
        const v = row[c];
        expect(typeof v === 'bigint' ? Number(v) : (v ?? null), `${c} of row ${i}`).toEqual(reference[i]?.[c]);
      }
    }
  });

  it('resumes after a task id, and filters by engine and status', async () => {
    const rest = await jsonl(`since=${encodeURIComponent(since)}&after=${ids[1]}`);
    expect(rest.map((r) => r.task_id)).toEqual(ids.slice(2));
    const failed = await jsonl(`since=${encodeURIComponent(since)}&status=FAILED&engine=CHATBOT_A`);
    expect(failed.map((r) => r.task_id)).toEqual([ids[2]]);
    // An empty window is an empty body in JSONL, a header in CSV and a valid file of no rows in Parquet.
    const later = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect(await jsonl(`since=${later}`)).toEqual([]);
    expect((await (await get(`since=${later}&format=csv`)).text()).trim()).toBe(COLUMNS.join(','));
    const none = await (await get(`since=${later}&format=parquet`)).arrayBuffer();
    expect(await parquetReadObjects({ file: none })).toEqual([]);
  });

  it("never holds another account's tasks, and refuses bad input with a 400", async () => {
    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'exporter-b' }, internal)).status).toBe(201);
    const key = (await svc.call('POST', '/internal/keys', { account: 'exporter-b' }, internal)).body.key as string;
    expect(await jsonl(`since=${encodeURIComponent(since)}`, key)).toEqual([]);
    expect(await jsonl(`since=${encodeURIComponent(since)}&after=${ids[0]}`, key)).toEqual([]);

    for (const query of [
      '',
      'since=yesterday',
      `since=${encodeURIComponent(since)}&format=xlsx`,
      `since=${encodeURIComponent(since)}&after=not-a-task`,
      `since=${encodeURIComponent(since)}&engine=NOPE`,
      `since=${encodeURIComponent(since)}&until=${encodeURIComponent(since)}`,
      `since=${encodeURIComponent(since)}&extra=1`,
    ]) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    const anonymous = await fetch(`${svc.url}/v1/export?since=${encodeURIComponent(since)}`);
    expect(anonymous.status).toBe(401);
  });
});

/**
 * Answers as the store holds them, written by any version of the service: lists whose items are null, bare values or
 * lack their members. The task is submitted over HTTP to a paused engine, then claimed and finished through the
 * service's own store as an older worker would have written it; GET /v1/export reads it in every format.
 */
describe('bulk export of answers stored in odd shapes', () => {
  let svc: RunningService;
  const since = new Date(Date.now() - 60_000).toISOString();
  const internal = { authorization: `Bearer ${INTERNAL}` };

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL });
    // Paused, the service's workers leave its queue alone: the test is the worker.
    expect((await svc.call('POST', '/internal/engines/ANSWER_ENGINE_A/pause', {}, internal)).status).toBe(200);
  });
  afterAll(() => svc?.stop());

  const get = (query: string) =>
    fetch(`${svc.url}/v1/export?${query}`, { headers: { authorization: `Bearer ${TEST_KEY}` } });

  /** A task submitted over HTTP and finished with `result` as stored JSON. */
  const stored = async (prompt: string, result: unknown): Promise<string> => {
    const sent = await svc.call('POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt } });
    expect(sent.status).toBe(202);
    const id = sent.body.task.id as string;
    const [claimed] = await svc.app.store.tasks.claim({
      taskType: 'ANSWER_ENGINE_A',
      limit: 1,
      concurrency: 1000,
      workerId: 'older-version',
      now: Date.now(),
      leaseMs: 60_000,
    });
    expect(claimed?.id).toBe(id);
    const write: TerminalWrite = {
      status: 'COMPLETED',
      result,
      error: null,
      creditsToCharge: 2,
      creditsCharged: 2,
      webhook: null,
    };
    const done = await svc.app.store.tasks.finish({
      id,
      leaseToken: claimed?.leaseToken as string,
      write,
      now: Date.now(),
    });
    expect(done).toBe(true);
    return id;
  };

  it('keeps the readable items, leaves the others out, and never fails the export', async () => {
    const odd = await stored('odd shapes', {
      text: 'an answer an older version kept',
      sources: [
        null,
        'https://bare-string.example/',
        { url: 'https://ok.example/a' },
        { url: '' },
        { url: 42 },
        {},
        [],
        { url: ' https://spaced.example/a b ' },
      ],
      searchTriggered: 'yes',
      searchQueries: ['first query', null, 7, '', { q: 'x' }, '  second\n query  '],
      retrievedSources: { not: 'a list' },
      products: [
        null,
        3,
        'a bare string',
        [],
        { title: null, price: '$1' },
        { price: '$2' },
        { title: 'Shoe A', price: '$99.99' },
        { title: 'Shoe B', price: 12.5 },
        { title: '   ', price: '$3' },
        { title: 'Shoe\nC', price: null },
        { title: 'Shoe D', price: { amount: 5 } },
      ],
      region: 'US',
    });
    const allOdd = await stored('nothing readable', {
      text: 7,
      sources: [null, null],
      searchQueries: [null],
      retrievedSources: [0, false],
      products: [null, { title: 5 }],
      region: { exit: null, engine: 'DE' },
    });
    const notAnObject = await stored('a list for a result', [null, { text: 'x' }]);

    const res = await get(`since=${encodeURIComponent(since)}`);
    expect(res.status).toBe(200);
    const rows = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.task_id)).toEqual([odd, allOdd, notAnObject]);
    expect(rows[0]).toMatchObject({
      status: 'COMPLETED',
      answer: 'an answer an older version kept',
      cited_urls: 'https://ok.example/a https://spaced.example/a%20b',
      cited_count: 2,
      search_triggered: null,
      search_queries: 'first query | second query',
      retrieved_urls: null,
      products: 'Shoe A ($99.99) | Shoe B (12.5) | Shoe C | Shoe D',
      exit_country: null,
      served_country: null,
    });
    // Lists of nothing readable are empty lists, not unknown; nothing else is guessed.
    expect(rows[1]).toMatchObject({
      answer: null,
      cited_urls: '',
      cited_count: 0,
      search_queries: '',
      retrieved_urls: '',
      products: '',
      exit_country: null,
      served_country: null,
    });
    expect(rows[2]).toMatchObject({ status: 'COMPLETED', answer: null, cited_urls: null, products: null });

    // CSV and Parquet read the same rows.
    const csv = parse(await (await get(`since=${encodeURIComponent(since)}&format=csv`)).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(csv.map((r) => r.products)).toEqual([rows[0]?.products, '', '']);
    const file = await (await get(`since=${encodeURIComponent(since)}&format=parquet`)).arrayBuffer();
    const parquet = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
    expect(parquet.map((r) => r.cited_urls)).toEqual([rows[0]?.cited_urls, '', null]);
  });
});

/**
 * A monitor's runs through GET /v1/export?monitor= (docs/exports.md#monitor-columns): one row per saved answer of its
 * completed runs, oldest run first, with its group's figures; the same in the three formats; resumed after a run id;
 * another account's monitor is 404.
 */
describe("bulk export of a monitor's runs", () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL }, { clock });
  });
  afterAll(() => svc?.stop());

  it('gives every answer of every run with its figures, in each format, and resumes after a run', async () => {
    const made = await svc.call('POST', '/v1/monitors', {
      name: 'exported',
      prompts: ['best running shoes for flat feet', 'running shoes for beginners'],
      engines: ['CHATBOT_A', 'ANSWER_ENGINE_A'],
      brand: { name: 'Hoka', domains: ['hoka.com'] },
    });
    const id = made.body.monitor.id as string;
    await svc.call('PATCH', `/v1/monitors/${id}`, { status: 'paused' });
    for (let day = 0; day < 2; day++) {
      await runMonitorToEnd(svc, id);
      clock.advance(86_400_000);
    }
    const since = encodeURIComponent('2026-11-01T00:00:00Z');
    const get = (q: string, key = TEST_KEY) =>
      fetch(`${svc.url}/v1/export?since=${since}&monitor=${id}${q}`, { headers: { authorization: `Bearer ${key}` } });
    const rows = (await (await get('')).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(8);
    expect(Object.keys(rows[0] ?? {})).toEqual(MONITOR_EXPORT_COLUMNS.map((c) => c.name));
    const runs = [...new Set(rows.map((r) => r.run_id))];
    expect(runs).toHaveLength(2);
    // Oldest run first; each row carries its group's figures as the metrics route gives them.
    const series = (await svc.call('GET', `/v1/monitors/${id}/metrics`)).body.series as Array<Record<string, unknown>>;
    for (const r of rows) {
      const point = series.find((p) => p.runId === r.run_id && p.engine === r.engine);
      expect(r.mention_rate).toBe(point?.mentionRate);
      expect(r.search_rate).toBe(point?.searchRate);
      expect(r.method_version).toBe('visibility/1.3.0');
      expect(r.status).toBe('COMPLETED');
      expect(String(r.answer).length).toBeGreaterThan(20);
    }
    expect(series[0]?.runId).toBe(runs[0]);

    const pq = await get('&format=parquet');
    const table = (await parquetReadObjects({ file: await pq.arrayBuffer() })) as Array<Record<string, unknown>>;
    expect(table.map((r) => r.task_id)).toEqual(rows.map((r) => r.task_id));
    const csv = parse(await (await get('&format=csv')).text(), { columns: true }) as Array<Record<string, string>>;
    expect(csv.map((r) => r.task_id)).toEqual(rows.map((r) => r.task_id));

    const rest = (await (await get(`&after=${runs[0]}`)).text()).trim().split('\n');
    expect(rest.map((l) => JSON.parse(l).run_id)).toEqual(Array(4).fill(runs[1]));
    expect((await get(`&after=${'0'.repeat(8)}-0000-7000-8000-000000000000`)).status).toBe(400);

    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'monitor-exporter-b' }, internal)).status).toBe(201);
    const key = (await svc.call('POST', '/internal/keys', { account: 'monitor-exporter-b' }, internal)).body
      .key as string;
    expect((await get('', key)).status).toBe(404);
  }, 90_000);
});
