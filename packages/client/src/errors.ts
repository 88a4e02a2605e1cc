/**
 * A request the service refused: its error envelope (`{success: false, error: {code, message, details}}`) with the
 * HTTP status. `code` is stable (the contract's list); a task that ended FAILED is a result, never an AeqError.
 */
export class AeqError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AeqError';
  }

  /** From an answer that is not 2xx: its envelope when it has one, else a code of the client's own. */
  static fromAnswer(status: number, body: unknown): AeqError {
    const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    if (e && typeof e.code === 'string')
      return new AeqError(e.code, status, typeof e.message === 'string' ? e.message : e.code, e.details);
    return new AeqError('HTTP_ERROR', status, `HTTP ${status} without an error envelope`);
  }
}
