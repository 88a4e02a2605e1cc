import { AeqError } from '@aeq/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { coerceError } from '../domain/coerce-error.js';

/**
 * A tool's answer: the JSON as text (what every MCP client shows a model) and the same object as structured
 * content (what a program reads). A refusal is a result with `isError: true`, never a thrown error: the model reads
 * the API's code and message and can correct its call, and the session goes on.
 */
export function answer(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * A refused call: `code` is the API's (docs/contract.md, Request errors) or one of the tool layer's own, UNKNOWN_TOOL,
 * VALIDATION_ERROR (the arguments against the input schema) and INTERNAL_ERROR (docs/mcp.md, Errors).
 */
export function refusal(code: string, message: string, details?: unknown): CallToolResult {
  const error = { code, message, ...(details === undefined ? {} : { details }) };
  return { content: [{ type: 'text', text: JSON.stringify({ error }) }], structuredContent: { error }, isError: true };
}

/** What the model can do next about a refusal of the API, by its stable code. */
const NEXT_STEP: Record<string, string> = {
  RESOURCE_NOT_FOUND:
    'No such id in this account: it is unknown, belongs to another account, or is past the 24-hour retention.',
  VALIDATION_ERROR: 'Fix the fields named in details and call again.',
  REGION_UNSUPPORTED: 'This engine never serves that country: pick another country or engine.',
  REGION_UNAVAILABLE: 'No capacity for that country now: try another country, or later.',
  ENGINE_UNAVAILABLE: 'This engine is off on this service: pick another engine.',
  RESOURCE_ALREADY_EXISTS: 'This idempotencyKey was used before: use get_task with the existing task, or a new key.',
  MISSING_API_KEY: 'The API key was refused (revoked or expired): the user must configure a valid AEQ_API_KEY.',
  NETWORK_ERROR: 'The aeq service did not answer: check AEQ_URL and that the service runs, then retry.',
};

/** The refusal for a failed call: the API's own code, message and details, and the next step when one is known. */
export function refusalOf(e: unknown): CallToolResult {
  if (e instanceof AeqError) {
    const next = NEXT_STEP[e.code];
    return refusal(e.code, next ? `${e.message} ${next}` : e.message, e.details);
  }
  // A bug of this layer: its message only (never a stack or a request, which could carry the key).
  return refusal('INTERNAL_ERROR', `The tool failed: ${coerceError(e).message}`);
}
