import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_ERROR_SENTENCES } from '../../src/domain/engine-errors.js';
import { fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';

/** The exact task-level error string of a code: `<CODE>: <fixed sentence>`. */
const errorOf = (code: keyof typeof ENGINE_ERROR_SENTENCES) => `${code}: ${ENGINE_ERROR_SENTENCES[code]}`;

const run = (svc: RunningService, prompt: string) => runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt } });

/** Attempts the store counted for a task (not part of the client view). */
async function attemptsOf(svc: RunningService, id: string): Promise<number> {
  const t = await svc.app.store.tasks.get({ id, notBefore: 0 });
  return t?.attempts ?? -1;
}

describe('sandbox directives reach their specified end state (ANSWER_ENGINE_A, 3 attempts)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    // A generous attempt timeout: a slow machine must not turn a normal answer into a retry.
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_ENGINE_TIMEOUT_MS: '5000' });
  });
  afterAll(() => svc.stop());

  it('no directive: COMPLETED with text, markdown and sources', async () => {
    const r = await run(svc, 'what is a task queue');
    expect(r.task.status).toBe('COMPLETED');
    expect(typeof r.response.text).toBe('string');
    expect(r.response.text.length).toBeGreaterThan(0);
    expect(typeof r.response.markdown).toBe('string');
    expect(r.response.sources.length).toBeGreaterThan(0);
    for (const s of r.response.sources) {
      expect(Number.isInteger(s.position)).toBe(true);
      expect(s.url).toMatch(/^https?:\/\//);
      expect(typeof s.label).toBe('string');
    }
    expect(await attemptsOf(svc, r.task.id)).toBe(1);
  });

  it('sandbox:empty -> FAILED "ENGINE_NO_RESULT: <sentence>", not retried', async () => {
    const r = await run(svc, 'nothing here sandbox:empty');
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(errorOf('ENGINE_NO_RESULT'));
    expect(await attemptsOf(svc, r.task.id)).toBe(1);
  });

  it('sandbox:error -> FAILED "ENGINE_FAILED: <sentence>" after every attempt', async () => {
    const r = await run(svc, 'broken sandbox:error');
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(errorOf('ENGINE_FAILED'));
    expect(await attemptsOf(svc, r.task.id)).toBe(3);
  });

  it('sandbox:flaky=2 -> COMPLETED on the third attempt', async () => {
    const r = await run(svc, 'flaky twice sandbox:flaky=2');
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.sources.length).toBeGreaterThan(0);
    expect(await attemptsOf(svc, r.task.id)).toBe(3);
  });

  it('sandbox:flaky=5 -> FAILED "ENGINE_FAILED: <sentence>" (attempts run out first)', async () => {
    const r = await run(svc, 'flaky five times sandbox:flaky=5');
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(errorOf('ENGINE_FAILED'));
    expect(await attemptsOf(svc, r.task.id)).toBe(3);
  });

  it('sandbox:delay=MS (under the timeout) -> COMPLETED in one attempt', async () => {
    const r = await run(svc, 'take your time sandbox:delay=150');
    expect(r.task.status).toBe('COMPLETED');
    expect(await attemptsOf(svc, r.task.id)).toBe(1);
  });

  it('the same directive gives the same error string every time, whatever the prompt', async () => {
    const errors = await Promise.all(
      ['a sandbox:error', 'b sandbox:error', 'something else entirely sandbox:error'].map((p) => run(svc, p)),
    );
    expect(errors.map((e) => e.error)).toEqual([
      errorOf('ENGINE_FAILED'),
      errorOf('ENGINE_FAILED'),
      errorOf('ENGINE_FAILED'),
    ]);
  });

  it('every error string has the form <CODE>: <fixed sentence>', () => {
    for (const code of Object.keys(ENGINE_ERROR_SENTENCES) as Array<keyof typeof ENGINE_ERROR_SENTENCES>) {
      expect(errorOf(code)).toMatch(/^[A-Z_]+: [A-Z].*\.$/);
    }
  });
});

describe('attempt timeouts (AEQ_ENGINE_TIMEOUT_MS short)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_ENGINE_TIMEOUT_MS: '300' });
  });
  afterAll(() => svc.stop());

  it('sandbox:timeout -> FAILED "ENGINE_TIMEOUT: <sentence>" after every attempt timed out', async () => {
    const r = await run(svc, 'slow one sandbox:timeout');
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(errorOf('ENGINE_TIMEOUT'));
    expect(await attemptsOf(svc, r.task.id)).toBe(3);
  });

  it('sandbox:delay over the attempt timeout -> ENGINE_TIMEOUT', async () => {
    const r = await run(svc, 'too slow sandbox:delay=1500');
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(errorOf('ENGINE_TIMEOUT'));
  });

  it('the same timeout error string every time, whatever the prompt', async () => {
    const timeouts = await Promise.all(['x sandbox:timeout', 'y sandbox:timeout'].map((p) => run(svc, p)));
    expect(timeouts.map((t) => t.error)).toEqual([errorOf('ENGINE_TIMEOUT'), errorOf('ENGINE_TIMEOUT')]);
  });
});
