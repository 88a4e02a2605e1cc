import type { EngineConfig, ServiceConfig } from '../config/engine-config.js';
import { ENGINE_CATALOG } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import { upstreamScope } from '../engines/upstream-scope.js';
import type { Pools } from '../pools/pools.js';
import type { ExitOffer } from '../store/ports.js';

/**
 * At most this many exit addresses are offered to one claim: the claim looks through them once per task, under the
 * engine's lock. A task whose country is not among them leases its address when its attempt starts.
 */
const MAX_OFFERED = 256;

/**
 * How long a slot holds if its worker dies without freeing it: the wait for an account, the attempt's timeout and a
 * margin for the artefacts and the finish (a slot leased by the claim is freed by the finish).
 */
export function slotHoldMs(engine: EngineConfig, scheduler: ServiceConfig['scheduler']): number {
  return scheduler.poolWaitMs + engine.timeoutMs + 30_000;
}

/**
 * The exit addresses offered to a claim of `taskType`: the ones the pool would pick from now for the engine's own
 * upstream (a task whose upstream differs, a page's host, is checked again when its attempt adopts the lease). None for
 * an engine that runs no attempts.
 */
export function exitOfferFor(config: ServiceConfig, pools: Pools, taskType: TaskType): ExitOffer | null {
  const engine = config.engines[taskType];
  if (engine.mode === 'off' || engine.unavailable) return null;
  const resources = pools.exits.offer(upstreamScope(taskType, {}, engine), MAX_OFFERED);
  if (resources.length === 0) return null;
  return {
    resources,
    defaultCountry: ENGINE_CATALOG[taskType].defaultCountry,
    holdMs: slotHoldMs(engine, config.scheduler),
  };
}
