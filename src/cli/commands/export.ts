import type { AeqClient, ListedTask, TaskStatus } from '@aeq/client';
import { csvRecord } from '../../text/csv.js';

/**
 * The CSV's columns. The first eight are those of the first version, in their place (scripts read them by name or
 * position); `type` is the engine (the task type). What was asked and the region come from `include=request`; the
 * monitor and the brand's position from the saved results of the account's completed monitor runs; the failure
 * columns from the polling view's `failure`. Tasks carry no sample index, so there is no sample column.
 */
const COLUMNS = [
  'created_at',
  'task_id',
  'type',
  'status',
  'idempotency_key',
  'answer',
  'cited_urls',
  'error',
  'prompt',
  'country',
  'source_count',
  'monitor',
  'position',
  'failure_code',
  'failure_origin',
  'failure_host',
  'attempts',
];

/** A task's place in a monitor run: the monitor's name and the brand's rank by first mention (null: not named). */
interface MonitorPlace {
  monitor: string;
  position: number | null;
}

/**
 * Every task of the account created since `since`, page after page, with its result: as JSONL (the polling views)
 * or a flat CSV. Returns how many were written.
 */
export async function exportTasks(
  client: AeqClient,
  o: { since: string; format: 'csv' | 'jsonl'; status?: TaskStatus; text?: string },
  out: NodeJS.WritableStream,
): Promise<number> {
  let cursor: string | undefined;
  let n = 0;
  const places = o.format === 'csv' ? await monitorPlaces(client, o.since) : new Map<string, MonitorPlace>();
  if (o.format === 'csv') out.write(csvRecord(COLUMNS));
  do {
    const page = await client.tasks({
      since: o.since,
      // Pages of 100 with their results: a page stays a few megabytes even when answers are long.
      limit: 100,
      includeResult: true,
      // What was asked and where, for the CSV's prompt and country; the JSONL keeps the polling views as they are.
      includeRequest: o.format === 'csv',
      ...(o.status ? { status: o.status } : {}),
      ...(o.text ? { q: o.text } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const t of page.tasks ?? []) {
      out.write(o.format === 'jsonl' ? `${JSON.stringify(t)}\n` : csvRow(t, places));
      n++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return n;
}

/**
 * The tasks of the account's monitor runs created since `since`, by task id. Only a completed run has saved results
 * (and with them the brand's position), so a task of a run still going has no place yet.
 */
async function monitorPlaces(client: AeqClient, since: string): Promise<Map<string, MonitorPlace>> {
  const places = new Map<string, MonitorPlace>();
  let cursor: string | undefined;
  do {
    const page = await client.monitors({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const m of page.monitors ?? []) {
      if (!m.id) continue;
      // 100 runs reach back further than the 24 hours tasks are kept, unless runs were started by hand that often.
      const { runs } = await client.monitorRuns(m.id, { limit: 100, include: 'results' });
      for (const run of runs ?? []) {
        if ((run.createdAt ?? '') < since) continue;
        for (const r of run.results ?? [])
          if (r.taskId) places.set(r.taskId, { monitor: m.name ?? m.id, position: r.position ?? null });
      }
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return places;
}

/** What a task asked, in words: its prompt, query, page address or other addressing member. */
function askedOf(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const p = payload as Record<string, unknown>;
  for (const k of ['prompt', 'query', 'seed', 'url', 'community', 'user'])
    if (typeof p[k] === 'string') return p[k] as string;
  return '';
}

function csvRow(t: ListedTask, places: ReadonlyMap<string, MonitorPlace>): string {
  const r = t.response as { text?: unknown; sources?: Array<{ url?: unknown }> } | undefined;
  const sources = Array.isArray(r?.sources) ? r.sources : [];
  const urls = sources.map((s) => s.url).filter((u) => typeof u === 'string');
  const place = t.task?.id ? places.get(t.task.id) : undefined;
  const f = t.failure;
  return csvRecord([
    t.task?.createdAt ?? '',
    t.task?.id ?? '',
    t.task?.taskType ?? '',
    t.task?.status ?? '',
    t.task?.idempotencyKey ?? '',
    typeof r?.text === 'string' ? r.text : '',
    urls.join(' '),
    t.error ?? '',
    askedOf(t.request?.payload),
    t.request?.country ?? '',
    r ? sources.length : '',
    place?.monitor ?? '',
    place?.position ?? '',
    f?.code ?? '',
    f?.origin ?? '',
    f?.upstreamHost ?? '',
    f ? f.attempts : '',
  ]);
}

/** How many times a broken bulk download is taken up again from its last whole row. */
const BULK_RESUMES = 5;

/**
 * `GET /v1/export` (docs/exports.md) written out as it streams. JSONL and CSV go out in whole rows: when the
 * connection breaks, the rows written so far stay, and the rest is asked for after the last task id written (the
 * export's cursor), up to BULK_RESUMES times. Parquet has its footer at the end, so a broken Parquet download is
 * started again. Returns the rows written (null for Parquet, whose count is in its footer).
 */
export async function bulkExport(
  client: AeqClient,
  o: { since: string; format: 'jsonl' | 'csv' | 'parquet'; status?: string },
  out: NodeJS.WritableStream,
  note: (message: string) => void,
): Promise<number | null> {
  let after: string | undefined;
  let rows = 0;
  let headerWritten = false;
  for (let attempt = 0; ; attempt++) {
    const pending: Uint8Array[] = [];
    const records = new RecordSplitter();
    let first = true;
    try {
      const body = await client.exportStream({ ...o, ...(after ? { after } : {}) });
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        if (o.format === 'parquet') {
          pending.push(chunk);
          continue;
        }
        for (const record of records.push(Buffer.from(chunk).toString('utf8'), o.format === 'csv')) {
          // A CSV download starts with its header: written once, whatever the resumes.
          if (o.format === 'csv' && first) {
            first = false;
            if (headerWritten) continue;
            headerWritten = true;
            out.write(record);
            continue;
          }
          const id = o.format === 'jsonl' ? jsonTaskId(record) : /^[0-9a-f-]{36}(?=,)/.exec(record)?.[0];
          if (id) after = id;
          rows++;
          out.write(record);
        }
      }
      if (o.format !== 'parquet') return rows;
      for (const chunk of pending) out.write(chunk);
      return null;
    } catch (e) {
      if (attempt >= BULK_RESUMES || (e as { status?: number }).status) throw e;
      note(`the download broke (${(e as Error).message}); taking it up again${after ? ` after ${after}` : ''}`);
    }
  }
}

function jsonTaskId(line: string): string | undefined {
  try {
    return (JSON.parse(line) as { task_id?: string }).task_id;
  } catch {
    return undefined;
  }
}

/**
 * Cuts streamed text into whole records, each with its line end: a JSONL record ends at any newline, a CSV record at
 * a newline outside quotes (a quote inside a cell is doubled, so counting quotes tells inside from outside). One pass
 * over each chunk: the quote state carries over from chunk to chunk.
 */
class RecordSplitter {
  private tail = '';
  private inQuotes = false;
  /** Where the scan of `tail` stopped, so a chunk is never scanned twice. */
  private scanned = 0;

  push(text: string, csv: boolean): string[] {
    this.tail += text;
    const out: string[] = [];
    let start = 0;
    for (let i = this.scanned; i < this.tail.length; i++) {
      const ch = this.tail.charCodeAt(i);
      if (csv && ch === 34) this.inQuotes = !this.inQuotes;
      else if (ch === 10 && !this.inQuotes) {
        out.push(this.tail.slice(start, i + 1));
        start = i + 1;
      }
    }
    this.tail = this.tail.slice(start);
    this.scanned = this.tail.length;
    return out;
  }
}
