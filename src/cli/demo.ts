import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { PromptResearchResult, SourceInfluenceResult } from '@aeq/client';
import { createApp } from '../app.js';
import { loadSettings } from '../config/settings.js';
import { createLogger } from '../ops/logger.js';

/**
 * The demos' API key: a throwaway service in a temporary data dir, on loopback, gone when the demo ends. Printed where
 * the service stays up (`--keep`); long enough for the service's minimum.
 */
export const DEMO_KEY = 'aeq-demo-key-sandbox-only';

/** One demo step: what is submitted and the end state the sandbox must produce. */
interface Step {
  label: string;
  path: string;
  body: unknown;
  expect: 'COMPLETED' | 'FAILED' | 'REJECTED';
  expectError?: string;
}

const STEPS: Step[] = [
  {
    label: 'answer engine',
    path: '/v1/async/task',
    body: { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'best running shoes for flat feet' } },
    expect: 'COMPLETED',
  },
  {
    label: 'chatbot (US account)',
    path: '/v1/async/task',
    body: { taskType: 'CHATBOT_A', payload: { prompt: 'best running shoes', country: 'US' } },
    expect: 'COMPLETED',
  },
  {
    label: 'chatbot (KR account)',
    path: '/v1/async/task',
    body: { taskType: 'CHATBOT_A', payload: { prompt: '러닝화 추천', country: 'KR' } },
    expect: 'COMPLETED',
  },
  {
    label: 'chatbot into JP',
    path: '/v1/async/task',
    body: { taskType: 'CHATBOT_A', payload: { prompt: 'x', country: 'JP' } },
    expect: 'REJECTED',
    expectError: 'REGION_UNAVAILABLE',
  },
  {
    label: 'assistant',
    path: '/v1/async/task',
    body: { taskType: 'ASSISTANT_A', payload: { prompt: 'how tall is the eiffel tower' } },
    expect: 'COMPLETED',
  },
  {
    label: 'search A + AI overview',
    path: '/v1/async/task',
    body: { taskType: 'SEARCH_A', payload: { query: 'pydantic v2 sandbox:aio' } },
    expect: 'COMPLETED',
  },
  {
    label: 'AI mode',
    path: '/v1/async/task',
    body: { taskType: 'AIMODE', payload: { query: 'how to migrate to pydantic v2' } },
    expect: 'COMPLETED',
  },
  {
    label: 'search A, page 2',
    path: '/v1/async/task',
    body: { taskType: 'SEARCH_A_SERP', payload: { query: 'pydantic', page: 2 } },
    expect: 'COMPLETED',
  },
  {
    label: 'search B AI brief',
    path: '/v1/async/task',
    body: { taskType: 'SEARCH_B_AI_BRIEF', payload: { query: '강아지 사료 추천' } },
    expect: 'COMPLETED',
  },
  {
    label: 'search B web',
    path: '/v1/async/task',
    body: { taskType: 'SEARCH_B_SERP', payload: { query: '서울 맛집' } },
    expect: 'COMPLETED',
  },
  {
    label: 'search C web',
    path: '/v1/async/task',
    body: { taskType: 'SEARCH_C_SEARCH', payload: { query: 'pydantic' } },
    expect: 'COMPLETED',
  },
  {
    label: 'search C assistant',
    path: '/v1/async/task',
    body: { taskType: 'SEARCH_C_ASSISTANT', payload: { prompt: 'what is pydantic' } },
    expect: 'COMPLETED',
  },
  {
    label: 'forum search',
    path: '/v1/async/task',
    body: { taskType: 'FORUM', payload: { query: 'pydantic v2', community: 'python' } },
    expect: 'COMPLETED',
  },
  {
    label: 'web page',
    path: '/v1/async/task',
    body: { taskType: 'WEB_SCRAPE', payload: { url: 'https://example.com/guide' } },
    expect: 'COMPLETED',
  },
  {
    label: 'flaky upstream (2 failures)',
    path: '/v1/async/task',
    body: { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'demo flaky sandbox:flaky=2' } },
    expect: 'COMPLETED',
  },
  {
    label: 'empty answer',
    path: '/v1/async/task',
    body: { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'demo sandbox:empty' } },
    expect: 'FAILED',
    expectError: 'ENGINE_NO_RESULT',
  },
  {
    label: 'captcha everywhere',
    path: '/v1/async/task',
    body: { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'demo sandbox:captcha' } },
    expect: 'FAILED',
    expectError: 'ENGINE_FAILED',
  },
  {
    label: 'source influence',
    path: '/v1/source-influence',
    body: {
      prompt: 'What changed in Pydantic v2?',
      answer: 'Pydantic v2 rewrote its core in Rust [1]. Validation is much faster [2].',
      citations: ['https://docs.example.dev/pydantic-v2', 'https://example.org/benchmarks'],
    },
    expect: 'COMPLETED',
  },
  {
    label: 'prompt research',
    path: '/v1/prompt-research',
    body: { seed: 'running shoes', country: 'US', limit: 10, monitorSize: 5 },
    expect: 'COMPLETED',
  },
];

/** The members of the service's answers the demo reads. */
interface DemoBody {
  task: { id: string; status: string };
  error?: { code?: string } | string;
  response?: unknown;
  tasks?: unknown;
}

/** One line about a result: engine answers by their sources, analyses by their headline figures. */
function describeResponse(step: Step, response: unknown): string {
  if (!response) return '';
  if (step.path === '/v1/prompt-research') {
    const r = response as PromptResearchResult;
    return `${r.questions.length} questions, monitor set of ${r.monitorSet.size} (${r.demandBasis})`;
  }
  if (step.path === '/v1/source-influence') {
    const r = response as SourceInfluenceResult;
    const { topSourceId, attributedShare } = r.summary;
    return `${r.sources.length} sources, top ${topSourceId ?? 'none'}, attributed ${attributedShare}`;
  }
  const r = response as { text?: unknown; sources?: unknown[] };
  return `${(r.sources ?? []).length} sources, ${String(r.text ?? '').length} chars`;
}

/**
 * `aeq demo`: runs the service in sandbox mode on a free port and walks through every engine and
 * the sandbox directives, with a local webhook receiver, printing progress and a summary.
 */
export async function runDemo(out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-demo-'));
  const hooks: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hooks.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const settings = loadSettings({
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: DEMO_KEY,
    PORT: '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
    // Generous: on a loaded machine a slow attempt must not read as a failed demo step.
    AEQ_ENGINE_TIMEOUT_MS: '30000',
    AEQ_LOG_LEVEL: 'silent',
  });
  const app = await createApp(settings, { log: createLogger('silent') });
  const base = await app.listen();
  out.write(`aeq demo: sandbox service on ${base} (data in ${dataDir})\n`);
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as DemoBody };
  };
  let bad = 0;
  try {
    const ids: Array<{ step: Step; id: string | null; rejected?: string }> = [];
    for (const step of STEPS) {
      const body = { ...(step.body as object), webhook: { url: hookUrl } };
      const r = await call('POST', step.path, body);
      ids.push(
        r.status === 202
          ? { step, id: r.body.task.id }
          : { step, id: null, rejected: typeof r.body.error === 'object' ? r.body.error.code : undefined },
      );
    }
    let done = 0;
    for (const entry of ids) {
      done++;
      let status = 'REJECTED';
      let note = entry.rejected ?? '';
      if (entry.id) {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const r = await call('GET', `/v1/async/task/${entry.id}`);
          status = r.body.task.status;
          if (status === 'COMPLETED' || status === 'FAILED' || Date.now() > deadline) {
            note = status === 'FAILED' ? String(r.body.error) : describeResponse(entry.step, r.body.response);
            break;
          }
          await new Promise((res) => setTimeout(res, 100));
        }
      }
      const ok = status === entry.step.expect && (!entry.step.expectError || note.startsWith(entry.step.expectError));
      if (!ok) bad++;
      out.write(
        `[${done}/${ids.length}] ${ok ? 'ok  ' : 'FAIL'} ${entry.step.label.padEnd(28)} ${status.padEnd(9)} ${note}\n`,
      );
    }
    const deadline = Date.now() + 30_000;
    const expected = ids.filter((e) => e.id).length;
    while (hooks.length < expected && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
    out.write(`webhooks received: ${hooks.length}/${expected}\n`);
    if (hooks.length < expected) bad++;
    const stats = await call('GET', '/stats');
    out.write(`stats: ${JSON.stringify(stats.body.tasks)}\n`);
  } finally {
    await app.stop(1000);
    receiver.close();
  }
  out.write(
    bad === 0
      ? 'demo finished: every step ended as expected\n'
      : `demo finished: ${bad} step(s) did not end as expected\n`,
  );
  return bad === 0 ? 0 : 1;
}
