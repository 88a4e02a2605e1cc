import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startAnalysisService } from '../analysis/analysis-service.js';
import { TEST_KEY, submit, tempDir, type RunningService } from '../helpers/service.js';

/** `aeq tasks`, `aeq export`, `aeq research`, `aeq influence` and `aeq run --sandbox`, each as an operator runs it. */
describe('aeq client commands', () => {
  let svc: RunningService;
  let env: Record<string, string>;
  let cwd: string;
  beforeAll(async () => {
    // The analysis adapters without the autocomplete spacing a real upstream needs (prompt research in seconds).
    svc = await startAnalysisService();
    env = { AEQ_URL: svc.url, AEQ_API_KEY: TEST_KEY };
    cwd = tempDir('aeq-cli-');
  });
  afterAll(() => svc.stop());

  it('tasks wait prints every task, a failed one as a result; tasks get shows one whole', async () => {
    const ok = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'cli wait ok' } });
    const bad = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'cli wait sandbox:error' } });
    const waited = await runCli(['tasks', 'wait', ok, bad], { cwd, env });
    expect(waited.code).toBe(0);
    const rows = waited.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^id\s+type\s+status\s+result$/);
    expect(rows[1]).toMatch(new RegExp(`^${ok}\\s+ANSWER_ENGINE_A\\s+COMPLETED\\s+\\d+ sources; `));
    expect(rows[2]).toMatch(
      new RegExp(`^${bad}\\s+ANSWER_ENGINE_A\\s+FAILED\\s+ENGINE_FAILED: .* \\(UPSTREAM_ERROR: `),
    );

    const json = await runCli(['tasks', 'wait', ok, bad, '--json'], { cwd, env });
    const views = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { task: { id: string; status: string } });
    expect(views.map((v) => [v.task.id, v.task.status])).toEqual([
      [ok, 'COMPLETED'],
      [bad, 'FAILED'],
    ]);

    const got = await runCli(['tasks', 'get', ok], { cwd, env });
    expect(got.stdout).toMatch(new RegExp(`^id\\s+${ok}\\ntype\\s+ANSWER_ENGINE_A\\nstatus\\s+COMPLETED`, 'm'));
    expect(got.stdout).toMatch(/^#\s+source\s+label$/m);
    const failed = await runCli(['tasks', 'get', bad], { cwd, env });
    expect(failed.stdout).toMatch(/^reason\s+UPSTREAM_ERROR \(the upstream\): The upstream .*failed/m);
    expect(failed.stdout).toMatch(/^upstream\s+127\.0\.0\.1:\d+, \d attempts?$/m);
    const missing = await runCli(['tasks', 'get', '00000000-0000-7000-8000-000000000000'], { cwd, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^aeq: the service refused: RESOURCE_NOT_FOUND \(HTTP 404\)/);
  });

  it('export writes what the account ran since a time, as CSV or JSONL', async () => {
    const ids = [
      await submit(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'export one' } }),
      await submit(svc, { taskType: 'SEARCH_A', payload: { query: 'export two' } }),
    ];
    await runCli(['tasks', 'wait', ...ids], { cwd, env });
    const csv = await runCli(['export', '--since', '1h', '--format', 'csv', '--out', 'recent.csv'], { cwd, env });
    expect(csv.code).toBe(0);
    const rows = parse(fs.readFileSync(path.join(cwd, 'recent.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(csv.stderr).toMatch(new RegExp(`^aeq export: ${rows.length} tasks since `));
    for (const id of ids) expect(rows.find((r) => r.task_id === id)?.status).toBe('COMPLETED');
    expect(rows.find((r) => r.task_id === ids[0])?.answer).not.toBe('');

    const jsonl = await runCli(['export', '--since', '1h'], { cwd, env });
    const lines = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { task: { id: string } });
    expect(lines.map((l) => l.task.id)).toEqual(expect.arrayContaining(ids));
    expect(lines).toHaveLength(rows.length);

    const bad = await runCli(['export', '--since', 'yesterday'], { cwd, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a duration such as 30m, 2h or 1d');
  });

  it('research prints ranked questions, or JSON with --json, and says when the result is simulated', async () => {
    const research = await runCli(['research', 'running shoes', '--country', 'US', '--limit', '5'], { cwd, env });
    expect(research.code).toBe(0);
    expect(research.stdout).toMatch(/^rank\s+question\s+demand\s+tier\s+intent$/m);
    expect(research.stdout).toMatch(/^\s*1\s+\S.*\?/m);
    expect(research.stdout).toMatch(/^5 questions; demand from \w+/m);
    expect(research.stdout).toContain('simulated: computed from the sandbox');

    const refused = await runCli(['research', 'running shoes', '--country', 'JP'], { cwd, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/REGION_UNSUPPORTED \(HTTP 422\)/);
  }, 60_000);

  it('influence prints sources by influence, or JSON with --json; a missing answer file is a usage error', async () => {
    fs.writeFileSync(path.join(cwd, 'answer.txt'), 'Trail shoes need grip [1]. Road shoes need cushioning [2].');
    const args = ['influence', '--answer', 'answer.txt', '--prompt', 'which running shoes'];
    const cites = ['--citations', 'https://example.com/trail', 'https://example.org/road'];
    const table = await runCli([...args, ...cites], { cwd, env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^rank\s+source\s+influence\s+level\s+cited\s+fetch$/m);
    expect(table.stdout).toMatch(/^\s*1\s+https:\/\/example\.(com|org)\/\w+\s+\d+\.\d%/m);
    expect(table.stdout).toMatch(/^attributed \d+\.\d% of the answer/m);
    const json = await runCli([...args, ...cites, '--json'], { cwd, env });
    const view = JSON.parse(json.stdout) as { task: { taskType: string }; response: { sources: unknown[] } };
    expect(view.task.taskType).toBe('SOURCE_INFLUENCE');
    expect(view.response.sources).toHaveLength(2);
    const missing = await runCli(['influence', '--answer', 'nope.txt', ...cites], { cwd, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('aeq: --answer nope.txt: no such file\n');
  }, 60_000);

  it('runs the quick start with --sandbox: an embedded service, no setup', async () => {
    const dir = tempDir('aeq-quickstart-');
    fs.writeFileSync(path.join(dir, 'prompts.csv'), 'prompt,country\nbest trail shoes,US\nbest tents,KR\n');
    const run = await runCli(['run', 'prompts.csv', '--engines', 'CHATBOT_A,SEARCH_A', '--sandbox', '--csv'], {
      cwd: dir,
      env: {},
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^aeq run: sandbox service on http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toMatch(/study finished in \S+: 4 tasks, 4 completed, 0 failed/);
    expect(run.stdout).toContain('sandbox: every answer comes from simulated upstreams');
    expect(fs.readFileSync(path.join(dir, 'prompts.results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
    expect(fs.existsSync(path.join(dir, '.aeq-sandbox'))).toBe(true);
  });
});
