import type { AeqClient, Polling, TaskStatus } from '@aeq/client';

/** The first pause between polls; it grows by half each time up to the longest, so a quick task is seen quickly. */
const FIRST_POLL_MS = 200;
const LONGEST_POLL_MS = 2000;

const TERMINAL: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['COMPLETED', 'FAILED']);

export interface WaitStep {
  elapsedMs: number;
  status: TaskStatus | undefined;
}

export interface Waited {
  /** The last polling view read. */
  view: Polling;
  /** Whether the task ended (COMPLETED or FAILED) within the budget. */
  done: boolean;
  elapsedMs: number;
}

/**
 * Polls one task until it ends or `budgetMs` has passed, whichever is first, and never later: the last poll is
 * made at the deadline, then the view is returned as it is. A task the account cannot see (another account's,
 * unknown, expired) throws the client's RESOURCE_NOT_FOUND at the first poll, like polling it over HTTP.
 * `onStep` hears every poll (progress notifications); an aborted `signal` ends the wait at once with the last view.
 */
export async function waitWithin(
  client: AeqClient,
  id: string,
  budgetMs: number,
  o: { onStep?: (s: WaitStep) => Promise<void>; signal?: AbortSignal } = {},
): Promise<Waited> {
  const start = Date.now();
  let pause = FIRST_POLL_MS;
  for (;;) {
    const view = await client.get(id);
    const elapsedMs = Date.now() - start;
    const status = view.task?.status;
    if (status && TERMINAL.has(status)) return { view, done: true, elapsedMs };
    const left = budgetMs - elapsedMs;
    if (left <= 0 || o.signal?.aborted) return { view, done: false, elapsedMs };
    await o.onStep?.({ elapsedMs, status });
    if (!(await sleep(Math.min(pause, left), o.signal))) return { view, done: false, elapsedMs: Date.now() - start };
    pause = Math.min(LONGEST_POLL_MS, Math.round(pause * 1.5));
  }
}

/** Resolves true after `ms`, or false at once when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
