import { leaseKind } from '../config/account-kind.js';
import type { ServiceConfig } from '../config/engine-config.js';
import type { Surface } from '../domain/engine-catalog.js';
import { RequestError } from '../domain/request-errors.js';
import { ENGINE_CATALOG } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import type { Pools } from '../pools/pools.js';

/**
 * Region checks before queueing (docs/contract.md#region-checks): a country the engine can never serve
 * is REGION_UNSUPPORTED; for engines drawing on region-bound account pools, a country without
 * accounts (of the kind the task's surface leases) or exit addresses right now is REGION_UNAVAILABLE. Other engines
 * are not rejected for capacity.
 */
export function checkRegion(
  config: ServiceConfig,
  pools: Pools,
  taskType: TaskType,
  country: string,
  surface: Surface | null = null,
): void {
  const engine = config.engines[taskType];
  if (engine.neverServe.includes(country)) {
    throw new RequestError('REGION_UNSUPPORTED', `${taskType} can never serve country ${country}.`, {
      taskType,
      country,
      cause: 'engine_never_serves_country',
      retryable: false,
    });
  }
  if (!ENGINE_CATALOG[taskType].regionBound) return;
  // The accounts that count are those of the kind the task's surface leases (an API key serves no app session).
  const cap = pools.regionCapacity(taskType, country, leaseKind(taskType, engine, surface));
  if (!cap.serveable) {
    throw new RequestError(
      'REGION_UNAVAILABLE',
      `No ${taskType} capacity for country ${country} at present; see GET /capacity.`,
      {
        country,
        serveable: false,
        hasIps: cap.hasIps,
      },
    );
  }
}
