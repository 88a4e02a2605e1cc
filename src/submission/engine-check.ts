import { leaseKind } from '../config/account-kind.js';
import type { EngineConfig } from '../config/engine-config.js';
import type { Pools } from '../pools/pools.js';
import { RequestError } from '../domain/request-errors.js';
import type { TaskType } from '../domain/task-types.js';
import type { Surface } from '../domain/engine-catalog.js';

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

/**
 * A surface the engine has but cannot serve here (docs/contract.md#surfaces): the app without Chromium on the machine,
 * the API of an engine whose transport is the browser without a provider key (its accounts then hold app sessions),
 * a surface that leases accounts of a kind (account-kind.ts) of which the pool holds none in any country: CHATBOT_A's
 * app with no `app` account (its API keys are no sessions). None in the task's country alone is REGION_UNAVAILABLE,
 * as for the default surface (region-check.ts).
 */
export function checkSurfaceServes(engine: EngineConfig, pools: Pools, taskType: TaskType, surface: Surface): void {
  const browserDefault = engine.transport === 'browser';
  const kind = leaseKind(taskType, engine, surface);
  let why: string | null = null;
  let reason: 'NO_BROWSER' | 'NO_CREDENTIALS' = 'NO_BROWSER';
  if (surface === 'app' && !browserDefault && engine.appUnavailable) why = engine.appUnavailable;
  else if (surface === 'api' && browserDefault && !engine.upstream.apiKey) {
    why = `the api surface needs a provider API key (engines.${taskType}.upstream.apiKey in the AEQ_CONFIG file)`;
    reason = 'NO_CREDENTIALS';
  } else if (kind && !pools.hasAccountOfKind(taskType, kind)) {
    why = `the ${surface} surface needs a pool account of kind "${kind}" and none is configured (accounts[].kind)`;
    reason = 'NO_CREDENTIALS';
  }
  if (!why) return;
  throw new RequestError(
    'ENGINE_UNAVAILABLE',
    `${taskType} cannot serve surface "${surface}" on this service: ${why}; see GET /capacity.`,
    { engine: taskType, reason, message: why },
  );
}
