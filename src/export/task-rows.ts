import type { TaskQueue } from '../store/ports.js';
import { listedProducts, listedQueries, listedUrls } from './answer-lists.js';

/** A task as the store's listing reads it (with its request and result). */
type ListedTaskRow = Awaited<ReturnType<TaskQueue['list']>>[number];

/**
 * The flat columns of a task export (docs/exports.md#task-columns), the same in JSONL, CSV and Parquet: one row per
 * task, each cell a string, a number, a boolean or null. Lists are joined (URLs by a space, queries and products by
 * " | ") so a spreadsheet or a BI tool reads each cell as it is.
 */
export type Cell = string | number | boolean | null;

/** The Parquet type of a column: every column may be null (an engine that cannot tell). */
type ColumnType = 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN';

export interface ExportColumn {
  name: string;
  type: ColumnType;
}

export const TASK_EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: 'task_id', type: 'STRING' },
  { name: 'created_at', type: 'STRING' },
  { name: 'engine', type: 'STRING' },
  { name: 'status', type: 'STRING' },
  { name: 'country', type: 'STRING' },
  { name: 'request', type: 'STRING' },
  { name: 'answer', type: 'STRING' },
  { name: 'cited_urls', type: 'STRING' },
  { name: 'cited_count', type: 'INT64' },
  { name: 'search_triggered', type: 'BOOLEAN' },
  { name: 'search_queries', type: 'STRING' },
  { name: 'retrieved_urls', type: 'STRING' },
  { name: 'products', type: 'STRING' },
  { name: 'exit_country', type: 'STRING' },
  { name: 'served_country', type: 'STRING' },
  { name: 'error', type: 'STRING' },
  { name: 'failure_code', type: 'STRING' },
  { name: 'credits_charged', type: 'DOUBLE' },
];

/** The request's text, whichever member the engine takes it in. */
const REQUEST_MEMBERS = ['prompt', 'query', 'url', 'community', 'seed', 'topic'] as const;

/** One task as a row of TASK_EXPORT_COLUMNS, in that order. */
export function taskExportRow(t: ListedTaskRow): Cell[] {
  const payload = (t.payload && typeof t.payload === 'object' ? t.payload : {}) as Record<string, unknown>;
  const requestMember = REQUEST_MEMBERS.find((k) => typeof payload[k] === 'string');
  const r = t.status === 'COMPLETED' && t.resultJson ? parsed(t.resultJson) : {};
  const cited = listedUrls(r.sources);
  const region = record(r.region);
  const servedBy = record(region.engine);
  return [
    t.id,
    new Date(t.createdAt).toISOString(),
    t.taskType,
    t.status,
    t.country ?? null,
    requestMember ? (payload[requestMember] as string) : null,
    typeof r.text === 'string' ? r.text : null,
    cited === null ? null : cited.join(' '),
    cited === null ? null : cited.length,
    typeof r.searchTriggered === 'boolean' ? r.searchTriggered : null,
    nullableJoin(listedQueries(r.searchQueries), ' | '),
    nullableJoin(listedUrls(r.retrievedSources), ' '),
    nullableJoin(listedProducts(r.products), ' | '),
    typeof region.exit === 'string' ? region.exit : null,
    typeof servedBy.country === 'string' ? servedBy.country : null,
    t.error ?? null,
    t.failure?.code ?? null,
    t.creditsCharged,
  ];
}

/**
 * A stored result: the store wrote it as JSON, but its members are an engine's (of any version) and are checked one
 * by one (answer-lists.ts for the lists).
 */
function parsed(json: string): Record<string, unknown> {
  try {
    return record(JSON.parse(json));
  } catch {
    return {};
  }
}

/** An object's members; anything else (null, a list, a bare value) has none. */
function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function nullableJoin(list: string[] | null, sep: string): string | null {
  return list === null ? null : list.join(sep);
}
