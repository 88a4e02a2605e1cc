import type { MonitorRunRecord } from '../domain/monitor.js';
import type { Cell, ExportColumn } from './task-rows.js';

/**
 * The flat columns of a monitor's export (docs/exports.md#monitor-columns): one row per saved answer of its completed
 * runs, with the figures of the answer's group (its run, engine and country, docs/analysis.md §6) beside it, so a BI
 * tool can chart the figures and drill into the answers from one table.
 */
export const MONITOR_EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: 'run_id', type: 'STRING' },
  { name: 'slot_at', type: 'STRING' },
  { name: 'task_id', type: 'STRING' },
  { name: 'engine', type: 'STRING' },
  { name: 'country', type: 'STRING' },
  { name: 'prompt', type: 'STRING' },
  { name: 'sample', type: 'INT64' },
  { name: 'status', type: 'STRING' },
  { name: 'answer', type: 'STRING' },
  { name: 'cited_urls', type: 'STRING' },
  { name: 'brand_position', type: 'INT64' },
  { name: 'search_triggered', type: 'BOOLEAN' },
  { name: 'search_queries', type: 'STRING' },
  { name: 'retrieved_urls', type: 'STRING' },
  { name: 'error', type: 'STRING' },
  { name: 'mention_rate', type: 'DOUBLE' },
  { name: 'share_of_voice', type: 'DOUBLE' },
  { name: 'own_citation_share', type: 'DOUBLE' },
  { name: 'search_rate', type: 'DOUBLE' },
  { name: 'method_version', type: 'STRING' },
];

interface GroupFigures {
  mentionRate?: unknown;
  shareOfVoice?: unknown;
  ownCitationShare?: unknown;
  searchRate?: unknown;
  methodVersion?: unknown;
}

/** A completed run's saved answers as rows of MONITOR_EXPORT_COLUMNS, in the order the run saved them. */
export function monitorRunRows(run: MonitorRunRecord): Cell[][] {
  const metrics = (run.metrics ?? {}) as Record<string, GroupFigures>;
  const slotAt = new Date(run.slotAt).toISOString();
  return (run.results ?? []).map((r) => {
    const g = metrics[`${r.engine}/${r.country ?? '-'}`] ?? {};
    return [
      run.id,
      slotAt,
      r.taskId,
      r.engine,
      r.country,
      r.prompt,
      r.sample ?? 0,
      r.status,
      r.status === 'COMPLETED' ? r.text : null,
      r.status === 'COMPLETED' ? r.sources.join(' ') : null,
      r.position ?? null,
      r.searchTriggered ?? null,
      r.searchQueries ? r.searchQueries.join(' | ') : null,
      r.retrieved ? r.retrieved.join(' ') : null,
      r.error,
      num(g.mentionRate),
      num(g.shareOfVoice),
      num(g.ownCitationShare),
      num(g.searchRate),
      typeof g.methodVersion === 'string' ? g.methodVersion : null,
    ];
  });
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
