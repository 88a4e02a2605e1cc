import { AeqError } from './errors.js';
import type {
  Accepted,
  BatchAnswer,
  BatchItemResult,
  BatchList,
  BatchStatus,
  ArtifactList,
  DeliveryLog,
  Envelope,
  ListedTasks,
  MonitorAnswer,
  MonitorCreate,
  MonitorList,
  MonitorMetrics,
  MonitorDiscovered,
  MonitorSignals,
  MonitorPatch,
  MonitorRunStarted,
  MonitorRuns,
  Polling,
  PromptResearchRequest,
  SourceInfluenceRequest,
  TaskRequest,
  TaskStatus,
  Usage,
  WebhookSecret,
} from './types.js';

/** The contract's batch bounds: 500 items, 8 MiB of body. */
export const BATCH_MAX_ITEMS = 500;
export const BATCH_MAX_BYTES = 8 * 1024 * 1024;
/** Tasks are kept 24 hours: waiting longer would only find them gone. */
const RETENTION_MS = 24 * 3600_000;
const TERMINAL: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED']);

export interface ClientOptions {
  /** The service, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  apiKey: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

export interface WaitProgress {
  total: number;
  done: number;
  counts: Record<TaskStatus, number>;
}

/** Which page of the account's tasks `tasks()` reads. */
export interface TasksQuery {
  since: string;
  until?: string;
  status?: TaskStatus;
  /** Only this task type (canonical name or alias). */
  engine?: string;
  /** Only tasks whose request text (prompt, query, url, community, seed) contains this, ignoring case. */
  q?: string;
  /** `asc` (oldest first, the default) or `desc` (newest first). */
  order?: 'asc' | 'desc';
  /** 1 to 500, default 100. */
  limit?: number;
  cursor?: string;
  includeResult?: boolean;
  /** Each task with its `request` (the payload as submitted). */
  includeRequest?: boolean;
}

export interface WaitOptions {
  onProgress?: (p: WaitProgress) => void;
  signal?: AbortSignal;
  /** The first wait between polls of a task (ms); it grows by half each time, up to `maxPollInterval`. Default 500. */
  pollInterval?: number;
  /** The longest wait between polls (ms). Default 15 000. */
  maxPollInterval?: number;
  /** Give up after this long (ms); at most the 24-hour retention, which is the default. */
  timeoutMs?: number;
}

/**
 * The aeq client: every call of the HTTP contract, typed from the service's own OpenAPI document. A request the
 * service refuses throws an `AeqError` (its code, status and details); a task that ended FAILED is an answer like
 * any other (`task.status`, `error`).
 */
export class AeqClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly opts: ClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.doFetch = opts.fetch ?? fetch;
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${this.opts.apiKey}` } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    let res: Response;
    try {
      res = await this.doFetch(this.base + path, init);
    } catch (e) {
      // No answer at all (refused, reset, DNS): typed like a refusal, so callers branch on one error class.
      const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
      const why = cause?.code ?? cause?.message ?? (e as Error).message;
      throw new AeqError('NETWORK_ERROR', 0, `${method} ${this.base}${path}: ${String(why)}`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      // not JSON: reported below if the status says it failed
    }
    if (!res.ok) throw AeqError.fromAnswer(res.status, parsed);
    return parsed as T;
  }

  /** One task; 202 with its record (QUEUED). */
  submit(envelope: Envelope): Promise<Accepted> {
    return this.request('POST', '/v1/async/task', envelope);
  }

  /**
   * Any number of tasks, in as many batches as the contract's bounds need (500 items, 8 MiB), one after another.
   * The results come back in the order of `items`, each with its index there; `batches` are the batch objects made.
   */
  async submitBatch(
    items: Envelope[],
    o: { webhook?: string } = {},
  ): Promise<{ results: BatchItemResult[]; batches: Array<{ id: string; size: number }> }> {
    const results: BatchItemResult[] = [];
    const batches: Array<{ id: string; size: number }> = [];
    const query = o.webhook ? `?webhook=${encodeURIComponent(o.webhook)}` : '';
    for (const chunk of chunks(items)) {
      const answer = await this.request<BatchAnswer>('POST', `/v1/async/task/batch${query}`, chunk.body);
      if (answer.batch?.id) batches.push({ id: answer.batch.id, size: answer.batch.size ?? chunk.count });
      for (const r of answer.results ?? []) results.push({ ...r, index: chunk.first + (r.index ?? 0) });
    }
    return { results, batches };
  }

  /** A task's polling view; 404 `RESOURCE_NOT_FOUND` (an AeqError) when unknown or past its retention. */
  get(id: string): Promise<Polling> {
    return this.request('GET', `/v1/async/task/${encodeURIComponent(id)}`);
  }

  /**
   * Polls until every task is terminal, backing off per task, and resolves with each one's last polling view (null
   * for a task the service no longer knows: past its retention). Aborting `signal` rejects with its reason.
   */
  async waitFor(ids: string[], o: WaitOptions = {}): Promise<Map<string, Polling | null>> {
    const first = o.pollInterval ?? 500;
    const deadline = Date.now() + Math.min(o.timeoutMs ?? RETENTION_MS, RETENTION_MS);
    const out = new Map<string, Polling | null>();
    const last = new Map<string, TaskStatus>();
    let pending = [...new Set(ids)];
    let wait = first;
    for (;;) {
      o.signal?.throwIfAborted();
      const still: string[] = [];
      for (const id of pending) {
        try {
          const view = await this.get(id);
          const status = view.task?.status;
          if (status) last.set(id, status);
          if (status && TERMINAL.has(status)) out.set(id, view);
          else still.push(id);
        } catch (e) {
          if (e instanceof AeqError && e.code === 'RESOURCE_NOT_FOUND') out.set(id, null);
          else throw e;
        }
      }
      pending = still;
      o.onProgress?.(progressOf(ids.length, out.size, last));
      if (pending.length === 0) return out;
      if (Date.now() + wait > deadline)
        throw new AeqError('WAIT_TIMEOUT', 0, `${pending.length} tasks not terminal in time`);
      await sleep(wait, o.signal);
      wait = Math.min(o.maxPollInterval ?? 15_000, Math.round(wait * 1.5));
    }
  }

  sourceInfluence(request: SourceInfluenceRequest): Promise<Accepted> {
    return this.request('POST', '/v1/source-influence', request);
  }

  promptResearch(request: PromptResearchRequest): Promise<Accepted> {
    return this.request('POST', '/v1/prompt-research', request);
  }

  /** A batch's progress and one page of its items (`cursor` from the previous page's `nextCursor`). */
  batch(id: string, page: { limit?: number; cursor?: string; includeRequest?: boolean } = {}): Promise<BatchStatus> {
    const q = new URLSearchParams();
    if (page.limit !== undefined) q.set('limit', String(page.limit));
    if (page.cursor !== undefined) q.set('cursor', page.cursor);
    if (page.includeRequest) q.set('include', 'request');
    const qs = q.size > 0 ? `?${q}` : '';
    return this.request('GET', `/v1/async/batch/${encodeURIComponent(id)}${qs}`);
  }

  /** What a task asked: its payload as submitted, its region, webhook host and attempts. */
  taskRequest(id: string): Promise<TaskRequest> {
    return this.request('GET', `/v1/async/task/${encodeURIComponent(id)}/request`);
  }

  /** A task's webhook delivery log. */
  /** The artefacts a task kept (`include.artifacts`): each with its kind, content type, size, SHA-256 and URL. */
  artifacts(taskId: string): Promise<ArtifactList> {
    return this.request('GET', `/v1/async/task/${encodeURIComponent(taskId)}/artifacts`);
  }

  /**
   * One artefact's bytes (its name from `artifacts()`), whole or one byte range (`{start, end}`, both included). A
   * refusal is an AeqError as for every call (ARTIFACT_NOT_FOUND, RANGE_NOT_SATISFIABLE, …).
   */
  async artifact(taskId: string, name: string, range?: { start: number; end: number }): Promise<Uint8Array> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.apiKey}` };
    if (range) headers.range = `bytes=${range.start}-${range.end}`;
    const path = `/v1/async/task/${encodeURIComponent(taskId)}/artifacts/${encodeURIComponent(name)}`;
    let res: Response;
    try {
      res = await this.doFetch(this.base + path, { headers });
    } catch (e) {
      throw new AeqError('NETWORK_ERROR', 0, `GET ${this.base}${path}: ${String((e as Error).message)}`);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.ok) return bytes;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    } catch {
      // not JSON: the status alone says it failed
    }
    throw AeqError.fromAnswer(res.status, parsed);
  }

  /**
   * `GET /v1/export`: the account's tasks of a window as JSONL, CSV or Parquet, one flat column set (docs/exports.md).
   * The body comes as it streams: a caller writes it out chunk by chunk, so an export of any size is never held whole.
   */
  async exportStream(query: {
    since: string;
    until?: string;
    format?: 'jsonl' | 'csv' | 'parquet';
    after?: string;
    status?: string;
    engine?: string;
  }): Promise<ReadableStream<Uint8Array>> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
    const path = `/v1/export?${params.toString()}`;
    let res: Response;
    try {
      res = await this.doFetch(this.base + path, { headers: { authorization: `Bearer ${this.opts.apiKey}` } });
    } catch (e) {
      throw new AeqError('NETWORK_ERROR', 0, `GET ${this.base}/v1/export: ${String((e as Error).message)}`);
    }
    if (res.ok && res.body) return res.body;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(await res.text()) as unknown;
    } catch {
      // not JSON: the status alone says it failed
    }
    throw AeqError.fromAnswer(res.status, parsed);
  }

  deliveries(taskId: string): Promise<DeliveryLog> {
    return this.request('GET', `/v1/async/task/${encodeURIComponent(taskId)}/deliveries`);
  }

  /** Sends a finished task's webhook again (a new webhook-id). */
  redeliver(taskId: string): Promise<DeliveryLog> {
    return this.request('POST', `/v1/async/task/${encodeURIComponent(taskId)}/deliveries`);
  }

  /** The account's webhook signing secret (`whsec_…`, for verifyWebhook), made on its first use. */
  webhookSecret(): Promise<WebhookSecret> {
    return this.request('GET', '/v1/webhooks/secret');
  }

  /** A new webhook signing secret for the account; the replaced one (`previous`) signs too for 24 hours. */
  rotateWebhookSecret(): Promise<WebhookSecret> {
    return this.request('POST', '/v1/webhooks/secret/rotate');
  }

  /** The account's tasks finished and credits charged by day and engine (`from`, `to`: YYYY-MM-DD, UTC). */
  usage(range: { from?: string; to?: string } = {}): Promise<Usage> {
    const q = new URLSearchParams(Object.entries(range).filter((e): e is [string, string] => e[1] !== undefined));
    return this.request('GET', `/v1/usage${q.size > 0 ? `?${q}` : ''}`);
  }

  /**
   * One page of the account's tasks created at or after `since` (and before `until`; RFC 3339 times), oldest first
   * (newest first with `order: 'desc'`), of one `status` and task type (`engine`) when given.
   * Pass the answer's `nextCursor` as `cursor` for the next page; it is null on the last. `includeResult` adds each
   * COMPLETED task's `response` and each FAILED task's `error`. A `since` past the 24-hour retention reads as its start.
   */
  tasks(query: TasksQuery): Promise<ListedTasks> {
    const q = new URLSearchParams({ since: query.since });
    if (query.until !== undefined) q.set('until', query.until);
    if (query.status !== undefined) q.set('status', query.status);
    if (query.engine !== undefined) q.set('engine', query.engine);
    if (query.q !== undefined) q.set('q', query.q);
    if (query.order !== undefined) q.set('order', query.order);
    if (query.limit !== undefined) q.set('limit', String(query.limit));
    if (query.cursor !== undefined) q.set('cursor', query.cursor);
    const include = [query.includeResult ? 'result' : '', query.includeRequest ? 'request' : ''].filter(Boolean);
    if (include.length > 0) q.set('include', include.join(','));
    return this.request('GET', `/v1/async/tasks?${q}`);
  }

  /** One page of the account's batches within the retention, newest first, with their progress. */
  batches(page: { limit?: number; cursor?: string } = {}): Promise<BatchList> {
    return this.request('GET', `/v1/async/batches${query(page)}`);
  }

  /** Creates a visibility monitor (201 with its definition and next scheduled run). */
  createMonitor(definition: MonitorCreate): Promise<MonitorAnswer> {
    return this.request('POST', '/v1/monitors', definition);
  }

  /** One page of the account's monitors. */
  monitors(page: { limit?: number; cursor?: string } = {}): Promise<MonitorList> {
    return this.request('GET', `/v1/monitors${query(page)}`);
  }

  monitor(id: string): Promise<MonitorAnswer> {
    return this.request('GET', `/v1/monitors/${encodeURIComponent(id)}`);
  }

  /** Edits, pauses (`{status: 'paused'}`) or resumes a monitor. */
  updateMonitor(id: string, patch: MonitorPatch): Promise<MonitorAnswer> {
    return this.request('PATCH', `/v1/monitors/${encodeURIComponent(id)}`, patch);
  }

  /** Deletes a monitor and its runs. */
  async deleteMonitor(id: string): Promise<void> {
    await this.request('DELETE', `/v1/monitors/${encodeURIComponent(id)}`);
  }

  /** A monitor's runs, newest first, with their progress; `include: 'results'` adds each run's saved answers. */
  monitorRuns(id: string, o: { limit?: number; include?: 'results' } = {}): Promise<MonitorRuns> {
    return this.request('GET', `/v1/monitors/${encodeURIComponent(id)}/runs${query(o)}`);
  }

  /**
   * Runs a monitor now, outside its schedule (202 with the run); a run still open is 409
   * `MONITOR_RUN_IN_PROGRESS` (an `AeqError`).
   */
  runMonitorNow(id: string): Promise<MonitorRunStarted> {
    return this.request('POST', `/v1/monitors/${encodeURIComponent(id)}/runs`);
  }

  /** A monitor's visibility figures per run, engine and country, for runs scheduled in [from, to) (RFC 3339). */
  monitorMetrics(id: string, range: { from?: string; to?: string } = {}): Promise<MonitorMetrics> {
    return this.request('GET', `/v1/monitors/${encodeURIComponent(id)}/metrics${query(range)}`);
  }

  /** Names and domains a monitor's answers name or cite that it does not track, over its latest 30 runs. */
  monitorDiscovered(id: string, range: { from?: string; to?: string } = {}): Promise<MonitorDiscovered> {
    return this.request('GET', `/v1/monitors/${encodeURIComponent(id)}/discovered${query(range)}`);
  }

  /** Tracks one more competitor from the monitor's next run (409 `COMPETITOR_EXISTS` when it already does). */
  addMonitorCompetitor(
    id: string,
    brand: { name: string; aliases?: string[]; domains?: string[] },
  ): Promise<MonitorAnswer> {
    return this.request('POST', `/v1/monitors/${encodeURIComponent(id)}/competitors`, brand);
  }

  /** A monitor's signals (changes that held against their baseline), newest first; `from` keeps those still holding. */
  monitorSignals(id: string, range: { from?: string; to?: string } = {}): Promise<MonitorSignals> {
    return this.request('GET', `/v1/monitors/${encodeURIComponent(id)}/signals${query(range)}`);
  }
}

/** A query string of the defined members (`?a=1&b=x`), or nothing. */
function query(o: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined) q.set(k, String(v));
  return q.size > 0 ? `?${q}` : '';
}

/** Byte lengths without Node's Buffer: the client runs in browsers too (the dashboard). */
const utf8 = new TextEncoder();

/** Items cut into bodies within the contract's bounds, each with the index of its first item. */
function* chunks(items: Envelope[]): Generator<{ first: number; count: number; body: string }> {
  let first = 0;
  while (first < items.length) {
    const parts: string[] = [];
    let bytes = 2;
    while (first + parts.length < items.length && parts.length < BATCH_MAX_ITEMS) {
      const part = JSON.stringify(items[first + parts.length]);
      const size = utf8.encode(part).length + 1;
      if (parts.length > 0 && bytes + size > BATCH_MAX_BYTES) break;
      parts.push(part);
      bytes += size;
    }
    yield { first, count: parts.length, body: `[${parts.join(',')}]` };
    first += parts.length;
  }
}

function progressOf(total: number, done: number, last: Map<string, TaskStatus>): WaitProgress {
  const counts = { QUEUED: 0, PROCESSING: 0, COMPLETED: 0, FAILED: 0 } as Record<TaskStatus, number>;
  for (const s of last.values()) counts[s] = (counts[s] ?? 0) + 1;
  return { total, done, counts };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
