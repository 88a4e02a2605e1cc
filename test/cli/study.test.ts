import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreFile } from '../helpers/child-service.js';
import { AEQ_COMMAND, runCli, shellWords, startCli } from '../helpers/cli.js';
import { TEST_KEY, fastConfig, startService, tempDir, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const INTERNAL = 'internal-token-study-0123456';
const ENGINES = 'CHATBOT_A,SEARCH_A,ANSWER_ENGINE_A';

/** `aeq run` end to end: the CLI as a child process, against the real service in sandbox mode. */
describe('aeq run (study runner)', () => {
  let svc: RunningService;
  let env: Record<string, string>;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL });
    env = { AEQ_URL: svc.url, AEQ_API_KEY: TEST_KEY };
  });
  afterAll(() => svc.stop());

  /** The study's tasks as the service stores them: how many, and how many distinct idempotency keys. */
  const serverTasks = (fileTag: string) => {
    const db = openStoreFile(svc.dataDir);
    try {
      return db
        .prepare(
          `select count(*) as tasks, count(distinct idempotency_key) as keys, count(distinct batch_id) as batches
           from tasks where prompt_of_test like ?`.replace('prompt_of_test', 'idempotency_key'),
        )
        .get(`aeq-run:${fileTag}%`) as { tasks: number; keys: number; batches: number };
    } finally {
      db.close();
    }
  };
  /** Batch objects the service holds (all tests of this file), and the items they were given. */
  const serverBatches = () => {
    const db = openStoreFile(svc.dataDir);
    try {
      return db.prepare('select count(*) as batches, coalesce(sum(size), 0) as items from batches').get() as {
        batches: number;
        items: number;
      };
    } finally {
      db.close();
    }
  };
  /** Requests the service has answered on the study's routes, from its own metrics. */
  const requests = async () => {
    const text = String((await svc.raw('GET', '/metrics', undefined, { authorization: `Bearer ${INTERNAL}` })).body);
    const count = (method: string, route: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('aeq_http_request_seconds_count{'))
        .filter((l) => l.includes(`method="${method}"`) && l.includes(`route="${route}"`))
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    return {
      taskGets: count('GET', '/v1/async/task/:id'),
      batchGets: count('GET', '/v1/async/batch/:id'),
      batchPosts: count('POST', '/v1/async/task/batch'),
    };
  };
  const hashOf = (jsonl: string) => {
    const first = JSON.parse(fs.readFileSync(jsonl, 'utf8').split('\n')[0] ?? '{}') as { study: { key: string } };
    return first.study.key.split(':')[1] ?? '';
  };
  const readJsonl = (file: string) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { study: { key: string; engine: string }; status: string; error?: string });

  it('runs 100 prompts × 3 engines: 300 results in JSONL and CSV, a summary per engine', async () => {
    const dir = tempDir('aeq-study-');
    const lines = ['prompt', ...Array.from({ length: 100 }, (_, i) => `"running shoes, study question ${i + 1}"`)];
    fs.writeFileSync(path.join(dir, 'prompts.csv'), `${lines.join('\n')}\n`);
    const run = await runCli(['run', 'prompts.csv', '--engines', ENGINES, '--csv', '--poll-interval', '200'], {
      cwd: dir,
      env,
    });
    expect(run.stderr).not.toMatch(/Error|at /);
    expect(run.code).toBe(0);
    const results = readJsonl(path.join(dir, 'prompts.results.jsonl'));
    expect(results).toHaveLength(300);
    expect(new Set(results.map((r) => r.study.key)).size).toBe(300);
    expect(results.every((r) => r.status === 'COMPLETED')).toBe(true);
    const csv = parse(fs.readFileSync(path.join(dir, 'prompts.results.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(csv).toHaveLength(300);
    expect(Object.keys(csv[0] ?? {})).toEqual([
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
    expect(csv.every((r) => r.answer !== '' && r.status === 'COMPLETED' && r.failure_code === '')).toBe(true);
    expect(csv.filter((r) => r.engine === 'SEARCH_A')).toHaveLength(100);
    // The answer signals: CHATBOT_A reads them (its searches, that it searched, the pages it read but did not cite).
    const chat = csv.filter((r) => r.engine === 'CHATBOT_A');
    expect(chat).toHaveLength(100);
    expect(chat.every((r) => r.search_triggered === 'true' && r.search_queries !== '')).toBe(true);
    expect(chat.every((r) => /^https:\/\/consulted\.example\.net\//.test(r.retrieved_urls ?? ''))).toBe(true);
    // Where each was asked from; Google's pages also say where they were served for.
    expect(csv.every((r) => /^[A-Z]{2}$/.test(r.exit_country ?? ''))).toBe(true);
    expect(csv.filter((r) => r.engine === 'SEARCH_A').every((r) => r.served_country === r.exit_country)).toBe(true);
    expect(run.stdout).toMatch(/study finished in \S+: 300 tasks, 300 completed, 0 failed/);
    for (const e of ENGINES.split(',')) expect(run.stdout).toMatch(new RegExp(`${e}\\s+100\\s+0`));
    expect(serverTasks(hashOf(path.join(dir, 'prompts.results.jsonl')))).toMatchObject({ tasks: 300, keys: 300 });
  });

  it('resumes after a kill: nothing is submitted twice, nothing written twice, failures are counted', async () => {
    const dir = tempDir('aeq-study-');
    // Slow answers so the kill lands mid-study; every tenth prompt fails at the upstream.
    const prompts = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 9 ? `resume question ${i} sandbox:error` : `resume question ${i} sandbox:delay=120`,
    );
    fs.writeFileSync(path.join(dir, 'prompts.txt'), `${prompts.join('\n')}\n`);
    const args = ['run', 'prompts.txt', '--engines', ENGINES, '--csv', '--batch-size', '50', '--poll-interval', '100'];
    const jsonl = path.join(dir, 'prompts.results.jsonl');
    const journal = `${jsonl}.journal`;
    const lineCount = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').length - 1 : 0);

    const batchesBefore = serverBatches();
    const first = startCli(args, { cwd: dir, env });
    await until(
      'six batches journaled and a tenth of the results written',
      async () => [lineCount(journal), lineCount(jsonl)],
      ([j, r]) => (j ?? 0) >= 6 && (r ?? 0) >= 30,
    );
    first.proc.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const written = lineCount(jsonl);
    expect(written).toBeLessThan(300);
    const tag = hashOf(jsonl);
    expect(serverTasks(tag)).toMatchObject({ tasks: 300, keys: 300, batches: 6 });
    const afterKill = serverBatches();
    expect(afterKill).toEqual({ batches: batchesBefore.batches + 6, items: batchesBefore.items + 300 });

    // A kill between a batch's answer and its journal line: the batch is sent again and the service answers with
    // the tasks it already has. Sent again are the last batch's items with no result yet.
    const kept = fs.readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    fs.writeFileSync(journal, `${kept.slice(0, -1).join('\n')}\n`);
    const lost = JSON.parse(kept.at(-1) ?? '{}') as { tasks: Array<[string, string]> };
    const writtenKeys = new Set(readJsonl(jsonl).map((r) => r.study.key));
    const resent = lost.tasks.filter(([key]) => !writtenKeys.has(key)).length;
    expect(resent).toBeGreaterThan(0);

    const second = await runCli(args, { cwd: dir, env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`resumed: ${written} results were already written, ${resent} tasks submitted now`);
    // No task made twice: the one batch sent again (its items all known keys) made none.
    expect(serverTasks(tag)).toMatchObject({ tasks: 300, keys: 300, batches: 6 });
    expect(serverBatches()).toEqual({ batches: afterKill.batches + 1, items: afterKill.items + resent });
    const results = readJsonl(jsonl);
    expect(results).toHaveLength(300);
    expect(new Set(results.map((r) => r.study.key)).size).toBe(300);
    const failed = results.filter((r) => r.status === 'FAILED');
    expect(failed).toHaveLength(30);
    expect(failed.every((r) => r.error?.startsWith('ENGINE_FAILED'))).toBe(true);
    const csv = parse(fs.readFileSync(path.join(dir, 'prompts.results.csv')), { columns: true }) as unknown[];
    expect(csv).toHaveLength(300);
    expect(second.stdout).toMatch(/300 tasks, 270 completed, 30 failed/);
    expect(second.stdout).toMatch(/top failure codes:\s+ENGINE_FAILED \(UPSTREAM_ERROR\)\s+30/);

    // Once more: everything is written, so nothing is submitted or fetched (the service's own request counts).
    const before = await requests();
    const third = await runCli(args, { cwd: dir, env });
    expect(third.stdout).toContain('resumed: 300 results were already written, 0 tasks submitted now');
    expect(await requests()).toEqual(before);
    expect(readJsonl(jsonl)).toHaveLength(300);
  });

  it('shows a live bar on a terminal and plain periodic lines on a pipe', async () => {
    const dir = tempDir('aeq-study-');
    fs.writeFileSync(
      path.join(dir, 'p.jsonl'),
      Array.from({ length: 20 }, (_, i) => JSON.stringify({ prompt: `tty question ${i} sandbox:delay=100` })).join(
        '\n',
      ),
    );
    const args = ['run', 'p.jsonl', '--engines', 'ANSWER_ENGINE_A,SEARCH_A', '--poll-interval', '100'];

    const piped = await runCli([...args, '--out', 'piped.jsonl', '--progress-every', '200'], { cwd: dir, env });
    expect(piped.code).toBe(0);
    const progress = piped.stderr.split('\n').filter((l) => l.startsWith('aeq run: '));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(piped.stderr).not.toContain('\x1b[');
    expect(progress.at(-1)).toMatch(
      new RegExp(
        '^aeq run: 40/40 done \\| submitted 40 \\| queued 0 \\| processing 0 \\| completed 40 \\| failed 0 \\| ' +
          '[0-9.]+/s \\| ETA 0s$',
      ),
    );

    // `script` gives the command a pseudo-terminal and copies what it draws.
    const tty = await new Promise<string>((resolve, reject) => {
      const cmd = shellWords([...AEQ_COMMAND, ...args, '--out', 'tty.jsonl']);
      const p = spawn('script', ['-qfec', cmd, '/dev/null'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', ...env },
      });
      let out = '';
      p.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      p.once('error', reject);
      p.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`script exited ${code}: ${out}`))));
    });
    // cli-progress redraws its line (ESC [1G, back to column 1): at least the first state and the last.
    const frames = tty.split('\u001b[1G').slice(1);
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(frames[0]).toMatch(/^░{24} 0\/40 done/);
    expect(frames.at(-1)).toMatch(
      /^█{24} 40\/40 done \| submitted 40 .*completed 40 \| failed 0 \| [0-9.]+\/s \| ETA 0s/,
    );
    expect(tty).not.toMatch(/^aeq run: \d+\/\d+ done/m);
    expect(tty).toContain('study finished');
  });

  it('keeps refusals for now out of the results, writes permanent ones, never loses a task it can find', async () => {
    const dir = tempDir('aeq-study-');
    fs.writeFileSync(
      path.join(dir, 'r.csv'),
      'prompt,country\nshoes in the US,US\nshoes in Japan,JP\nshoes in China,CN\n',
    );
    const refused = await runCli(['run', 'r.csv', '--engines', 'CHATBOT_A', '--poll-interval', '100'], {
      cwd: dir,
      env,
    });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toMatch(/^study incomplete in \S+: 3 tasks, 1 completed, 1 failed$/m);
    expect(refused.stdout).toContain(
      'refused for now: 1 tasks (REGION_UNAVAILABLE 1); run the same command again later',
    );
    expect(refused.stdout).toMatch(/top failure codes:\s+REGION_UNSUPPORTED\s+1/);
    const lines = readJsonl(path.join(dir, 'r.results.jsonl'));
    expect(lines.map((l) => [l.study.key.split(':').at(-1), l.status])).toEqual(
      expect.arrayContaining([
        ['US', 'COMPLETED'],
        ['CN', 'REJECTED'],
      ]),
    );
    expect(lines).toHaveLength(2);

    // A journal naming a task this service does not know: written off only when older than the retention.
    fs.writeFileSync(path.join(dir, 'one.txt'), 'a prompt the journal says was submitted\n');
    const hash = createHash('sha256')
      .update(Buffer.concat([Buffer.from('lines\0'), fs.readFileSync(path.join(dir, 'one.txt'))]))
      .digest('hex')
      .slice(0, 16);
    const key = `aeq-run:${hash}:0:ANSWER_ENGINE_A:-`;
    const ghost = '01a20000-0000-7000-8000-000000000000';
    const journal = path.join(dir, 'one.results.jsonl.journal');
    const args = ['run', 'one.txt', '--engines', 'ANSWER_ENGINE_A', '--poll-interval', '100'];
    fs.writeFileSync(journal, `${JSON.stringify({ batch: null, at: Date.now() - 60_000, tasks: [[key, ghost]] })}\n`);
    const wrong = await runCli(args, { cwd: dir, env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`aeq: the service does not know task ${ghost}, submitted by this study at `);
    expect(fs.readFileSync(path.join(dir, 'one.results.jsonl'), 'utf8')).toBe('');
    fs.writeFileSync(
      journal,
      `${JSON.stringify({ batch: null, at: Date.now() - 25 * 3600_000, tasks: [[key, ghost]] })}\n`,
    );
    const old = await runCli(args, { cwd: dir, env });
    expect(old.code).toBe(0);
    expect(readJsonl(path.join(dir, 'one.results.jsonl'))).toMatchObject([{ status: 'MISSING' }]);

    // One run at a time per results file; a dead run's lock is taken over.
    fs.writeFileSync(path.join(dir, 'one.results.jsonl.lock'), String(process.pid));
    const locked = await runCli(args, { cwd: dir, env });
    expect(locked.code).toBe(2);
    expect(locked.stderr).toBe(
      `aeq: another aeq run (pid ${process.pid}) is writing these results; wait for it or stop it\n`,
    );
    fs.writeFileSync(path.join(dir, 'one.results.jsonl.lock'), '2147483646');
    expect((await runCli(args, { cwd: dir, env })).code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'one.results.jsonl.lock'))).toBe(false);
  });

  it('rides out polls that fail (a 503, a service that restarts) and goes on', async () => {
    // A proxy in front of the service that answers the first three batch polls with 503.
    let refusedPolls = 0;
    const proxy = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/v1/async/batch/') && refusedPolls < 3) {
        refusedPolls++;
        res.writeHead(503, { 'content-type': 'text/plain' }).end('restarting');
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = { ...req.headers } as Record<string, string>;
        // Hop-by-hop and framing headers are the proxy's own to set: fetch refuses some of them outright.
        for (const h of ['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']) delete headers[h];
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        fetch(svc.url + (req.url ?? '/'), { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) })
          .then(async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()))
          // The cause goes to the CLI's stderr, which the assertion below prints.
          .catch((e: unknown) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${String(e)}`));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const dir = tempDir('aeq-study-');
      fs.writeFileSync(path.join(dir, 'p.txt'), 'poll one\npoll two\n');
      const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const run = await runCli(['run', 'p.txt', '--engines', 'ANSWER_ENGINE_A', '--poll-interval', '100'], {
        cwd: dir,
        env: { ...env, AEQ_URL: url },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(refusedPolls).toBe(3);
      expect(
        run.stderr.match(/^aeq run: poll failed \(HTTP_ERROR: HTTP 503 without an error envelope\); trying again/gm),
      ).toHaveLength(3);
      expect(run.stdout).toMatch(/2 tasks, 2 completed, 0 failed/);
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  it('reports bad input, a missing service and a refused key as typed errors with their exit status', async () => {
    const dir = tempDir('aeq-study-');
    fs.writeFileSync(path.join(dir, 'p.csv'), 'question,engine\nwhat is a good tent,CHATBOT_Z\n');
    const unknown = await runCli(['run', 'p.csv'], { cwd: dir, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^aeq: prompt 1: unknown engine CHATBOT_Z; one of .*CHATBOT_A/);

    fs.writeFileSync(path.join(dir, 'q.csv'), 'text\nno prompt column\n');
    const noColumn = await runCli(['run', 'q.csv', '--engines', 'CHATBOT_A'], { cwd: dir, env });
    expect(noColumn.code).toBe(2);
    expect(noColumn.stderr).toContain('q.csv: the first row must name the columns');

    fs.writeFileSync(path.join(dir, 'ok.txt'), 'a fine prompt\n');
    const noServer = await runCli(['run', 'ok.txt', '--engines', 'CHATBOT_A'], { cwd: dir, env: {} });
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toContain('no service: give --server URL or set AEQ_URL');

    const refused = await runCli(['run', 'ok.txt', '--engines', 'CHATBOT_A'], {
      cwd: dir,
      env: { ...env, AEQ_API_KEY: 'not-a-key' },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^aeq: the service refused: MISSING_API_KEY \(HTTP 401\): /m);
    expect(refused.stderr).not.toContain('not-a-key');

    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const down = await runCli(['tasks', 'get', 'x', '--server', `http://127.0.0.1:${port}`], { cwd: dir, env });
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`aeq: NETWORK_ERROR: GET http://127.0.0.1:${port}/v1/async/task/x: ECONNREFUSED\n`);

    const badOption = await runCli(['run', 'ok.txt', '--batch-size', '501'], { cwd: dir, env });
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("option '--batch-size <n>' argument '501' is invalid");
  });
});
