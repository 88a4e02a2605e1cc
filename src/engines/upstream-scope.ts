import type { EngineConfig } from '../config/engine-config.js';
import type { TaskPayload } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import { parseUrl } from './common/urls.js';

/**
 * The upstream an attempt talks to, which scopes exit-address and account rests: Google refusing an
 * address says nothing about Bing on it. Engines sharing a base URL share a scope (the three Google
 * surfaces are one host to Google); WEB_SCRAPE's upstream is the host of the page it reads. In the
 * sandbox every upstream shares one host, and the base URL's path prefix keeps them apart.
 */
export function upstreamScope(taskType: TaskType, payload: TaskPayload, engine: EngineConfig): string {
  if (taskType === 'WEB_SCRAPE') {
    const page = payload.url ? parseUrl(payload.url.trim()) : null;
    if (page?.host) return page.host.toLowerCase();
  }
  const base = engine.upstream.baseUrl ? parseUrl(engine.upstream.baseUrl) : null;
  if (base?.host) return `${base.host.toLowerCase()}${base.pathname.replace(/(?<!\/)\/+$/, '')}`;
  return taskType;
}
