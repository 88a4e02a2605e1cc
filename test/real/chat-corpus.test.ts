/**
 * The chat engines against real recorded answers (test/fixtures/real/chat, see PROVENANCE.md there):
 * CHATBOT_A (OpenAI Responses API, JSON and event streams), ANSWER_ENGINE_A (Perplexity Sonar) and
 * ASSISTANT_A (Gemini generateContent with Search grounding). A loopback server replays each
 * recorded body for the request the real adapter makes; the task runs through the service over
 * HTTP; text, sources and citation markers are scored against the values derived from the bodies
 * and those the source projects assert.
 *
 * Every connection goes through a local CONNECT proxy (the exit address) that lets only the replay
 * server through: Gemini's grounding redirect links (vertexaisearch.cloud.google.com) are refused,
 * so their resolution fails the same way on every machine and the adapter's documented fallback
 * (`https://<title>` for a domain-like title) is what is scored.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bagOfWordsF1,
  failureKind,
  MAX_ATTEMPTS,
  printTable,
  RESTING_KINDS,
  RETRIED_KINDS,
  readCorpusFile,
  restStrikes,
  startReplayServer,
  type ReplayServer,
  unlink,
} from './harness.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

type Engine = 'CHATBOT_A' | 'ANSWER_ENGINE_A' | 'ASSISTANT_A';
interface Source {
  position: number;
  url: string;
  label: string;
}
interface Case {
  id: string;
  engine: Engine;
  file: string;
  status: number;
  contentType: string;
  /** Recorded response headers replayed with the body (rate-limit state, Retry-After). */
  headers?: Record<string, string>;
  payload: { prompt: string };
  /** A streamed error's JSON-body twin: the case whose recorded body carries the same error object. */
  bodyTwin?: string;
  expect: {
    code: string;
    kind?: string;
    /** Upstream calls the task makes (default: one, or every attempt for a kind that is retried). */
    calls?: number;
    /** Whether each attempt rests the exit address and account (default: by kind, see COOLED). */
    cooldown?: boolean;
    text?: string;
    sources?: Array<{ url: string; label: string; resolution?: string }>;
    /** Responses: each cited span (tracking tag removed) and the position its marker must carry. */
    markers?: Array<{ after: string; position?: number; positions?: number[] }>;
    /** Sonar: markers that point at a source. */
    markerCount?: number;
  };
  asserted?: {
    by: string;
    textContains?: string[];
    chunkCount?: number;
    firstLabel?: string;
    sourcesCount?: number;
    minSources?: number;
  };
}

const DIR = new URL('../fixtures/real/chat/', import.meta.url);
const { cases } = JSON.parse(readCorpusFile(new URL('cases.json', DIR)).toString('utf8')) as { cases: Case[] };

const ENDPOINT: Record<Engine, RegExp> = {
  CHATBOT_A: /^\/v1\/responses$/,
  ANSWER_ENGINE_A: /^\/chat\/completions$/,
  ASSISTANT_A: /^\/v1beta\/models\/[^/]+:generateContent$/,
};
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface ConnectProxy {
  url: string;
  refused: string[];
  close(): Promise<void>;
}

/** An HTTP CONNECT proxy that tunnels to `allowed` (host:port) only and answers 403 to anything else. */
async function startConnectProxy(allowed: string): Promise<ConnectProxy> {
  const refused: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    if (target !== allowed) {
      refused.push(target);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

interface Outcome {
  row: Record<string, string | number>;
  failures: string[];
}

/** The replay server, the CONNECT proxy in front of it, and a service whose three chat engines go through both. */
interface ChatRig {
  replay: ReplayServer;
  svc: RunningService;
  close(): Promise<void>;
}

async function startChatRig(
  answer: Parameters<typeof startReplayServer>[0],
  opts: { retryMaxMs: number; maxAttempts: number; logLines: string[] },
): Promise<ChatRig> {
  const replay = await startReplayServer(answer);
  const proxy = await startConnectProxy(new URL(replay.url).host);
  const config = writeConfig(tempDir(), {
    scheduler: { retryBaseMs: 20, retryMaxMs: opts.retryMaxMs, exitCooldownMs: 100, pollMs: 50 },
    engines: {
      CHATBOT_A: { mode: 'account', upstream: { baseUrl: replay.url, options: { model: 'gpt-5-mini' } } },
      ANSWER_ENGINE_A: { mode: 'api', upstream: { baseUrl: replay.url, apiKey: 'pplx-corpus-test-key' } },
      ASSISTANT_A: { mode: 'api', upstream: { baseUrl: replay.url, apiKey: 'gemini-corpus-test-key' } },
    },
    accounts: [{ id: 'corpus-openai-us', engine: 'CHATBOT_A', country: 'US', secret: 'sk-corpus-test-key' }],
    exitAddresses: [{ id: 'corpus-us', country: 'US', proxyUrl: proxy.url, maxConcurrent: 8 }],
  });
  const svc = await startService(
    {
      AEQ_SANDBOX: '0',
      AEQ_CONFIG: config,
      AEQ_ENGINE_MAX_ATTEMPTS: String(opts.maxAttempts),
      AEQ_ENGINE_TIMEOUT_MS: '15000',
    },
    { logLines: opts.logLines },
  );
  return {
    replay,
    svc,
    async close() {
      await svc.stop();
      await proxy.close();
      await replay.close();
    },
  };
}

describe('chat engines real-input corpus (OpenAI Responses, Perplexity Sonar, Gemini)', () => {
  let rig: ChatRig;
  let replay: ReplayServer;
  let svc: RunningService;
  let current: Case | null = null;
  const logLines: string[] = [];
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    rig = await startChatRig(
      ({ method, url }) => {
        if (!current || method !== 'POST' || !ENDPOINT[current.engine].test(url.replace(/\?.*$/, ''))) return undefined;
        return {
          status: current.status,
          headers: { ...current.headers, 'content-type': current.contentType },
          body: readCorpusFile(new URL(current.file, DIR)),
        };
      },
      { retryMaxMs: 100, maxAttempts: MAX_ATTEMPTS, logLines },
    );
    ({ replay, svc } = rig);
  });
  afterAll(async () => {
    if (outcomes.length > 0)
      printTable(
        'Chat engines corpus (recorded answers replayed through the real adapters)',
        outcomes.map((o) => o.row),
      );
    await rig?.close();
  });

  for (const c of cases) {
    it(`${c.engine} ${c.id}`, async () => {
      // Each case starts with rested resources (re-enabling clears rests), so its own rests can be counted.
      for (const pool of [svc.app.pools.exits, svc.app.pools.accounts])
        for (const r of pool.list()) pool.setDisabled(r.id, false);
      current = c;
      const seenBefore = replay.seen.length;
      const logsBefore = logLines.length;
      const include = c.engine === 'ASSISTANT_A' ? { rawResponse: true } : undefined;
      const view = await runTask(
        svc,
        { taskType: c.engine, payload: { prompt: c.payload.prompt, country: 'US', ...(include ? { include } : {}) } },
        20_000,
      );
      current = null;
      const failures: string[] = [];
      const code = view.task.status === 'COMPLETED' ? 'COMPLETED' : (String(view.error ?? '').split(':')[0] ?? '');
      const kind = failureKind(logLines.slice(logsBefore));
      const calls = replay.seen.length - seenBefore;
      const row: Record<string, string | number> = {
        engine: c.engine,
        case: c.id,
        calls,
        want: c.expect.code,
        got: code,
      };
      if (code !== c.expect.code) failures.push(`code ${code}, want ${c.expect.code}${kind ? ` (kind ${kind})` : ''}`);
      if (c.expect.code !== 'COMPLETED') {
        row.kind = `${kind ?? '-'}${kind === c.expect.kind ? '' : ` (want ${c.expect.kind})`}`;
        // Retried or not: the number of upstream calls; rested or not: the strikes on the exit address and the account.
        const wantCalls = c.expect.calls ?? (RETRIED_KINDS.has(c.expect.kind ?? '') ? MAX_ATTEMPTS : 1);
        if (calls !== wantCalls) failures.push(`${calls} upstream calls, want ${wantCalls}`);
        const rests = {
          exit: restStrikes(svc.app.pools.exits.list()),
          account: restStrikes(svc.app.pools.accounts.list()),
        };
        const wantRests = (c.expect.cooldown ?? RESTING_KINDS.has(c.expect.kind ?? '')) ? wantCalls : 0;
        row.rests = `${rests.exit}/${rests.account}`;
        if (rests.exit !== wantRests) failures.push(`exit address rested ${rests.exit} times, want ${wantRests}`);
        if (c.engine === 'CHATBOT_A' && rests.account !== wantRests)
          failures.push(`account rested ${rests.account} times, want ${wantRests}`);
      } else if (code === 'COMPLETED') {
        score(
          c,
          view.response as { text: string; markdown: string; sources: Source[]; rawResponse?: unknown },
          row,
          failures,
        );
        scoreSignals(c, view.response as AnswerView, row, failures);
      }
      // A provider key must never come back in a result or an error.
      if (/corpus-test-key/.test(JSON.stringify(view))) failures.push('the API key leaked into the task view');
      row.ok = failures.length === 0 ? 'yes' : 'NO';
      outcomes.push({ row, failures });
      expect(failures, failures.join('; ')).toEqual([]);
    });
  }

  it('ends every streamed error exactly as its JSON-body twin (code, kind, calls, rests)', () => {
    const twins = cases.filter((c) => c.bodyTwin !== undefined);
    expect(twins.length).toBeGreaterThan(0);
    const rowOf = (id: string | undefined) => outcomes.find((o) => o.row.case === id)?.row;
    for (const c of twins) {
      const streamed = rowOf(c.id);
      const body = rowOf(c.bodyTwin);
      expect(body, `${c.bodyTwin} ran`).toBeDefined();
      expect(streamed, `${c.id} ran`).toBeDefined();
      const seen = (r: Record<string, string | number> | undefined) => [r?.got, r?.kind, r?.calls, r?.rests];
      expect(seen(streamed), `${c.id} against ${c.bodyTwin}`).toEqual(seen(body));
    }
  });

  it('covers every input (the table above is the report)', () => {
    expect(outcomes.length).toBe(cases.length);
    expect(outcomes.filter((o) => o.failures.length > 0).map((o) => o.row.case)).toEqual([]);
  });
});

describe("the recorded Retry-After is honoured (dd-trace-py's 429, Retry-After: 20)", () => {
  const RECORDED_RETRY_AFTER_MS = 20_000;
  let rig: ChatRig;
  let replay: ReplayServer;
  let svc: RunningService;
  const logLines: string[] = [];
  const c = cases.find((x) => x.id === 'err-openai-429-rate-limit-rpm');

  beforeAll(async () => {
    if (!c) throw new Error('the dd-trace-py rate-limit case is missing from cases.json');
    rig = await startChatRig(
      () => ({
        status: c.status,
        headers: { ...c.headers, 'content-type': c.contentType },
        body: readCorpusFile(new URL(c.file, DIR)),
      }),
      // Our own backoff and rest are far shorter than the upstream's 20 s: only its header can make them that long.
      { retryMaxMs: 60_000, maxAttempts: 2, logLines },
    );
    ({ replay, svc } = rig);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('schedules the retry and rests the exit address and the account for at least the 20 s asked', async () => {
    const sent = await svc.call('POST', '/v1/async/task', {
      taskType: 'CHATBOT_A',
      payload: { prompt: c?.payload.prompt, country: 'US' },
    });
    expect(sent.status).toBe(202);
    // Waiting for a real outcome (the first attempt's answer), not stepping: the log says when it came.
    const deadline = Date.now() + 15_000;
    let scheduled: { time: string; retryAt: string } | undefined;
    while (!scheduled && Date.now() < deadline) {
      scheduled = logLines
        .map((l) => JSON.parse(l) as { msg?: string; time: string; retryAt?: string })
        .find((j) => j.msg === 'attempt failed, retry scheduled') as { time: string; retryAt: string } | undefined;
      if (!scheduled) await new Promise((r) => setTimeout(r, 50));
    }
    expect(scheduled, 'the first attempt failed and its retry was scheduled').toBeDefined();
    const waitMs = Date.parse(scheduled?.retryAt ?? '') - Date.parse(scheduled?.time ?? '');
    expect(waitMs).toBeGreaterThan(RECORDED_RETRY_AFTER_MS - 1_000);
    expect(waitMs).toBeLessThanOrEqual(RECORDED_RETRY_AFTER_MS);
    expect(replay.seen.length).toBe(1);
    const restLeft = (list: Array<{ cooldowns: Map<string, { until: number }> }>) =>
      Math.max(0, ...list.flatMap((r) => [...r.cooldowns.values()].map((x) => x.until - Date.now())));
    expect(restLeft(svc.app.pools.exits.list())).toBeGreaterThan(RECORDED_RETRY_AFTER_MS - 2_000);
    expect(restLeft(svc.app.pools.accounts.list())).toBeGreaterThan(RECORDED_RETRY_AFTER_MS - 2_000);
  });
});

interface AnswerView {
  sources: Source[];
  searchQueries: string[] | null;
  searchTriggered: boolean | null;
  retrievedSources: Array<{ url: string }> | null;
}

/**
 * The answer signals the recording itself holds, read straight from its JSON: OpenAI's `web_search_call` actions
 * (the final object of a stream), Gemini's `groundingMetadata`, Sonar's `search_results`.
 */
function recordedSignals(c: Case): { queries: string[] | null; triggered: boolean | null; listed: number | null } {
  const text = readCorpusFile(new URL(c.file, DIR)).toString('utf8');
  let body: Record<string, unknown>;
  if (c.contentType.includes('event-stream')) {
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { type?: string; response?: Record<string, unknown> });
    body = events.find((e) => e.type === 'response.completed')?.response ?? {};
  } else body = JSON.parse(text) as Record<string, unknown>;
  if (c.engine === 'CHATBOT_A') {
    const calls = (body.output as Array<{ type?: string; action?: { query?: string; queries?: string[] } }>).filter(
      (o) => o.type === 'web_search_call',
    );
    // A search action names its query, and newer models every query it ran (`queries`, the first repeated).
    const queries = calls.flatMap((o) => [...(o.action?.query ? [o.action.query] : []), ...(o.action?.queries ?? [])]);
    return { queries: [...new Set(queries)], triggered: calls.length > 0 ? true : null, listed: null };
  }
  if (c.engine === 'ASSISTANT_A') {
    const gm = (body.candidates as Array<{ groundingMetadata?: Record<string, unknown[]> }>)[0]?.groundingMetadata;
    const queries = (gm?.webSearchQueries ?? []) as string[];
    return { queries, triggered: queries.length > 0 || (gm?.groundingChunks ?? []).length > 0, listed: null };
  }
  // Sonar: it searched when it lists results or citations; the pages it lists are at most the larger list.
  const lists = [body.search_results, body.citations].filter((l): l is unknown[] => Array.isArray(l));
  if (lists.length === 0) return { queries: null, triggered: null, listed: null };
  return { queries: null, triggered: lists.some((l) => l.length > 0), listed: Math.max(...lists.map((l) => l.length)) };
}

/** The service's answer signals against the recording's own (docs/contract.md#answer-signals). */
function scoreSignals(c: Case, r: AnswerView, row: Record<string, string | number>, failures: string[]): void {
  const want = recordedSignals(c);
  row.searches = `${r.searchQueries?.length ?? '-'}/${want.queries?.length ?? '-'}`;
  if (JSON.stringify(r.searchQueries) !== JSON.stringify(want.queries))
    failures.push(`searchQueries ${JSON.stringify(r.searchQueries)}, want ${JSON.stringify(want.queries)}`);
  if (want.triggered !== null && r.searchTriggered !== want.triggered)
    failures.push(`searchTriggered ${r.searchTriggered}, want ${want.triggered}`);
  // Every page the engine listed is either cited or retrieved, never both.
  const retrieved = r.retrievedSources ?? [];
  row.retrieved = retrieved.length;
  if (retrieved.some((x) => r.sources.some((s) => s.url === x.url))) failures.push('a cited source is also retrieved');
  if (want.listed !== null && r.sources.length + retrieved.length > want.listed)
    failures.push(`${r.sources.length} cited + ${retrieved.length} retrieved, more than the ${want.listed} listed`);
}

/** The Markdown with its `[n]` marker runs taken out, and which run stood at each offset of what is left. */
function withoutMarkers(md: string): { plain: string; runAt: Map<number, string> } {
  const runAt = new Map<number, string>();
  let plain = '';
  let last = 0;
  for (const m of md.matchAll(/(?:\[\d+\])+/g)) {
    plain += md.slice(last, m.index);
    runAt.set(plain.length, m[0]);
    last = (m.index ?? 0) + m[0].length;
  }
  plain += md.slice(last);
  return { plain, runAt };
}

function score(
  c: Case,
  r: { text: string; markdown: string; sources: Source[]; rawResponse?: unknown },
  row: Record<string, string | number>,
  failures: string[],
): void {
  const e = c.expect;
  const want = e.sources ?? [];
  let urlOk = 0;
  let labelOk = 0;
  want.forEach((w, i) => {
    if (r.sources[i]?.url === w.url) urlOk++;
    if (r.sources[i]?.label === w.label) labelOk++;
  });
  row.sources = `${r.sources.length}/${want.length}`;
  row.urlAcc = want.length ? urlOk / want.length : 1;
  row.labelAcc = want.length ? labelOk / want.length : 1;
  if (r.sources.length !== want.length) failures.push(`${r.sources.length} sources, want ${want.length}`);
  if (urlOk !== want.length)
    failures.push(`source URLs right ${urlOk}/${want.length}: ${JSON.stringify(r.sources.map((s) => s.url))}`);
  if (labelOk !== want.length) failures.push(`source labels right ${labelOk}/${want.length}`);
  if (r.sources.some((s, i) => s.position !== i + 1)) failures.push('source positions are not 1..n');

  const f1 = bagOfWordsF1(unlink(e.text ?? ''), r.text);
  row.textF1 = f1.f1;
  if (f1.f1 < 0.97)
    failures.push(`text F1 ${f1.f1.toFixed(3)} (P ${f1.precision.toFixed(3)}, R ${f1.recall.toFixed(3)})`);
  if (/\[\d+\]/.test(r.text) && c.engine !== 'ASSISTANT_A') failures.push('citation markers left in text');

  // Markers: after the cited span, never inside a link target; no OpenAI tracking tag anywhere.
  // Spans may overlap (a longer span holds an earlier span's marker), so spans are looked up in the
  // Markdown without its marker runs, and the run found where the span ends is checked.
  const { plain, runAt } = withoutMarkers(r.markdown);
  let markersOk = 0;
  const markers = e.markers ?? [];
  for (const m of markers) {
    const positions = m.positions ?? (m.position !== undefined ? [m.position] : []);
    const ends = [...plain.matchAll(new RegExp(escapeRe(m.after), 'g'))].map((x) => (x.index ?? 0) + m.after.length);
    if (ends.some((end) => positions.every((p) => (runAt.get(end) ?? '').includes(`[${p}]`)))) markersOk++;
  }
  if (markers.length > 0) {
    row.markers = `${markersOk}/${markers.length}`;
    if (markersOk !== markers.length) failures.push(`markers after their cited spans ${markersOk}/${markers.length}`);
  }
  if (e.markerCount !== undefined) {
    const got = (r.markdown.match(/\[\d+\]/g) ?? []).length;
    row.markers = `${got}/${e.markerCount}`;
    if (got !== e.markerCount) failures.push(`${got} markers, want ${e.markerCount}`);
    const beyond = (r.markdown.match(/\[(\d+)\]/g) ?? [])
      .map((x) => Number(x.slice(1, -1)))
      .filter((n) => n < 1 || n > r.sources.length);
    if (beyond.length > 0) failures.push(`markers past the sources: ${beyond.join(',')}`);
  }
  if (/\]\([^)\s]*\[\d+\][^)]*\)/.test(r.markdown)) failures.push('a marker sits inside a link target');
  if (/utm_source=openai/.test(JSON.stringify([r.text, r.markdown, r.sources])))
    failures.push('utm_source=openai kept');

  const raw = r.rawResponse as { groundingChunks?: Array<{ resolution?: string }> } | undefined;
  if (raw?.groundingChunks) row.resolution = raw.groundingChunks.map((g) => (g.resolution ?? '-')[0]).join('');
  const a = c.asserted;
  if (!a) return;
  const checks: Array<[boolean, string]> = [];
  for (const t of a.textContains ?? []) checks.push([r.text.includes(t), `text contains "${t}"`]);
  if (a.chunkCount !== undefined)
    checks.push([raw?.groundingChunks?.length === a.chunkCount, `${a.chunkCount} grounding chunks`]);
  if (a.firstLabel !== undefined)
    checks.push([r.sources[0]?.label === a.firstLabel, `first source label ${a.firstLabel}`]);
  if (a.sourcesCount !== undefined) checks.push([r.sources.length === a.sourcesCount, `${a.sourcesCount} sources`]);
  if (a.minSources !== undefined)
    checks.push([
      r.sources.length >= a.minSources && r.sources.every((s) => /^https?:\/\//.test(s.url)),
      `at least ${a.minSources} source with a URL`,
    ]);
  row.asserted = `${checks.filter(([p]) => p).length}/${checks.length}`;
  for (const [pass, what] of checks) if (!pass) failures.push(`asserted by the source: ${what}`);
}
