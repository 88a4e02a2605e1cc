import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_DEFAULTS } from '../../src/analysis/config.js';
import { ModelSession } from '../../src/analysis/model/session.js';
import { modelJudgeMode } from '../../src/analysis/source-influence/adapter.js';
import { analyzeSourceInfluence } from '../../src/analysis/source-influence/analyze.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';
import { startJudgeServer, type JudgeServer, JUDGE_INPUT, JUDGE_PAGES } from './judge-server.js';

/**
 * The optional model judge (§2.10) against a local OpenAI-compatible server (as llama.cpp, vLLM or Ollama would run
 * one) that answers from a fixture: every pair or only the ambiguous ones, the judge recorded per pair and in the
 * summary, the model's `contradicted` taking the pair's weight away, and a failing server leaving the lexical labels.
 */
const PAGES = JUDGE_PAGES;
const INPUT = JUDGE_INPUT;

describe('the model judge on a local OpenAI-compatible server', () => {
  let judge: JudgeServer;
  const dispatcher = new Agent();
  const session = () =>
    new ModelSession({
      http: new UndiciTransport('test-exit', dispatcher, false),
      signal: new AbortController().signal,
      endpoint: { baseUrl: judge.base, model: 'local-llama-3.1-8b', apiKey: 'sk-local', headers: {} },
      timeoutMs: 5_000,
      tokenLimit: 100_000,
      maxOutputTokens: ANALYSIS_DEFAULTS.si.model.maxOutputTokens,
    });
  const records = PAGES.map((t) => readPageRecord(t));

  beforeAll(async () => {
    judge = await startJudgeServer();
  });
  afterAll(async () => {
    await judge.close();
    await dispatcher.close();
  });

  it('judges every pair in "all" mode and records the model as the judge of each', async () => {
    judge.seen.length = 0;
    const { result } = await analyzeSourceInfluence(INPUT, records, ANALYSIS_DEFAULTS.si, {
      session: session(),
      modelJudge: 'all',
    });
    const r = result as any;
    expect(judge.seen.every((s) => s.model === 'local-llama-3.1-8b')).toBe(true);
    expect(judge.seen.flatMap((s) => s.pairs)).toHaveLength(6); // 3 claims x 2 pages
    expect(r.summary).toMatchObject({ judge: 'model', judgeModel: 'local-llama-3.1-8b' });
    const [control, opened, closed] = r.claims;
    expect(control.sources.map((s: any) => [s.sourceId, s.label, s.judge])).toEqual([
      ['c1', 'supported', 'model'],
      ['c2', 'unsupported', 'model'],
    ]);
    expect(opened.sources[1]).toMatchObject({ label: 'supported', judge: 'model' });
    // The model's contradiction takes the cited page's weight away: the claim is left unattributed.
    expect(closed.sources[1]).toMatchObject({ label: 'contradicted', judge: 'model', weight: 0 });
    expect(closed.contradictedBy).toEqual(['c2']);
    // The evidence passage around the best match is what the model reads.
    expect(judge.seen[0]?.pairs[0]?.passage).toContain('transferred');
  });

  it('in "ambiguous" mode sends only pairs near a threshold or called contradicted, naming each judge', async () => {
    judge.seen.length = 0;
    const { result } = await analyzeSourceInfluence(INPUT, records, ANALYSIS_DEFAULTS.si, {
      session: session(),
      modelJudge: 'ambiguous',
    });
    const r = result as any;
    const sent = judge.seen.flatMap((s) => s.pairs).length;
    expect(sent).toBeLessThan(6);
    const judges = r.claims.flatMap((c: any) => c.sources.map((s: any) => s.judge));
    expect(judges.filter((j: string) => j === 'model')).toHaveLength(sent);
    expect(r.summary.judge).toBe(sent === 0 ? 'lexical' : 'lexical+model');
  });

  it('without a model the lexical judge runs and says so', async () => {
    const { result } = await analyzeSourceInfluence(INPUT, records, ANALYSIS_DEFAULTS.si, {});
    const r = result as any;
    expect(r.summary).toMatchObject({ judge: 'lexical', judgeModel: null });
    expect(r.claims.flatMap((c: any) => c.sources.map((s: any) => s.judge))).not.toContain('model');
  });

  it('a failing server leaves every pair lexical, with a warning', async () => {
    judge.behave = () => 'fail';
    try {
      const { result } = await analyzeSourceInfluence(INPUT, records, ANALYSIS_DEFAULTS.si, {
        session: session(),
        modelJudge: 'all',
      });
      const r = result as any;
      expect(r.summary.judge).toBe('lexical');
      expect(r.warnings.map((w: any) => w.code)).toContain('MODEL_CHECK_FAILED');
    } finally {
      judge.behave = () => 'answer';
    }
  });
});

describe('the engine option that turns the model judge on', () => {
  const engine = (options: Record<string, unknown>) =>
    ({ upstream: { baseUrl: '', headers: {}, options } }) as unknown as Parameters<typeof modelJudgeMode>[0];
  it('is modelJudge, with the older modelCheck: true meaning "ambiguous", and off by default', () => {
    expect(modelJudgeMode(engine({}))).toBe('off');
    expect(modelJudgeMode(engine({ modelCheck: true }))).toBe('ambiguous');
    expect(modelJudgeMode(engine({ modelJudge: 'all' }))).toBe('all');
    expect(modelJudgeMode(engine({ modelJudge: 'off', modelCheck: true }))).toBe('off');
    expect(modelJudgeMode(engine({ modelJudge: 'everything' }))).toBe('off');
  });
});
