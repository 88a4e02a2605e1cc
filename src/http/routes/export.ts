import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { validationError, type FieldProblem } from '../../domain/request-errors.js';
import type { TaskStatus } from '../../domain/task.js';
import { UUID_RE } from '../../domain/task-id.js';
import { EXPORT_CONTENT_TYPES, encodeRows, type ExportFormat } from '../../export/encoders.js';
import { MONITOR_EXPORT_COLUMNS, monitorRunRows } from '../../export/monitor-rows.js';
import { type Cell, TASK_EXPORT_COLUMNS, taskExportRow } from '../../export/task-rows.js';
import { monitorOr404 } from '../../submission/monitors.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema } from '../schemas/common.js';
import { coercedQuery } from '../query-validator.js';
import { readTaskWindow } from '../task-window.js';
import { exportQuerySchema } from '../schemas/export.js';

interface ExportQuerystring {
  since: string;
  monitor?: string;
  until?: string;
  format: ExportFormat;
  after?: string;
  engine?: string;
  status?: TaskStatus;
}

/** Tasks read per store query: one page is what the export holds in memory at a time. */
const EXPORT_PAGE = 1000;
/** Runs of one monitor an export covers at most (a year of hourly runs); their list is read first, without answers. */
const MONITOR_RUNS_MAX = 10_000;
/** Runs read per store query while listing them: a run row holds its definition and figures (up to some 200 KB). */
const MONITOR_RUNS_PAGE = 50;

/**
 * The ids and times of a monitor's completed runs scheduled in the window, oldest first: read newest first a page at
 * a time (the store's order), keeping only what the export needs of each, so the list never holds whole runs.
 */
async function windowRuns(
  ctx: HttpContext,
  monitorId: string,
  accountId: string,
  since: number,
  until: number | null,
): Promise<Array<{ id: string; slotAt: number }>> {
  const runs: Array<{ id: string; slotAt: number }> = [];
  let to = until;
  while (runs.length < MONITOR_RUNS_MAX) {
    const page = await ctx.store.monitors.runs({
      monitorId,
      accountId,
      from: since,
      ...(to === null ? {} : { to }),
      limit: MONITOR_RUNS_PAGE,
    });
    for (const r of page) if (r.status === 'completed') runs.push({ id: r.id, slotAt: r.slotAt });
    const last = page.at(-1);
    if (!last || page.length < MONITOR_RUNS_PAGE) break;
    to = last.slotAt;
  }
  return runs.reverse();
}

/**
 * GET /v1/export (docs/exports.md): the caller's account's tasks created in a window, oldest first, as JSONL, CSV or
 * Parquet with one flat column set. The body is streamed page by page, so an export of any size holds one page of
 * tasks; a client whose connection broke passes the last `task_id` it kept as `after` and gets the rest.
 */
export function registerExportRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Querystring: ExportQuerystring }>(
    '/v1/export',
    {
      validatorCompiler: coercedQuery(exportQuerySchema),
      schema: {
        summary: "The caller's account's tasks of a window as JSONL, CSV or Parquet, streamed",
        querystring: exportQuerySchema,
        response: { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const { accountId } = callerOf(req);
      const q = req.query;
      const problems: FieldProblem[] = [];
      const { since, until, taskType } = readTaskWindow(q, problems);
      // Ids are lower-case UUIDs; anything else was never a task id of this service.
      if (q.after !== undefined && !(UUID_RE.test(q.after) && q.after === q.after.toLowerCase()))
        problems.push({
          field: 'after',
          message: 'must be the task_id (or run_id) of the last row of a previous export',
        });
      if (since === null || problems.length > 0) throw validationError(problems);

      const ext = q.format;
      const send = (name: string, columns: typeof TASK_EXPORT_COLUMNS, pages: AsyncGenerator<Cell[][]>) =>
        reply
          .type(EXPORT_CONTENT_TYPES[q.format])
          .header('content-disposition', `attachment; filename="${name}.${ext}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(encodeRows(q.format, columns, pages)));

      if (q.monitor !== undefined) {
        const m = await monitorOr404(ctx, q.monitor, callerOf(req));
        // The window's completed runs, oldest first; each read with its answers when its turn comes, so the export
        // holds one run at a time. `after` is the run_id of the last row kept.
        const runs = await windowRuns(ctx, m.id, accountId, since, until);
        const start = q.after === undefined ? 0 : runs.findIndex((r) => r.id === q.after) + 1;
        if (start === 0 && q.after !== undefined)
          throw validationError([{ field: 'after', message: 'is not a run of this monitor in this window' }]);
        async function* runPages(): AsyncGenerator<Cell[][]> {
          for (const run of runs.slice(start)) {
            const [full] = await ctx.store.monitors.runs({
              monitorId: m.id,
              accountId,
              from: run.slotAt,
              to: run.slotAt + 1,
              limit: 1,
              results: true,
            });
            if (full) yield monitorRunRows(full);
          }
        }
        return send('aeq-monitor', MONITOR_EXPORT_COLUMNS, runPages());
      }

      const window = {
        accountId,
        // Tasks older than the retention are gone; expired ones not swept yet are left out, as polling does.
        since: Math.max(since, ctx.now() - ctx.settings.retentionMs),
        until,
        status: q.status ?? null,
        taskType,
        text: null,
        order: 'asc' as const,
        limit: EXPORT_PAGE,
        withResult: true,
        withPayload: true,
      };
      async function* pages(): AsyncGenerator<Cell[][]> {
        let afterId = q.after ?? null;
        for (;;) {
          const rows = await ctx.store.tasks.list({ ...window, afterId });
          yield rows.map(taskExportRow);
          const last = rows.at(-1);
          if (!last || rows.length < EXPORT_PAGE) return;
          afterId = last.id;
        }
      }
      return send('aeq-tasks', TASK_EXPORT_COLUMNS, pages());
    },
  );
}
