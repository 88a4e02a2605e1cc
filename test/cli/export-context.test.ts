import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { parquetReadObjects } from 'hyparquet';
import { TASK_EXPORT_COLUMNS } from '../../src/export/task-rows.js';
import { runCli } from '../helpers/cli.js';
import { TEST_KEY, fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';

type Row = Record<string, string>;

/**
 * `aeq export --format csv` with the context of each task: what it asked, the engine, the region it was served from,
 * the number of sources, the monitor and the brand's position for a monitor run's task, and why a failed task failed;
 * `aeq run --csv` with the failure columns.
 */
describe('aeq export: the context of each task', () => {
  let svc: RunningService;
  let env: Record<string, string>;
  let cwd: string;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) });
    env = { AEQ_URL: svc.url, AEQ_API_KEY: TEST_KEY };
    cwd = tempDir('aeq-export-');
  });
  afterAll(() => svc?.stop());

  it('writes prompt, engine, country, sources, monitor, position and failure columns, filled', async () => {
    const asked = await runTask(svc, { taskType: 'SEARCH_A_SERP', payload: { query: 'umbrellas', country: 'GB' } });
    const failed = await runTask(svc, { taskType: 'SEARCH_C_SEARCH', payload: { query: 'shoes sandbox:error' } });
    expect([asked.task.status, failed.task.status]).toEqual(['COMPLETED', 'FAILED']);
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'Export monitor',
      prompts: ['is Nike good for running'],
      engines: ['CHATBOT_A'],
      brand: { name: 'Nike' },
    });
    expect(created.status).toBe(201);
    const monitorId = created.body.monitor.id as string;
    expect((await svc.call('POST', `/v1/monitors/${monitorId}/runs`)).status).toBe(202);
    const scheduler = svc.app.monitors as MonitorScheduler;
    let run: { status: string; results?: Array<{ taskId: string; position: number | null }> } | undefined;
    for (let i = 0; i < 150 && run?.status !== 'completed'; i++) {
      await scheduler.runOnce();
      run = (await svc.call('GET', `/v1/monitors/${monitorId}/runs?include=results`)).body.runs[0];
      if (run?.status !== 'completed') await new Promise((r) => setTimeout(r, 200));
    }
    expect(run?.status).toBe('completed');
    const monitored = run?.results?.[0];
    expect(monitored).toBeDefined();

    const out = await runCli(['export', '--since', '1h', '--format', 'csv', '--out', 'context.csv'], { cwd, env });
    expect(out.code, out.stderr).toBe(0);
    const text = fs.readFileSync(path.join(cwd, 'context.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe(
      'created_at,task_id,type,status,idempotency_key,answer,cited_urls,error,prompt,country,source_count,' +
        'monitor,position,failure_code,failure_origin,failure_host,attempts',
    );
    const rows = parse(text, { columns: true }) as Row[];
    const byId = (id: string) => rows.find((r) => r.task_id === id);

    const serp = byId(asked.task.id);
    expect(serp).toMatchObject({ type: 'SEARCH_A_SERP', prompt: 'umbrellas', country: 'GB', monitor: '' });
    expect(Number(serp?.source_count)).toBe(asked.response.sources.length);
    expect(serp?.failure_code).toBe('');

    const bad = byId(failed.task.id);
    expect(bad).toMatchObject({
      type: 'SEARCH_C_SEARCH',
      status: 'FAILED',
      prompt: 'shoes sandbox:error',
      source_count: '',
      failure_code: 'UPSTREAM_ERROR',
      failure_origin: 'upstream',
      attempts: String(failed.failure.attempts),
    });
    expect(bad?.failure_host).toMatch(/^127\.0\.0\.1:\d+$/);

    const m = byId(monitored?.taskId ?? '');
    expect(m).toMatchObject({ type: 'CHATBOT_A', prompt: 'is Nike good for running', monitor: 'Export monitor' });
    expect(m?.position).toBe(monitored?.position === null ? '' : String(monitored?.position));

    // --text keeps the tasks that asked it (here, ignoring case); a blank one is a usage error.
    const only = await runCli(['export', '--since', '1h', '--format', 'csv', '--text', 'UMBRELLA'], { cwd, env });
    expect(only.code, only.stderr).toBe(0);
    expect((parse(only.stdout, { columns: true }) as Row[]).map((r) => r.task_id)).toEqual([asked.task.id]);
    expect(only.stderr).toContain('aeq export: 1 tasks since');
    const blank = await runCli(['export', '--since', '1h', '--text', ' '], { cwd, env });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--text must be 1 to 200 characters');
  }, 60_000);

  it('aeq run --csv names why a task failed', async () => {
    const dir = tempDir('aeq-export-run-');
    fs.writeFileSync(path.join(dir, 'prompts.csv'), 'prompt\nshoes sandbox:error\nbest tents\n');
    const run = await runCli(['run', 'prompts.csv', '--engines', 'SEARCH_C_SEARCH', '--csv'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const rows = parse(fs.readFileSync(path.join(dir, 'prompts.results.csv')), { columns: true }) as Row[];
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'row',
      'prompt',
      'engine',
      'country',
      'status',
      'task_id',
      'answer',
      'cited_urls',
      'search_triggered',
      'search_queries',
      'retrieved_urls',
      'products',
      'exit_country',
      'served_country',
      'error',
      'failure_code',
      'failure_origin',
      'failure_host',
      'attempts',
    ]);
    const bad = rows.find((r) => r.prompt === 'shoes sandbox:error');
    expect(bad).toMatchObject({ status: 'FAILED', failure_code: 'UPSTREAM_ERROR', failure_origin: 'upstream' });
    expect(Number(bad?.attempts)).toBeGreaterThan(0);
    expect(rows.find((r) => r.prompt === 'best tents')).toMatchObject({ status: 'COMPLETED', failure_code: '' });
  }, 60_000);

  it('aeq export --bulk streams GET /v1/export: the flat columns in CSV and Parquet, the same tasks', async () => {
    const dir = tempDir();
    const csv = await runCli(['export', '--since', '1h', '--bulk', '--format', 'csv', '--out', 'bulk.csv'], {
      cwd: dir,
      env,
    });
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parse(fs.readFileSync(path.join(dir, 'bulk.csv')), { columns: true }) as Row[];
    expect(Object.keys(rows[0] ?? {})).toEqual(TASK_EXPORT_COLUMNS.map((c) => c.name));
    expect(csv.stderr).toContain(`aeq export: ${rows.length} tasks since`);
    const listed = (
      await svc.call(
        'GET',
        `/v1/async/tasks?since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&limit=500`,
      )
    ).body.tasks as Array<{ task: { id: string } }>;
    expect(rows.map((r) => r.task_id)).toEqual(listed.map((t) => t.task.id));

    const pq = await runCli(['export', '--since', '1h', '--format', 'parquet', '--out', 'bulk.parquet'], {
      cwd: dir,
      env,
    });
    expect(pq.code, pq.stderr).toBe(0);
    const file = fs.readFileSync(path.join(dir, 'bulk.parquet'));
    const table = (await parquetReadObjects({
      file: file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength),
    })) as Array<Record<string, unknown>>;
    expect(table.map((r) => r.task_id)).toEqual(rows.map((r) => r.task_id));
    // Parquet is binary: refused on a terminal without --out, and --text is not a filter of the bulk export.
    const text = await runCli(['export', '--since', '1h', '--bulk', '--text', 'x'], { cwd: dir, env });
    expect(text.code).toBe(2);
  }, 60_000);
});
