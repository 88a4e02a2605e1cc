import { RequestError } from '../../domain/request-errors.js';
import type { Caller } from '../../domain/account.js';
import type { PolledTask } from '../../domain/task.js';
import { UUID_RE } from '../../domain/task-id.js';
import type { HttpContext } from '../context.js';

/**
 * A task of the caller's account within its retention by the id of a path, or 404 RESOURCE_NOT_FOUND (unknown,
 * expired, not a UUID, or another account's: 404 rather than 403, so that ids cannot be probed).
 */
export async function liveTaskOr404(ctx: HttpContext, id: string, caller: Caller): Promise<PolledTask> {
  const found = UUID_RE.test(id)
    ? await ctx.store.tasks.poll({ id: id.toLowerCase(), notBefore: ctx.now() - ctx.settings.retentionMs })
    : undefined;
  const task = found?.accountId === caller.accountId ? found : undefined;
  if (!task)
    throw new RequestError('RESOURCE_NOT_FOUND', `No task with id ${JSON.stringify(id)} (unknown or expired).`, { id });
  return task;
}
