/** A command-line mistake: printed as `aeq: message` with exit status 2, never as a stack. */
export class UsageError extends Error {}

/** The client's AeqError, recognised without loading the client (the service's commands do not need it). */
export function isAeqError(e: unknown): e is Error & { code: string; status: number } {
  return e instanceof Error && e.name === 'AeqError' && typeof (e as { code?: unknown }).code === 'string';
}

/** A study that cannot go on as asked (its files, or a service that does not know its tasks): exit status 1. */
export class StudyError extends Error {}
