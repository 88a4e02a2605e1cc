import type { EngineConfig } from '../config/engine-config.js';
import { RequestError } from '../domain/request-errors.js';
import type { TaskType } from '../domain/task-types.js';

/**
 * An engine that cannot serve at all (switched off, `api` mode without a key, a browser engine without Chromium) is
 * refused at submit: accepting a task that can only fail costs the client a poll loop to learn what the service knew.
 * A paused engine is different: it keeps its queue and serves it when resumed, so it is accepted.
 */
export function checkEngineServes(engine: EngineConfig, taskType: TaskType): void {
  if (engine.mode !== 'off' && !engine.unavailable) return;
  const reason = engine.unavailableCause ?? 'SWITCHED_OFF';
  const why = engine.unavailable ?? 'switched off in the configuration';
  throw new RequestError('ENGINE_UNAVAILABLE', `${taskType} cannot serve on this service: ${why}; see GET /capacity.`, {
    engine: taskType,
    reason,
    message: why,
  });
}
