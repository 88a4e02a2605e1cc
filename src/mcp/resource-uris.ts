/**
 * The resources' addresses, which an assistant cites: a task's result (`aeq://tasks/{id}`) and a monitor's latest
 * run (`aeq://monitors/{id}/latest-run`). Ids are percent-encoded, so an address names one id and nothing else.
 */
export const TASK_URI_TEMPLATE = 'aeq://tasks/{id}';
export const MONITOR_RUN_URI_TEMPLATE = 'aeq://monitors/{id}/latest-run';

export const taskUri = (id: string): string => `aeq://tasks/${encodeURIComponent(id)}`;
export const monitorRunUri = (id: string): string => `aeq://monitors/${encodeURIComponent(id)}/latest-run`;

export type ResourceAddress = { kind: 'task'; id: string } | { kind: 'monitor-run'; id: string };

const TASK = /^aeq:\/\/tasks\/([^/?#]+)$/;
const MONITOR_RUN = /^aeq:\/\/monitors\/([^/?#]+)\/latest-run$/;

/** What an address names, or null for any other text (including an id that does not decode). */
export function parseResourceUri(uri: string): ResourceAddress | null {
  const task = TASK.exec(uri);
  const run = task ? null : MONITOR_RUN.exec(uri);
  const raw = task?.[1] ?? run?.[1];
  if (raw === undefined) return null;
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (id === '' || id.length > 200) return null;
  return task ? { kind: 'task', id } : { kind: 'monitor-run', id };
}
