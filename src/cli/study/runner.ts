import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AeqError, type AeqClient, type BatchItemResult, type Polling } from '@aeq/client';
import { mapLimit } from '../../analysis/common/async.js';
import { StudyError } from '../errors.js';
import { fileHash, formatOf, InputError, readPrompts } from './input.js';
import { Journal } from './journal.js';
import { envelopeOf, planStudy, type StudyItem } from './plan.js';
import { progressView, type StudyCounts } from './progress.js';
import { ResultsFile, type ResultLine } from './results-file.js';

export interface StudyOptions {
  input: string;
  format?: string;
  engines: string[];
  countries: string[];
  /** JSONL results; the journal of submissions sits beside it (`<out>.journal`). */
  out: string;
  csv: string | null;
  /** Items per batch request, 1 to 500. */
  batchSize: number;
  pollIntervalMs: number;
  progressEveryMs: number;
}

export interface StudyReport {
  items: StudyItem[];
  results: Map<string, ResultLine>;
  /** Results already in the output when this run started (a resume). */
  resumed: number;
  /** Items this run submitted (none that an earlier run had). */
  submitted: number;
  /** Items the service refused for now (REGION_UNAVAILABLE, ENQUEUE_ERROR), by code: a re-run submits them. */
  deferred: Map<string, number>;
  elapsedMs: number;
  interrupted: boolean;
}

/** GETs of finished tasks in flight at once. */
const FETCH_CONCURRENCY = 8;
const TERMINAL = new Set(['COMPLETED', 'FAILED']);
/** Refusals the contract calls temporary: not results, so a later run submits the items again. */
const REFUSED_FOR_NOW = new Set(['REGION_UNAVAILABLE', 'ENQUEUE_ERROR']);
/** Tasks are kept 24 hours: a task the service does not know is gone only if it was submitted longer ago. */
const RETENTION_MS = 24 * 3600_000;
/** Polls that fail in a row (no answer, or a 5xx) before the run gives up; a re-run resumes. */
const POLL_FAILURES_TOLERATED = 5;

/** A study read and planned: what `runStudy` needs, known before any service is contacted. */
export interface PlannedStudy {
  o: StudyOptions;
  items: StudyItem[];
}

/** Reads the prompts and plans the tasks; any mistake in the file or the options is an InputError here. */
export function planFromFile(o: StudyOptions): PlannedStudy {
  let content: Buffer;
  try {
    content = fs.readFileSync(o.input);
  } catch (e) {
    throw new InputError(`${o.input}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : e}`);
  }
  const format = formatOf(o.input, o.format);
  const rows = readPrompts(path.basename(o.input), content.toString('utf8'), format);
  const hash = fileHash(Buffer.concat([Buffer.from(`${format}\0`), content]));
  return { o, items: planStudy(rows, { fileHash: hash, engines: o.engines, countries: o.countries }) };
}

/**
 * Runs a study: submits what no earlier run submitted (in batches, with the study's idempotency keys), follows the
 * batches until every task has ended, and writes each result as it ends. Aborting `signal` stops it cleanly; the
 * same command later resumes from the journal and the results file.
 */
export async function runStudy(
  { o, items }: PlannedStudy,
  io: { client: AeqClient; progress: NodeJS.WriteStream; signal: AbortSignal },
): Promise<StudyReport> {
  const started = Date.now();
  const byKey = new Map(items.map((i) => [i.key, i]));
  const lock = StudyLock.take(`${o.out}.lock`);
  try {
    const { file, done } = ResultsFile.open(o.out, o.csv);
    const journal = Journal.open(`${o.out}.journal`);
    try {
      const foreign = [...done.keys(), ...journal.entries.flatMap((e) => e.tasks.map(([k]) => k))].find(
        (k) => !byKey.has(k),
      );
      if (foreign)
        throw new InputError(
          `${o.out} holds results of another study (another file, or other engines or countries); ` +
            'give another --out, or remove it and its .journal to start again',
        );
      const study = new StudyState(items, done, journal, file);
      const report: StudyReport = {
        items,
        results: done,
        resumed: done.size,
        submitted: 0,
        deferred: study.deferred,
        elapsedMs: 0,
        interrupted: false,
      };
      const view = progressView(io.progress, { everyMs: o.progressEveryMs });
      const tick = () => view.update(study.counts());
      try {
        report.submitted = await study.submitMissing(io.client, o.batchSize, io.signal, tick);
        await study.follow(io.client, o.pollIntervalMs, io.signal, tick, io.progress);
      } catch (e) {
        if (!io.signal.aborted) {
          view.abandon();
          throw e;
        }
        report.interrupted = true;
      }
      view.stop(study.counts());
      report.elapsedMs = Date.now() - started;
      return report;
    } finally {
      file.close();
      journal.close();
    }
  } finally {
    lock.release();
  }
}

/** One run at a time per results file: two would write the same lines twice. A dead run's lock is taken over. */
class StudyLock {
  private constructor(private readonly file: string) {}

  static take(file: string): StudyLock {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
        return new StudyLock(file);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') throw new InputError(`${path.dirname(file)}: no such folder for the results`);
        if (code !== 'EEXIST') throw new InputError(`${file}: ${(e as Error).message}`);
        const pid = Number(fs.readFileSync(file, 'utf8'));
        if (Number.isInteger(pid) && pid > 0 && alive(pid))
          throw new InputError(`another aeq run (pid ${pid}) is writing these results; wait for it or stop it`);
        fs.rmSync(file, { force: true });
      }
    }
    throw new InputError(`${file}: could not take the lock`);
  }

  release(): void {
    fs.rmSync(this.file, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The study's tasks as this run knows them: finished (written), in flight (by task id), or not yet submitted. */
class StudyState {
  private readonly inFlight = new Map<string, InFlight>();
  readonly deferred = new Map<string, number>();

  constructor(
    private readonly items: StudyItem[],
    private readonly done: Map<string, ResultLine>,
    private readonly journal: Journal,
    private readonly file: ResultsFile,
  ) {
    const byKey = new Map(items.map((i) => [i.key, i]));
    for (const entry of journal.entries)
      for (const [key, taskId] of entry.tasks) {
        const item = byKey.get(key);
        if (item && !done.has(key))
          this.inFlight.set(taskId, { item, batch: entry.batch, status: 'QUEUED', submittedAt: entry.at });
      }
  }

  counts(): StudyCounts {
    const c = { total: this.items.length, submitted: 0, queued: 0, processing: 0, completed: 0, failed: 0 };
    for (const r of this.done.values()) {
      if (r.status === 'COMPLETED') c.completed++;
      else c.failed++;
    }
    for (const t of this.inFlight.values()) {
      if (t.status === 'PROCESSING') c.processing++;
      else c.queued++;
    }
    c.submitted = this.done.size + this.inFlight.size;
    return c;
  }

  /** Submits the items with no task yet, a batch at a time, each batch journaled before the next. */
  async submitMissing(client: AeqClient, batchSize: number, signal: AbortSignal, tick: () => void): Promise<number> {
    const submitted = new Set([...this.inFlight.values()].map((t) => t.item.key));
    const missing = this.items.filter((i) => !this.done.has(i.key) && !submitted.has(i.key));
    tick();
    for (let at = 0; at < missing.length; at += batchSize) {
      signal.throwIfAborted();
      const chunk = missing.slice(at, at + batchSize);
      const { results, batches } = await client.submitBatch(chunk.map(envelopeOf));
      const batch = batches.length === 1 ? (batches[0]?.id ?? null) : null;
      const tasks: Array<[string, string]> = [];
      const submittedAt = Date.now();
      for (const r of results) {
        const item = chunk[r.index ?? -1];
        if (!item) continue;
        const taskId = taskIdOf(r);
        const code = r.error?.code ?? 'UNKNOWN';
        if (taskId) {
          tasks.push([item.key, taskId]);
          this.inFlight.set(taskId, { item, batch, status: 'QUEUED', submittedAt });
        } else if (REFUSED_FOR_NOW.has(code)) this.deferred.set(code, (this.deferred.get(code) ?? 0) + 1);
        else this.finish(item, { status: 'REJECTED', error: errorText(r.error) });
      }
      this.journal.append({ batch, at: submittedAt, tasks });
      tick();
    }
    return missing.length;
  }

  /**
   * Polls until nothing is in flight. A poll that gets no answer or a 5xx is tried again after a pause, up to
   * POLL_FAILURES_TOLERATED in a row (an unattended study rides out a restart of the service).
   */
  async follow(
    client: AeqClient,
    pollIntervalMs: number,
    signal: AbortSignal,
    tick: () => void,
    log: NodeJS.WritableStream,
  ): Promise<void> {
    const goneBatches = new Set<string>();
    let failures = 0;
    while (this.inFlight.size > 0) {
      signal.throwIfAborted();
      try {
        await this.pollOnce(client, goneBatches);
        failures = 0;
      } catch (e) {
        const transient = e instanceof AeqError && (e.status === 0 || e.status >= 500);
        if (!transient || ++failures > POLL_FAILURES_TOLERATED) throw e;
        const pause = Math.min(30_000, pollIntervalMs * 2 ** failures);
        log.write(`aeq run: poll failed (${e.code}: ${e.message}); trying again in ${Math.round(pause / 1000)} s\n`);
        await delay(pause, undefined, { signal });
        continue;
      }
      tick();
      if (this.inFlight.size > 0) await delay(pollIntervalMs, undefined, { signal });
    }
  }

  /** One round: the batches (one request each) say which tasks ended; those and tasks outside any batch are read. */
  private async pollOnce(client: AeqClient, goneBatches: Set<string>): Promise<void> {
    const ended: string[] = [];
    const seen = new Set<string>();
    const batches = new Set([...this.inFlight.values()].map((t) => t.batch));
    for (const batch of batches) {
      if (batch === null || goneBatches.has(batch)) continue;
      try {
        for await (const item of batchItems(client, batch)) {
          const t = item.taskId ? this.inFlight.get(item.taskId) : undefined;
          if (!t || !item.taskId || !item.status) continue;
          seen.add(item.taskId);
          t.status = item.status;
          if (TERMINAL.has(item.status)) ended.push(item.taskId);
        }
      } catch (e) {
        if (!(e instanceof AeqError && e.code === 'RESOURCE_NOT_FOUND')) throw e;
        goneBatches.add(batch);
      }
    }
    // Tasks no live batch lists (answered as duplicates, or their batch is gone): asked one by one.
    const alone = [...this.inFlight.keys()].filter((id) => !seen.has(id));
    await mapLimit([...alone, ...ended], FETCH_CONCURRENCY, async (id) => this.record(id, await fetchView(client, id)));
  }

  /** Writes a task's result if it has ended (or is gone), else notes where it is. */
  private record(taskId: string, view: Polling | null): void {
    const t = this.inFlight.get(taskId);
    if (!t) return;
    if (view === null) {
      // Unknown to the service: gone if it is older than the retention; otherwise this is not the service (or the
      // account) that took it, and writing it off would lose a result that exists.
      if (Date.now() - t.submittedAt < RETENTION_MS)
        throw new StudyError(
          `the service does not know task ${taskId}, ` +
            `submitted by this study at ${new Date(t.submittedAt).toISOString()}; ` +
            'is it the same service and account as then (--server or AEQ_URL, AEQ_API_KEY, --sandbox-dir)?',
        );
      this.inFlight.delete(taskId);
      this.finish(t.item, {
        status: 'MISSING',
        task: { id: taskId },
        error: 'RESOURCE_NOT_FOUND: the service no longer has this task (past its 24-hour retention)',
      });
      return;
    }
    const status = view.task?.status ?? '';
    if (!TERMINAL.has(status)) {
      t.status = status || t.status;
      return;
    }
    this.inFlight.delete(taskId);
    this.finish(t.item, { ...(view as Omit<ResultLine, 'study' | 'status'>), status: status as 'COMPLETED' });
  }

  private finish(item: StudyItem, r: Omit<ResultLine, 'study'>): void {
    const { key, row, prompt, engine, country } = item;
    const { status, ...rest } = r;
    const line: ResultLine = { study: { key, row, prompt, engine, country }, status, ...rest };
    this.file.write(line);
    this.done.set(key, line);
  }
}

interface InFlight {
  item: StudyItem;
  batch: string | null;
  status: string;
  submittedAt: number;
}

/** A batch's items, every page. */
async function* batchItems(client: AeqClient, batch: string) {
  let cursor: string | undefined;
  do {
    const page = await client.batch(batch, { limit: 500, ...(cursor ? { cursor } : {}) });
    yield* page.items ?? [];
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** A task's polling view, or null when the service no longer has it. */
async function fetchView(client: AeqClient, id: string): Promise<Polling | null> {
  try {
    return await client.get(id);
  } catch (e) {
    if (e instanceof AeqError && e.code === 'RESOURCE_NOT_FOUND') return null;
    throw e;
  }
}

/** The task an accepted item made, or the one a duplicate key already had. */
function taskIdOf(r: BatchItemResult): string | null {
  if (r.success && r.task?.id) return r.task.id;
  const details = r.error?.details as { id?: unknown } | undefined;
  if (r.error?.code === 'RESOURCE_ALREADY_EXISTS' && typeof details?.id === 'string') return details.id;
  return null;
}

function errorText(e: { code?: string; message?: string } | undefined): string {
  return `${e?.code ?? 'UNKNOWN'}: ${e?.message ?? 'refused'}`;
}
