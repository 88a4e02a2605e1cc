import type { FastifyInstance } from 'fastify';
import { validationError } from '../../domain/request-errors.js';
import { DAY_MS } from '../../store/ports.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema } from '../schemas/common.js';
import { usageQuerySchema, usageSchema } from '../schemas/usage.js';

/** The longest range one call covers. */
const MAX_DAYS = 366;

const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The day number of a YYYY-MM-DD date; NaN for one that is not on the calendar (Date.parse rolls 02-30 over). */
function dayOf(iso: string): number {
  const day = Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
  return Number.isInteger(day) && isoOf(day) === iso ? day : Number.NaN;
}

/**
 * GET /v1/usage: the caller's account's finished tasks and credits charged, by UTC day and engine, from `from` to
 * `to` (dates, both included; by default the last 30 days to today). Swept tasks count from the daily table, retained
 * ones from the tasks themselves (store/usage.ts).
 */
export function registerUsageRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Querystring: { from?: string; to?: string } }>(
    '/v1/usage',
    {
      schema: {
        summary: "The caller's account: tasks finished and credits charged by day and engine",
        querystring: usageQuerySchema,
        response: { 200: usageSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const today = Math.floor(ctx.now() / DAY_MS);
      const toDay = req.query.to === undefined ? today : dayOf(req.query.to);
      const fromDay = req.query.from === undefined ? toDay - 29 : dayOf(req.query.from);
      const problems = [
        ...(Number.isInteger(fromDay) ? [] : [{ field: 'from', message: 'not a calendar date' }]),
        ...(Number.isInteger(toDay) ? [] : [{ field: 'to', message: 'not a calendar date' }]),
      ];
      if (problems.length === 0 && fromDay > toDay) problems.push({ field: 'from', message: 'is after `to`' });
      if (problems.length === 0 && toDay - fromDay >= MAX_DAYS)
        problems.push({ field: 'from', message: `the range is longer than ${MAX_DAYS} days` });
      if (problems.length > 0) throw validationError(problems);
      const rows = await ctx.store.usage.byDay({ accountId: callerOf(req).accountId, fromDay, toDay });
      const totals = { tasks: 0, credits: 0 };
      for (const r of rows) {
        totals.tasks += r.tasks;
        totals.credits += r.credits;
      }
      return {
        success: true,
        from: isoOf(fromDay),
        to: isoOf(toDay),
        usage: rows.map((r) => ({ day: isoOf(r.day), engine: r.taskType, tasks: r.tasks, credits: r.credits })),
        totals,
      };
    },
  );
}
