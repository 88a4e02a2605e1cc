import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/analysis/common/async.js';
import { ANALYSIS_DEFAULTS, analysisConfig, type SourceInfluenceConfig } from '../../src/analysis/config.js';
import { judgePairsWithModel, type ModelEvalPair } from '../../src/analysis/eval/model-judge-eval.js';
import { ModelSession } from '../../src/analysis/model/session.js';
import { analyzeSourceInfluence } from '../../src/analysis/source-influence/analyze.js';
import { JudgementCache, type JudgementMemo } from '../../src/analysis/source-influence/judgement-cache.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';
import type { SourceInfluenceInput } from '../../src/analysis/source-influence/types.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';
import { labelFor, startJudgeServer, type JudgeServer, JUDGE_INPUT, JUDGE_PAGES } from './judge-server.js';

/**
 * The model judge as a path of its own (§2.10), against a real local OpenAI-compatible server: a server that hangs
 * or fails leaves the remaining pairs to the lexical judge with a MODEL_CHECK_FAILED warning; judgements are cached
 * per tenant, endpoint, model, claim and evidence, so a repeat costs no call and no token; the summary says whether
 * the judge behind the labels was measured; and `judgePairsWithModel` (the evaluation's entry) sends what the
 * service sends.
 */
const PAGES = JUDGE_PAGES;
const INPUT = JUDGE_INPUT;
const records = PAGES.map((t) => readPageRecord(t));
const MODEL = 'local-llama-3.1-8b';

describe('the model judge path on a local OpenAI-compatible server', () => {
  let judge: JudgeServer;
  const dispatcher = new Agent();
  const session = (timeoutMs = 5_000, model = MODEL) =>
    new ModelSession({
      http: new UndiciTransport('test-exit', dispatcher, false),
      signal: new AbortController().signal,
      endpoint: { baseUrl: `${judge.base}/v1`, model, apiKey: 'sk-local', headers: {} },
      timeoutMs,
      tokenLimit: 100_000,
      maxOutputTokens: ANALYSIS_DEFAULTS.si.model.maxOutputTokens,
    });
  const analyse = (
    opts: { timeoutMs?: number; model?: string; memo?: JudgementMemo | null; cfg?: SourceInfluenceConfig } = {},
    input: SourceInfluenceInput = INPUT,
  ) =>
    analyzeSourceInfluence(input, records, opts.cfg ?? ANALYSIS_DEFAULTS.si, {
      session: session(opts.timeoutMs, opts.model),
      modelJudge: 'all',
      judgementMemo: opts.memo ?? null,
    }).then((o) => o.result as any);
  const labels = (r: any) => r.claims.map((c: any) => c.sources.map((s: any) => [s.label, s.judge]));
  let lexical: any;

  beforeAll(async () => {
    judge = await startJudgeServer();
    lexical = (await analyzeSourceInfluence(INPUT, records, ANALYSIS_DEFAULTS.si, {})).result;
  });
  beforeEach(() => {
    judge.behave = () => 'answer';
    judge.seen.length = 0;
  });
  afterAll(async () => {
    await judge.close();
    await dispatcher.close();
  });

  describe('a timeout or a failure falls back to the lexical judge, with a warning', () => {
    it('a server that never answers: the call times out, every pair keeps its lexical label', async () => {
      judge.behave = () => 'hang';
      const before = judge.requests();
      const t0 = Date.now();
      const r = await analyse({ timeoutMs: 300 });
      expect(Date.now() - t0).toBeLessThan(4_000);
      expect(judge.requests() - before).toBe(1); // no second call after a timeout
      expect(labels(r)).toEqual(labels(lexical));
      expect(r.summary).toMatchObject({ judge: 'lexical', judgeModel: null, alignmentMethod: 'lexical' });
      const w = r.warnings.find((x: any) => x.code === 'MODEL_CHECK_FAILED');
      expect(w.message).toContain('(timeout: no answer within 300 ms)');
      expect(w.message).toContain("the remaining 6 pair(s) keep the lexical judge's label");
      // A timed-out call is counted, with the tokens nothing tells us it used: none.
      expect(r.usage.modelTokens).toMatchObject({
        input: 0,
        output: 0,
        calls: [{ purpose: 'model_check', model: MODEL, count: 1, input: 0, output: 0 }],
      });
      expect(r.summary.judgeEvaluation).toMatchObject({ judge: 'lexical', measured: true });
    });

    it('a hang after one answered call: the judged pairs stay, the rest are lexical and counted', async () => {
      const start = judge.requests();
      judge.behave = (n) => (n === start + 1 ? 'answer' : 'hang');
      const cfg = analysisConfig({ si: { modelCheck: { pairsPerCall: 2 } } }).si;
      const r = await analyse({ timeoutMs: 300, cfg });
      const byModel = r.claims.flatMap((c: any) => c.sources.filter((s: any) => s.judge === 'model'));
      expect(byModel).toHaveLength(2);
      expect(r.summary).toMatchObject({ judge: 'lexical+model', judgeModel: MODEL });
      const w = r.warnings.find((x: any) => x.code === 'MODEL_CHECK_FAILED');
      expect(w.message).toContain("the remaining 4 pair(s) keep the lexical judge's label");
      expect(r.usage.modelTokens).toMatchObject({ input: 100, output: 20 });
      expect(r.usage.modelTokens.calls[0]).toMatchObject({ purpose: 'model_check', count: 2 });
      expect(r.summary.judgeEvaluation).toMatchObject({ judge: 'model', measured: false });
    });

    it('valid output that leaves pairs out: those stay lexical, and a warning says how many', async () => {
      judge.behave = () => 'partial';
      const cfg = analysisConfig({ si: { modelCheck: { pairsPerCall: 2 } } }).si;
      const r = await analyse({ cfg });
      const byModel = r.claims.flatMap((c: any) => c.sources.filter((s: any) => s.judge === 'model'));
      // Six pairs in calls of two: the first of each call judged.
      expect(byModel).toHaveLength(3);
      const w = r.warnings.find((x: any) => x.code === 'MODEL_CHECK_INCOMPLETE');
      expect(w.message).toContain("without a label for 3 of 6 pair(s); they keep the lexical judge's label");
      expect(r.warnings.map((x: any) => x.code)).not.toContain('MODEL_CHECK_FAILED');
    });

    it('an HTTP error: the warning names it and no pair is judged', async () => {
      judge.behave = () => 'fail';
      const r = await analyse();
      expect(labels(r)).toEqual(labels(lexical));
      const w = r.warnings.find((x: any) => x.code === 'MODEL_CHECK_FAILED');
      expect(w.message).toContain('(model_error: model endpoint answered HTTP 500)');
      expect(w.message).toContain('the remaining 6 pair(s)');
    });
  });

  describe('the judgement cache', () => {
    const endpoint = () => ({ baseUrl: `${judge.base}/v1`, model: MODEL });

    it('a repeat of the same claims makes no call and uses no token, with the same model labels', async () => {
      const cache = new JudgementCache(100);
      const first = await analyse({ memo: cache.scoped('acme', endpoint()) });
      expect(judge.requests()).toBeGreaterThan(0);
      expect(judge.seen.flatMap((s) => s.pairs)).toHaveLength(6);
      expect(first.usage.modelTokens).toMatchObject({ input: 100, output: 20 });
      expect(cache.size).toBe(6);

      const before = judge.requests();
      const again = await analyse({ memo: cache.scoped('acme', endpoint()) });
      expect(judge.requests()).toBe(before);
      expect(again.usage.modelTokens).toEqual({ input: 0, output: 0, estimated: false, calls: [] });
      expect(labels(again)).toEqual(labels(first));
      expect(again.summary).toMatchObject({ judge: 'model', judgeModel: MODEL });
      expect(again.summary.judgeEvaluation).toEqual(first.summary.judgeEvaluation);
      expect(again.claims).toEqual(first.claims);
    });

    it('only the pairs not judged before are sent', async () => {
      const cache = new JudgementCache(100);
      await analyse({ memo: cache.scoped('acme', endpoint()) });
      judge.seen.length = 0;
      const input = {
        ...INPUT,
        answer: 'The harbour museum opened in 1994 [2]. The old harbour has a museum of ships and maps [2].',
      };
      const r = await analyse({ memo: cache.scoped('acme', endpoint()) }, input);
      const sent = judge.seen.flatMap((s) => s.pairs.map((p) => p.claim));
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.every((c) => c.includes('ships and maps'))).toBe(true);
      // The cached claim still carries the model's labels.
      expect(r.claims[0].sources.map((s: any) => [s.label, s.judge])).toEqual([
        ['unsupported', 'model'],
        ['supported', 'model'],
      ]);
    });

    it('is per tenant, per endpoint and model, and off with 0 entries', async () => {
      const cache = new JudgementCache(100);
      await analyse({ memo: cache.scoped('acme', endpoint()) });
      const count = async (opts: Parameters<typeof analyse>[0]) => {
        const before = judge.requests();
        await analyse(opts);
        return judge.requests() - before;
      };
      expect(await count({ memo: cache.scoped('acme', endpoint()) })).toBe(0);
      expect(await count({ memo: cache.scoped('globex', endpoint()) })).toBeGreaterThan(0);
      expect(
        await count({ model: 'other-model', memo: cache.scoped('acme', { ...endpoint(), model: 'other-model' }) }),
      ).toBeGreaterThan(0);
      // The same model id served elsewhere is another judge.
      expect(
        await count({ memo: cache.scoped('acme', { ...endpoint(), baseUrl: 'http://10.0.0.5:8000/v1' }) }),
      ).toBeGreaterThan(0);
      const off = new JudgementCache(0);
      await analyse({ memo: off.scoped('acme', endpoint()) });
      expect(await count({ memo: off.scoped('acme', endpoint()) })).toBeGreaterThan(0);
      expect(off.size).toBe(0);
    });

    it('keeps out what a failed call did not judge', async () => {
      const cache = new JudgementCache(100);
      judge.behave = () => 'fail';
      await analyse({ memo: cache.scoped('acme', endpoint()) });
      expect(cache.size).toBe(0);
      judge.behave = () => 'answer';
      const before = judge.requests();
      await analyse({ memo: cache.scoped('acme', endpoint()) });
      expect(judge.requests()).toBeGreaterThan(before);
      expect(cache.size).toBe(6);
    });

    it('is bounded, the least recently used entry out first', () => {
      const lru = new TtlCache<string>(Number.POSITIVE_INFINITY, 3);
      for (const k of ['a', 'b', 'c']) lru.set(k, k.toUpperCase());
      expect(lru.get('a')).toBe('A'); // now the most recently used
      lru.set('d', 'D');
      expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.get('d')]).toEqual(['A', undefined, 'C', 'D']);
      expect(lru.size).toBe(3);
    });
  });

  describe('the summary says whether the judge behind the labels was measured', () => {
    it('lexical: measured; model: not measured, with the command that measures it', async () => {
      expect(lexical.summary.judgeEvaluation).toEqual({
        judge: 'lexical',
        measured: true,
        note: expect.stringContaining('npm run eval:analysis'),
      });
      const r = await analyse();
      expect(r.summary.judgeEvaluation).toEqual({
        judge: 'model',
        measured: false,
        note:
          'The model judge has not been evaluated on the held-out sets in this deployment; run ' +
          'npm run eval:analysis -- --model-url URL --model NAME to measure it.',
      });
    });
  });

  describe('judgePairsWithModel (npm run eval:analysis -- --model-url URL --model NAME)', () => {
    const CLAIMS = [
      ['The founder gave up control of the company in 1997.', PAGES[0]],
      ['The harbour museum opened in 1994.', PAGES[1]],
      ['The harbour museum opened in 1994.', PAGES[0]],
      ['The harbour museum is closed to visitors on most days.', PAGES[1]],
    ] as const;
    const pairs: ModelEvalPair[] = Array.from({ length: 12 }, (_, i) => {
      const [claim, evidence] = CLAIMS[i % CLAIMS.length] as readonly [string, string];
      return { id: `heldout-en-claim-${i}-page-${i % 2}`, claim, evidence, language: i % 3 === 0 ? 'ko' : 'en' };
    });

    it('labels every pair in calls of 10, with each pair its share of the call tokens', async () => {
      const progress: Array<[number, number]> = [];
      const out = await judgePairsWithModel(pairs, {
        baseUrl: `${judge.base}/v1`,
        model: MODEL,
        concurrency: 1,
        onProgress: (d, t) => progress.push([d, t]),
      });
      expect(judge.seen.map((s) => s.pairs.length)).toEqual([10, 2]);
      expect(judge.seen.every((s) => s.model === MODEL && s.authorization === null)).toBe(true);
      expect(progress).toEqual([
        [10, 12],
        [12, 12],
      ]);
      expect([...out.keys()]).toEqual(expect.arrayContaining(pairs.map((p) => p.id)));
      for (const [i, p] of pairs.entries()) {
        // 120 tokens a call: 12 a pair in the call of 10, 60 in the call of 2.
        expect(out.get(p.id)).toEqual({ label: labelFor(p.claim, p.evidence), tokens: i < 10 ? 12 : 60 });
      }
      expect(new Set([...out.values()].map((o) => ('label' in o ? o.label : o.error)))).toEqual(
        new Set(['supported', 'unsupported', 'contradicted']),
      );
    });

    it('sends the key as a bearer token, and reports a failed or timed-out call per pair', async () => {
      const start = judge.requests();
      judge.behave = (n) => (n === start + 1 ? 'fail' : 'answer');
      const failed = await judgePairsWithModel(pairs, {
        baseUrl: judge.base,
        model: MODEL,
        apiKey: 'sk-eval',
        concurrency: 1,
      });
      expect(judge.seen.map((s) => s.authorization)).toEqual(['Bearer sk-eval']);
      expect(pairs.slice(0, 10).map((p) => failed.get(p.id))).toEqual(
        Array(10).fill({ error: 'model_error: model_check: model endpoint answered HTTP 500', tokens: 0 }),
      );
      expect(failed.get(pairs[10]?.id ?? '')).toMatchObject({ tokens: 60 });

      judge.behave = () => 'hang';
      const t0 = Date.now();
      const hung = await judgePairsWithModel(pairs.slice(0, 3), { baseUrl: judge.base, model: MODEL, timeoutMs: 200 });
      expect(Date.now() - t0).toBeLessThan(4_000);
      expect([...hung.values()]).toEqual(
        Array(3).fill({ error: 'timeout: model_check: no answer within 200 ms', tokens: 0 }),
      );
    });

    it('counts the tokens of a call whose output was not valid, the repair included', async () => {
      // The first answer and its repair are both text, not JSON: 2 × 120 tokens spent on 4 pairs that stay unjudged.
      judge.behave = () => 'garbage';
      const out = await judgePairsWithModel(pairs.slice(0, 4), { baseUrl: judge.base, model: MODEL, concurrency: 1 });
      expect(judge.seen.length).toBe(2);
      const error = 'invalid_output: model_check: output still invalid after one repair (not JSON)';
      expect([...out.values()]).toEqual(Array(4).fill({ error, tokens: 60 }));
    });
  });
});
