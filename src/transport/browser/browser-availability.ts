import fs from 'node:fs';
import type { ServiceConfig } from '../../config/engine-config.js';
import type { TaskType } from '../../domain/task-types.js';

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
    if (e.transport !== 'browser' || e.mode === 'off') continue;
    e.unavailable = `${missing}; this engine's transport is "browser"`;
    e.unavailableCause = 'NO_BROWSER';
    marked.push(t);
  }
  return marked;
}
