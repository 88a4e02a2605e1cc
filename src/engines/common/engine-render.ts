import { surfaceFor } from '../../config/account-kind.js';
import type { EngineConfig } from '../../config/engine-config.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { TaskType } from '../../domain/task-types.js';
import type { TaskPayload } from '../../domain/task.js';
import type { Surface } from '../../domain/engine-catalog.js';
import type { BrowserTransport } from '../../transport/browser/browser-transport.js';

/** Whether the engine is configured to load its pages in the browser. */
export function usesBrowser(config: EngineConfig): boolean {
  return config.transport === 'browser';
}

/**
 * The surface that answers a task of an engine with an API and an app (docs/contract.md#surfaces): the one the task
 * asks for, else the configured transport's (`browser`: the app).
 */
export function surfaceOf(ctx: { config: EngineConfig; payload: TaskPayload }): Surface {
  return surfaceFor(ctx.config, ctx.payload.surface);
}

/**
 * The configured headers the app's page may send: the engine's own only when the deployment set it up for the browser.
 * An engine set up for its API keeps them for the API: forced onto the app (`surface: "app"`), they would go with
 * every request the app's page makes, its third-party resources included.
 */
export function appHeaders(config: EngineConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!usesBrowser(config)) return headers;
  for (const [k, v] of Object.entries(config.upstream.headers)) headers[k.toLowerCase()] = v;
  return headers;
}

/** The attempt's browser; absent only where no pool was wired (an API-only process never runs attempts). */
export function browserOf(ctx: { browser?: BrowserTransport; taskType: TaskType }): BrowserTransport {
  if (!ctx.browser)
    throw new UpstreamFailure(
      'UPSTREAM_ERROR',
      `${ctx.taskType}: transport "browser" configured but no browser pool in this process`,
    );
  return ctx.browser;
}

/**
 * Budget of one render: most of the attempt, leaving time to parse and report before the
 * attempt's own timeout fires, so a page that never settles is still classified by its parser.
 */
export function renderBudgetMs(config: EngineConfig): number {
  return Math.max(1000, Math.min(config.timeoutMs - 1500, Math.floor(config.timeoutMs * 0.85)));
}

/** `upstream.options.browserStableMs` when set (a deployment tunes it to the real page), else the engine's default. */
export function stableMsOf(config: EngineConfig, fallback: number): number {
  const v = config.upstream.options.browserStableMs;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/**
 * A page that did not settle in time is parsed all the same: walls, absent answers and layout
 * drift keep their own kinds. Only an answer that was still changing is a TIMEOUT
 * (docs/engines.md#browser-completion-rule).
 */
export async function settledOrTimeout<T>(complete: boolean, label: string, parse: () => T | Promise<T>): Promise<T> {
  const parsed = await parse();
  if (!complete)
    throw new UpstreamFailure('TIMEOUT', `${label}: the answer was still changing when the render budget ran out`);
  return parsed;
}

/** Letters and digits of a text: the "has real content" measure of docs/engines.md#browser-completion-rule. */
export function letterCount(s: string): number {
  return (s.match(/[\p{L}\p{N}]/gu) ?? []).length;
}
