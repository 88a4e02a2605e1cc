/**
 * Task-level failure catalogue. A task that fails records `<CODE>: <fixed sentence>`; the sentence
 * for a code never varies, except BAD_PAYLOAD and PAGE_UNAVAILABLE, which say what to change.
 */
export const ENGINE_ERROR_SENTENCES = Object.freeze({
  ENGINE_TIMEOUT: 'The engine did not answer within the time limit.',
  ENGINE_NO_RESULT: 'The engine answered without a result for this request.',
  ENGINE_FAILED: 'The engine request failed.',
  NO_IP_AVAILABLE: 'No exit address for the requested country became free in time; retrying later often works.',
  NO_ACCOUNT_AVAILABLE: 'No account for the requested country became free in time; retrying later often works.',
  BAD_PAYLOAD: 'The payload cannot be served as given.',
  PAGE_UNAVAILABLE: 'The page cannot be read anonymously.',
} as const);

export type TaskErrorCode = keyof typeof ENGINE_ERROR_SENTENCES;

/** Codes whose message is specific to the request (it says what to change). */
const SPECIFIC_MESSAGE_CODES: ReadonlySet<TaskErrorCode> = new Set<TaskErrorCode>(['BAD_PAYLOAD', 'PAGE_UNAVAILABLE']);

export function taskErrorString(code: TaskErrorCode, specific?: string): string {
  if (specific && SPECIFIC_MESSAGE_CODES.has(code)) return `${code}: ${specific}`;
  return `${code}: ${ENGINE_ERROR_SENTENCES[code]}`;
}

/**
 * Failure kinds an adapter reports (docs/engines.md#failure-order). The scheduler maps them to task codes
 * and decides what a retry needs (another exit address, a wait, nothing).
 */
export const UPSTREAM_FAILURE_KINDS = [
  'UPSTREAM_BLOCKED',
  'CONSENT_REQUIRED',
  'RATE_LIMITED',
  'AUTH_FAILED',
  /**
   * The provider refused for a reason no retry fixes: quota or billing exhausted, the key invalid, the model
   * unknown.
   */
  'PROVIDER_REFUSED',
  'LAYOUT_CHANGED',
  'NO_ANSWER',
  'UPSTREAM_ERROR',
  'TIMEOUT',
  'CONTENT_UNREADABLE',
  'BAD_PAYLOAD',
  'PAGE_UNAVAILABLE',
] as const;
export type UpstreamFailureKind = (typeof UPSTREAM_FAILURE_KINDS)[number];

/** An adapter's failure. `detail` goes to logs only; it must never carry a secret. */
export class UpstreamFailure extends Error {
  readonly kind: UpstreamFailureKind;
  /** For BAD_PAYLOAD / PAGE_UNAVAILABLE: the sentence the client sees (what to change). */
  readonly clientMessage: string | undefined;
  /** Retry-After hint in milliseconds, when the upstream gave one. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: UpstreamFailureKind, detail: string, opts: { clientMessage?: string; retryAfterMs?: number } = {}) {
    super(detail);
    this.name = 'UpstreamFailure';
    this.kind = kind;
    this.clientMessage = opts.clientMessage;
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** The one mapping from an adapter's failure kind to the task-level code. */
export function taskCodeFor(kind: UpstreamFailureKind): TaskErrorCode {
  switch (kind) {
    case 'TIMEOUT':
      return 'ENGINE_TIMEOUT';
    case 'NO_ANSWER':
      return 'ENGINE_NO_RESULT';
    case 'BAD_PAYLOAD':
      return 'BAD_PAYLOAD';
    case 'PAGE_UNAVAILABLE':
      return 'PAGE_UNAVAILABLE';
    default:
      return 'ENGINE_FAILED';
  }
}

/**
 * Failures that no retry can fix (a PDF stays a PDF; an absent answer stays absent; an exhausted quota stays
 * exhausted).
 */
export function isPermanent(kind: UpstreamFailureKind): boolean {
  return (
    kind === 'BAD_PAYLOAD' ||
    kind === 'PAGE_UNAVAILABLE' ||
    kind === 'NO_ANSWER' ||
    kind === 'CONTENT_UNREADABLE' ||
    kind === 'PROVIDER_REFUSED'
  );
}

/** Failures that mean the exit address (or account) should rest before it is used again. */
export function coolsDownExit(kind: UpstreamFailureKind): boolean {
  return kind === 'UPSTREAM_BLOCKED' || kind === 'RATE_LIMITED';
}
