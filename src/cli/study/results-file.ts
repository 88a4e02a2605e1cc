import fs from 'node:fs';
import { csvRecord } from '../../text/csv.js';
import { listedProducts, listedQueries, listedUrls } from '../../export/answer-lists.js';
import { InputError } from './input.js';
import type { StudyItem } from './plan.js';

/** How a study task ended: the service's two terminal states, refused at submission, or gone past retention. */
type Outcome = 'COMPLETED' | 'FAILED' | 'REJECTED' | 'MISSING';

/** One line of the JSONL results: the study's coordinates, the outcome, and the task's whole polling view. */
export interface ResultLine {
  study: Omit<StudyItem, 'key'> & { key: string };
  status: Outcome;
  task?: { id?: string; status?: string } & Record<string, unknown>;
  credits?: unknown;
  response?: { text?: unknown; sources?: unknown } & Record<string, unknown>;
  /** `CODE: sentence`, as the service words a failed task. */
  error?: string;
  /** Why it failed (the polling view's `failure`): the reason's code among others. */
  failure?: {
    code?: string;
    message?: string;
    origin?: string;
    upstreamHost?: string | null;
    attempts?: number;
  } & Record<string, unknown>;
}

/**
 * The CSV's columns: the study's coordinates, the outcome and answer, the answer signals
 * (docs/contract.md#answer-signals: `true`/`false` or empty when unknown; queries and products joined by " | ", URLs
 * by spaces), where it was asked from and served for (docs/contract.md#region),
 * then why a failed task failed (the polling view's `failure`: its code, whose side, the upstream host and the
 * attempts made). A study asks each prompt once per
 * engine and country, so there is no sample column.
 */
const CSV_COLUMNS = [
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
];

/**
 * The study's results: JSONL (the record of what is done, read back on resume) and optionally a flat CSV, which is
 * rewritten from the JSONL when a run starts so the two always hold the same tasks. Lines are written as tasks end.
 */
export class ResultsFile {
  private constructor(
    private readonly jsonlFd: number,
    private readonly csvFd: number | null,
  ) {}

  /** Opens (or creates) the files; returns the results already there, keyed by study key. */
  static open(jsonlPath: string, csvPath: string | null): { file: ResultsFile; done: Map<string, ResultLine> } {
    const done = new Map<string, ResultLine>();
    if (fs.existsSync(jsonlPath)) {
      const text = completeLines(jsonlPath);
      for (const [i, line] of text.split('\n').entries()) {
        if (line === '') continue;
        try {
          const r = JSON.parse(line) as ResultLine;
          done.set(r.study.key, r);
        } catch {
          throw new InputError(`${jsonlPath}:${i + 1}: not a result line; use another --out or remove the file`);
        }
      }
    }
    const jsonlFd = fs.openSync(jsonlPath, 'a');
    let csvFd: number | null = null;
    if (csvPath) {
      csvFd = fs.openSync(csvPath, 'w');
      fs.writeSync(csvFd, csvRecord(CSV_COLUMNS));
      for (const r of done.values()) fs.writeSync(csvFd, csvRow(r));
    }
    return { file: new ResultsFile(jsonlFd, csvFd), done };
  }

  write(r: ResultLine): void {
    fs.writeSync(this.jsonlFd, `${JSON.stringify(r)}\n`);
    if (this.csvFd !== null) fs.writeSync(this.csvFd, csvRow(r));
  }

  close(): void {
    fs.closeSync(this.jsonlFd);
    if (this.csvFd !== null) fs.closeSync(this.csvFd);
  }
}

/**
 * The file up to its last complete line: a run killed while writing leaves at most a partial last line, which is
 * cut off (its task is fetched again).
 */
export function completeLines(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) fs.truncateSync(file, Buffer.byteLength(text.slice(0, end)));
  return text.slice(0, end);
}

/** The `url`s of a list of sources, space-separated ('' when the member is not a list). */
function urlsOf(list: unknown): string {
  return (listedUrls(list) ?? []).join(' ');
}

/** Product cards as `title (price)`, joined by " | " ('' when the member is not a list: unknown). */
function productsOf(list: unknown): string {
  return (listedProducts(list) ?? []).join(' | ');
}

/** The exit address's country and the one the engine says it served (docs/contract.md#region); '' where unknown. */
function regionOf(region: unknown): { exit: string; served: string } {
  const r = (region && typeof region === 'object' ? region : {}) as { exit?: unknown; engine?: { country?: unknown } };
  return {
    exit: typeof r.exit === 'string' ? r.exit : '',
    served: typeof r.engine?.country === 'string' ? r.engine.country : '',
  };
}

function csvRow(r: ResultLine): string {
  const triggered = r.response?.searchTriggered;
  const queries = r.response?.searchQueries;
  return csvRecord([
    r.study.row,
    r.study.prompt,
    r.study.engine,
    r.study.country ?? '',
    r.status,
    r.task?.id ?? '',
    typeof r.response?.text === 'string' ? r.response.text : '',
    urlsOf(r.response?.sources),
    typeof triggered === 'boolean' ? String(triggered) : '',
    (listedQueries(queries) ?? []).join(' | '),
    urlsOf(r.response?.retrievedSources),
    productsOf(r.response?.products),
    regionOf(r.response?.region).exit,
    regionOf(r.response?.region).served,
    r.error ?? '',
    r.failure?.code ?? '',
    r.failure?.origin ?? '',
    r.failure?.upstreamHost ?? '',
    r.failure?.attempts ?? '',
  ]);
}
