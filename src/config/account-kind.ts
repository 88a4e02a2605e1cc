import { ENGINE_CATALOG, type Surface } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';

/** What the rules read of an engine's configuration (engine-config.ts `EngineConfig` has both). */
interface EngineSetup {
  readonly mode: string;
  readonly transport?: 'http' | 'browser' | undefined;
}

/**
 * What a pool account's secret is (docs/configuration.md#account-kinds): `api`, a provider API key sent as a bearer
 * token to the provider's API; `app`, a logged-in session of the consumer app, sent as the app's session cookie by the
 * browser. An attempt leases only accounts of the kind its surface uses, so an API key never becomes a cookie of the
 * app's page (which every third-party resource of the page could read) and a session never goes to the API.
 */
export type AccountKind = 'api' | 'app';
export const ACCOUNT_KINDS: readonly AccountKind[] = ['api', 'app'];

/**
 * Engines whose app surface runs in a logged-in session of a pool account (ChatGPT); Perplexity's app serves anonymous
 * visitors and takes none.
 */
const APP_NEEDS_SESSION: ReadonlySet<TaskType> = new Set<TaskType>(['CHATBOT_A']);

/**
 * Engines with one surface that is the consumer app's own protocol (Copilot's chat socket,
 * docs/engines.md#copilot-chat): their accounts hold app sessions. Every other one-surface engine's hold API
 * credentials.
 */
const APP_ONLY: ReadonlySet<TaskType> = new Set<TaskType>(['SEARCH_C_ASSISTANT']);

/** The surfaces of an engine with an API and an app (both), else undefined (one surface). */
function surfacesOf(taskType: TaskType): readonly Surface[] | undefined {
  return (ENGINE_CATALOG[taskType] as { readonly surfaces?: readonly Surface[] }).surfaces;
}

/** The surface that answers: the one asked for, else the configured transport's (`browser`: the app). */
export function surfaceFor(engine: EngineSetup, requested: Surface | null | undefined): Surface {
  return requested ?? (engine.transport === 'browser' ? 'app' : 'api');
}

/** The kinds an engine's accounts may be: both for an engine with an API and an app, else its one surface's. */
function kindsOf(taskType: TaskType): readonly AccountKind[] {
  if (surfacesOf(taskType)) return ACCOUNT_KINDS;
  return [APP_ONLY.has(taskType) ? 'app' : 'api'];
}

/**
 * The kind of an account configured without one, where the configuration says it unambiguously: an engine with one
 * surface, that surface's; an engine with an API and an app, the surface its configured transport serves by default
 * (`browser`: the app, so `app`; `http`: the API, so `api`), which is how such accounts were used before kinds existed.
 */
export function inferredKind(taskType: TaskType, engine: EngineSetup): AccountKind {
  const kinds = kindsOf(taskType);
  if (kinds.length === 1) return kinds[0] as AccountKind;
  return surfaceFor(engine, null) === 'app' ? 'app' : 'api';
}

/**
 * Why a secret cannot be an account of this kind, or null. For ChatGPT an OpenAI key (`sk-…`) is never an app
 * session: sent as chatgpt.com's session cookie it would reach the app's page and every resource it loads. (Other
 * apps' tokens have no form to tell them by.)
 */
export function kindMismatch(taskType: TaskType, kind: AccountKind, secret: string): string | null {
  if (!kindsOf(taskType).includes(kind))
    return `kind "${kind}" is not one ${taskType} can use (${kindsOf(taskType).join(', ')})`;
  if (kind === 'app' && APP_NEEDS_SESSION.has(taskType) && /^sk-/.test(secret.trim()))
    return 'the secret is an API key ("sk-…"), not an app session; set "kind": "api" for it';
  return null;
}

/**
 * The kind of account an attempt of this engine leases for a surface, or null when it leases none:
 * - the app surface of an engine whose app needs a session (CHATBOT_A): `app`, whatever the engine's mode (the API's
 *   key is no session);
 * - otherwise only in `account` mode: an engine with an API and an app leases `api` accounts for its API surface when
 *   its transport is `http` (with the browser transport its API uses the provider key, `upstream.apiKey`) and none for
 *   an app without sessions; a one-surface engine leases its surface's kind.
 */
export function leaseKind(
  taskType: TaskType,
  engine: EngineSetup,
  requested: Surface | null | undefined,
): AccountKind | null {
  const surface = surfaceFor(engine, requested);
  const twoSurfaces = surfacesOf(taskType) !== undefined;
  if (twoSurfaces && surface === 'app' && APP_NEEDS_SESSION.has(taskType)) return 'app';
  if (engine.mode !== 'account') return null;
  if (!twoSurfaces) return inferredKind(taskType, engine);
  return surface === 'api' && engine.transport !== 'browser' ? 'api' : null;
}
