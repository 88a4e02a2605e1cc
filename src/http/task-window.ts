import { dateTimeMs } from '../domain/clock.js';
import { canonicalTaskType } from '../domain/engine-catalog.js';
import type { FieldProblem } from '../domain/request-errors.js';

/** A window of tasks as asked: its times in epoch ms (null where absent) and its task type. */
export interface TaskWindow {
  since: number | null;
  until: number | null;
  taskType: string | null;
}

/**
 * Reads `since`, `until` and `engine`, adding a problem for each bad one: a time that is not RFC 3339 (the schema has
 * checked the format; this is for text it let through), an `until` not after `since`, an engine that is no task type.
 */
export function readTaskWindow(
  q: { since: string; until?: string | undefined; engine?: string | undefined },
  problems: FieldProblem[],
): TaskWindow {
  const since = dateTimeMs(q.since);
  const until = q.until === undefined ? null : dateTimeMs(q.until);
  if (since === null) problems.push({ field: 'since', message: 'must be an RFC 3339 date-time' });
  if (q.until !== undefined && until === null)
    problems.push({ field: 'until', message: 'must be an RFC 3339 date-time' });
  else if (since !== null && until !== null && until <= since)
    problems.push({ field: 'until', message: 'must be after `since`' });
  const taskType = q.engine === undefined ? null : (canonicalTaskType(q.engine) ?? null);
  if (q.engine !== undefined && taskType === null)
    problems.push({ field: 'engine', message: 'is not a task type (see GET /openapi.json, taskType)' });
  return { since, until, taskType };
}
