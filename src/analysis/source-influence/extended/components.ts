import type { ModelFailureStatus } from '../../model/session.js';
import { norm } from '../../text/norm.js';

/**
 * What the three components of the extended analysis (§2.11) share: one status enum, the error
 * entries, the quote check every model quote passes, and the guard that turns an unexpected
 * exception into `internal_error` without losing the component's deterministic fields.
 */
export type ComponentStatus =
  | 'ok'
  | 'partial'
  | 'insufficient_input'
  | 'model_error'
  | 'timeout'
  | 'invalid_output'
  | 'budget_exceeded'
  | 'internal_error';
export type ComponentName = 'questionRequirements' | 'brandDecisions' | 'sourceMetadata';
export const COMPONENT_ORDER: readonly ComponentName[] = ['questionRequirements', 'brandDecisions', 'sourceMetadata'];

export interface ComponentError {
  component: ComponentName;
  code: string;
  message: string;
}

export interface ComponentOutcome<T> {
  status: ComponentStatus;
  value: T;
  errors: ComponentError[];
}

const FAILURE_CODES: Readonly<Record<ModelFailureStatus, string>> = {
  model_error: 'MODEL_ERROR',
  timeout: 'MODEL_TIMEOUT',
  invalid_output: 'INVALID_OUTPUT',
  budget_exceeded: 'BUDGET_EXCEEDED',
};

export function modelFailure(component: ComponentName, status: ModelFailureStatus, message: string): ComponentError {
  return { component, code: FAILURE_CODES[status], message: `${message}; deterministic fields are kept.` };
}

export const NO_MODEL_MESSAGE = 'No interpretation model is configured; only the deterministic fields are filled.';

/** A model quote is accepted when it occurs in the text after `norm`, ignoring case. */
export function quoteFound(quote: string, text: string): boolean {
  const q = norm(quote).toLowerCase();
  return q !== '' && norm(text).toLowerCase().includes(q);
}

/** Worst-first merge of statuses inside one component: a failure beats `partial`, which beats `ok`. */
export function mergeStatus(a: ComponentStatus, b: ComponentStatus): ComponentStatus {
  if (a !== 'ok' && a !== 'partial') return a;
  if (b !== 'ok' && b !== 'partial') return b;
  return a === 'partial' || b === 'partial' ? 'partial' : 'ok';
}

/**
 * Runs one component; an exception that is not the attempt ending becomes `internal_error` with the
 * component's deterministic fields (`fallback`), so one bug never costs the whole analysis.
 */
export async function guardComponent<T>(
  component: ComponentName,
  signal: AbortSignal | null,
  run: () => Promise<ComponentOutcome<T>>,
  fallback: () => T,
): Promise<ComponentOutcome<T>> {
  try {
    return await run();
  } catch (e) {
    if (signal?.aborted) throw e;
    return {
      status: 'internal_error',
      value: fallback(),
      errors: [
        {
          component,
          code: 'INTERNAL_ERROR',
          message: 'The component failed unexpectedly; deterministic fields are kept.',
        },
      ],
    };
  }
}

/** §2.11.4: `ok` if every component is; `partial` if any is ok or partial; else the first failure. */
export function topLevelStatus(components: Record<ComponentName, ComponentStatus>): ComponentStatus {
  const order = COMPONENT_ORDER.map((c) => components[c]);
  if (order.every((s) => s === 'ok')) return 'ok';
  if (order.some((s) => s === 'ok' || s === 'partial')) return 'partial';
  return order[0] ?? 'internal_error';
}
