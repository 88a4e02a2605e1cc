/**
 * Request-level error catalogue: every error a client can get from the HTTP API, with its stable
 * code, HTTP status and default message. Nothing else invents request error codes.
 */
const REQUEST_ERRORS = Object.freeze({
  MISSING_API_KEY: { status: 401, message: 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.' },
  VALIDATION_ERROR: { status: 400, message: 'The request is invalid.' },
  USE_DEDICATED_ENDPOINT: { status: 400, message: 'This task type has its own endpoint.' },
  REGION_UNSUPPORTED: { status: 422, message: 'This engine can never serve the requested country.' },
  REGION_UNAVAILABLE: {
    status: 422,
    message: 'No account or exit-address capacity for the requested country at present; see GET /capacity.',
  },
  ENGINE_UNAVAILABLE: {
    status: 422,
    message: 'This engine cannot serve on this service (switched off or not configured); see GET /capacity.',
  },
  RESOURCE_ALREADY_EXISTS: { status: 409, message: 'A task with this idempotencyKey already exists.' },
  TASK_NOT_TERMINAL: { status: 409, message: 'The task has not finished; its webhook is sent when it does.' },
  DELIVERY_IN_PROGRESS: { status: 409, message: "The task's webhook delivery is still under way; see its log." },
  BATCH_NOT_COMPLETED: {
    status: 409,
    message: 'Some tasks of the batch have not finished; its webhook is sent when they have.',
  },
  MONITOR_RUN_IN_PROGRESS: {
    status: 409,
    message: "The monitor's last run has not finished; start another when it has (see its runs).",
  },
  COMPETITOR_EXISTS: {
    status: 409,
    message: 'The monitor already tracks this name, as its brand or a competitor.',
  },
  NO_WEBHOOK: { status: 422, message: 'The task was submitted without a webhook.' },
  WEBHOOK_SECRET_CONFIGURED: {
    status: 409,
    message: "This account's webhook secrets are configured (AEQ_WEBHOOK_SECRET); the operator rotates them there.",
  },
  WEBHOOK_SECRET_UNREADABLE: {
    status: 409,
    message: "The account's webhook secret was sealed with another secrets key (AEQ_SECRETS_KEY); rotate it.",
  },
  ACCOUNT_EXISTS: { status: 409, message: 'An account with this name exists.' },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'No account with this name.' },
  KEY_NOT_FOUND: { status: 404, message: 'No key with this prefix.' },
  SECRETS_KEY_MISSING: { status: 422, message: 'This service has no key to seal secrets with (AEQ_SECRETS_KEY).' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  HEADERS_TOO_LARGE: {
    status: 431,
    message: 'The request line and headers are over the 16 KiB limit: send the key and a short URL.',
  },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not sent in time.' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'No task with this id (unknown or expired).' },
  ARTIFACT_NOT_FOUND: { status: 404, message: 'The task kept no artefact of this name; see its list of artefacts.' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: "The requested range starts beyond the artefact's last byte." },
  ENQUEUE_ERROR: { status: 500, message: 'The task could not be queued; retry.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the body as application/json.' },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this route.' },
  NOT_READY: { status: 503, message: 'The service is not ready.' },
  FORBIDDEN_HOST: {
    status: 403,
    message: 'This service listens on loopback: /mcp answers only under a loopback Host name (DNS rebinding guard).',
  },
  FORBIDDEN_ORIGIN: {
    status: 403,
    message: "A browser page of another origin may not call /mcp (the Origin is not this service's).",
  },
  MCP_BUSY: { status: 503, message: 'Too many MCP requests in flight on this process; retry in a moment.' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error.' },
} as const);

export type RequestErrorCode = keyof typeof REQUEST_ERRORS;

export interface FieldProblem {
  field: string;
  message: string;
}

export type ErrorDetails = FieldProblem[] | Record<string, unknown>;

/** A request-level failure; the HTTP layer renders it as the error envelope. */
export class RequestError extends Error {
  readonly code: RequestErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;

  /** `status` overrides the catalogue's only where the contract says so (monitor size: 422). */
  constructor(code: RequestErrorCode, message?: string, details?: ErrorDetails, status?: number) {
    super(message ?? REQUEST_ERRORS[code].message);
    this.code = code;
    this.status = status ?? REQUEST_ERRORS[code].status;
    this.details = details;
  }
}

export function validationError(problems: FieldProblem[], message?: string): RequestError {
  const first = problems[0];
  const summary =
    message ?? (first ? `${first.field || 'body'}: ${first.message}` : REQUEST_ERRORS.VALIDATION_ERROR.message);
  return new RequestError('VALIDATION_ERROR', summary, problems);
}

export interface ErrorObject {
  code: string;
  message: string;
  details?: ErrorDetails;
  timestamp: string;
}

export function errorObject(err: RequestError, now: Date = new Date()): ErrorObject {
  const o: ErrorObject = { code: err.code, message: err.message, timestamp: now.toISOString() };
  if (err.details !== undefined) o.details = err.details;
  return o;
}
