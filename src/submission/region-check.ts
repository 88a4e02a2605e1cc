import type { ServiceConfig } from '../config/engine-config.js';
import { RequestError } from '../domain/request-errors.js';
import { ENGINE_CATALOG } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import type { Pools } from '../pools/pools.js';

/**
 * Region checks before queueing (docs/contract.md#region-checks): a country the engine can never serve
 * is REGION_UNSUPPORTED; for engines drawing on region-bound account pools, a country without
 * accounts or exit addresses right now is REGION_UNAVAILABLE. Other engines are not rejected for capacity.
 */
export function checkRegion(config: ServiceConfig, pools: Pools, taskType: TaskType, country: string): void {
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
  const cap = pools.regionCapacity(taskType, country, engine.mode === 'account');
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
