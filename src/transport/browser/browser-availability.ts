import fs from 'node:fs';
import type { ServiceConfig } from '../../config/engine-config.js';
import type { TaskType } from '../../domain/task-types.js';
import { ENGINE_CATALOG } from '../../domain/engine-catalog.js';

/** Whether a task of this type may ask for the app surface (which drives the browser). */
export function hasAppSurface(t: TaskType): boolean {
  const row = ENGINE_CATALOG[t];
  return row.kind === 'engine' && 'surfaces' in row && row.surfaces.includes('app');
}

/**
 * Whether the browser the browser transport drives is on this machine. Checked once at start-up: an
 * engine whose transport is `browser` cannot serve without it, and saying so once (log and
 * /capacity) beats every one of its tasks failing after three attempts.
 */
export function chromiumMissing(executablePath: string): string | null {
  try {
    fs.accessSync(executablePath, fs.constants.X_OK);
    return null;
  } catch {
    return `Chromium not found at ${executablePath} (install Debian's chromium package or set AEQ_CHROMIUM_PATH)`;
  }
}

/**
 * Marks the engines that need the browser as unable to serve when it is missing, and returns them.
 * Engines that are off stay as they are: they serve nothing either way.
 */
export function markBrowserEngines(config: ServiceConfig, missing: string | null): TaskType[] {
  if (!missing) return [];
  const marked: TaskType[] = [];
  for (const [t, e] of Object.entries(config.engines) as Array<[TaskType, ServiceConfig['engines'][TaskType]]>) {
    if (e.mode === 'off') continue;
    if (e.transport !== 'browser') {
      // Its default surface is the API and still serves; only a task asking for its app is refused.
      if (hasAppSurface(t)) e.appUnavailable = `${missing}; the app surface drives the browser`;
      continue;
    }
    e.unavailable = `${missing}; this engine's transport is "browser"`;
    e.unavailableCause = 'NO_BROWSER';
    marked.push(t);
  }
  return marked;
}
