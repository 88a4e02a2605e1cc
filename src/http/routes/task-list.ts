import type { FastifyInstance } from 'fastify';
import { validationError, type FieldProblem } from '../../domain/request-errors.js';
import type { TaskStatus } from '../../domain/task.js';
import { listedView, withResponseJson } from '../../domain/task-view.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema } from '../schemas/common.js';
import { coercedQuery } from '../query-validator.js';
import { readTaskWindow } from '../task-window.js';
import { taskListQuerySchema, taskListSchema } from '../schemas/tasks.js';
import { UUID_RE } from '../../domain/task-id.js';

interface TaskListQuerystring {
  since: string;
  until?: string;
  status?: TaskStatus;
  engine?: string;
  q?: string;
  order: 'asc' | 'desc';
  limit: number;
  cursor?: string;
  include?: 'result' | 'request' | 'result,request' | 'request,result';
}

/** A page's cursor: the id of its last task, base64url-encoded (opaque to clients: only ever passed back). */
const cursorOf = (id: string): string => Buffer.from(id, 'latin1').toString('base64url');

/** The task id of a cursor this route made, or null for any other text. */
function idOfCursor(cursor: string): string | null {
  const id = Buffer.from(cursor, 'base64url').toString('latin1');
  return UUID_RE.test(id) && id === id.toLowerCase() && cursorOf(id) === cursor ? id : null;
}

/**
 * GET /v1/async/tasks: the caller's account's tasks created at or after `since` (and before `until`), oldest first (or
 * newest first with `order=desc`), of one status and task type and with a text in the request if asked, a page at a
 * time, each as polling shows it (`task`, `credits`; with `include=result` the `response` of a COMPLETED task and the
 * `error` of a FAILED one; with `include=request` the `request` it made). A `since` before the retention window reads
 * as its start: tasks older than that are gone, and expired ones not swept yet are left out as polling leaves them out
 * (404).
 */
export function registerTaskListRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Querystring: TaskListQuerystring }>(
    '/v1/async/tasks',
    {
      validatorCompiler: coercedQuery(taskListQuerySchema),
      schema: {
        summary: "The caller's account's tasks created since a time, oldest first, a page at a time",
        querystring: taskListQuerySchema,
        response: { 200: taskListSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const { accountId } = callerOf(req);
      const q = req.query;
      const afterId = q.cursor === undefined ? null : idOfCursor(q.cursor);
      const problems: FieldProblem[] = [];
      const { since, until, taskType } = readTaskWindow(q, problems);
      if (q.cursor !== undefined && afterId === null)
        problems.push({ field: 'cursor', message: 'is not a cursor of this listing (pass `nextCursor` as given)' });
      if (since === null || problems.length > 0) throw validationError(problems);

      const included = new Set(q.include?.split(',') ?? []);
      const withResult = included.has('result');
      const withPayload = included.has('request');
      // One more than the page tells whether another page follows.
      const rows = await ctx.store.tasks.list({
        accountId,
        since: Math.max(since, ctx.now() - ctx.settings.retentionMs),
        until,
        afterId,
        status: q.status ?? null,
        taskType,
        text: q.q ?? null,
        order: q.order,
        limit: q.limit + 1,
        withResult,
        withPayload,
      });
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      const nextCursor = rows.length > page.length && last ? cursorOf(last.id) : null;
      // Each item as polling writes it: the stored result goes in as its text, never parsed and re-serialised.
      const items = page.map((t) => {
        const { item, responseJson } = listedView(t, withResult);
        if (withPayload) item.request = { payload: t.payload ?? null, country: t.country ?? null };
        return withResponseJson(JSON.stringify(item), responseJson);
      });
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"success":true,"tasks":[${items.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`);
    },
  );
}
