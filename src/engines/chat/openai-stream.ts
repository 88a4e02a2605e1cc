import { UpstreamFailure } from '../../domain/engine-errors.js';
import { streamedOpenAiError } from './openai-errors.js';
import type { SseEvent } from './sse-decoder.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The final response object of a Responses API stream and what the stream looked like. */
export interface StreamOutcome {
  final: Obj;
  diagnostics: {
    transport: 'sse';
    stream: {
      events: number;
      eventTypes: Record<string, number>;
      deltaChars: number;
      annotationEvents: number;
      lastSequenceNumber: number | null;
    };
  };
}

/**
 * Reads a Responses API event stream (docs/engines.md#openai-responses). Deltas are only counted: the normalised
 * result is built from the full object in `response.completed` (or `response.incomplete`), which
 * is simpler and cannot drift from what the deltas spelled. A stream that ends without either is
 * an upstream fault, never a partial success. An error the stream reports (`error`,
 * `response.failed`) is classified like the same error as a JSON body (streamedOpenAiError): a
 * streamed `insufficient_quota` is as permanent as the 429 that carries it.
 */
export function finalFromStream(events: Iterable<SseEvent>): StreamOutcome {
  const eventTypes: Record<string, number> = {};
  let count = 0;
  let deltaChars = 0;
  let annotationEvents = 0;
  let lastSequenceNumber: number | null = null;
  const diagnostics = () => ({
    transport: 'sse' as const,
    stream: { events: count, eventTypes, deltaChars, annotationEvents, lastSequenceNumber },
  });

  for (const ev of events) {
    if (ev.data === '[DONE]') continue; // not sent by the Responses API, harmless if a proxy adds it
    let data: unknown;
    try {
      data = JSON.parse(ev.data);
    } catch {
      throw new UpstreamFailure('UPSTREAM_ERROR', `responses stream: malformed JSON in a ${ev.event} event`);
    }
    if (!isObj(data))
      throw new UpstreamFailure('UPSTREAM_ERROR', `responses stream: ${ev.event} event data is not an object`);
    // A bare `{"error": {...}}` data line is how OpenAI-compatible servers (and Chat Completions) report a failure
    // mid-stream; it is the same error as an `error` event.
    const type = typeof data.type === 'string' ? data.type : isObj(data.error) ? 'error' : ev.event;
    count++;
    eventTypes[type] = (eventTypes[type] ?? 0) + 1;
    if (typeof data.sequence_number === 'number') lastSequenceNumber = data.sequence_number;

    switch (type) {
      case 'response.output_text.delta':
        if (typeof data.delta === 'string') deltaChars += data.delta.length;
        break;
      case 'response.output_text.annotation.added':
        annotationEvents++;
        break;
      case 'response.completed':
      case 'response.incomplete':
        if (!isObj(data.response))
          throw new UpstreamFailure('LAYOUT_CHANGED', `responses stream: ${type} without a response object`);
        return { final: data.response, diagnostics: diagnostics() };
      case 'response.failed':
        throw streamedOpenAiError(
          isObj(data.response) ? data.response.error : undefined,
          `responses stream response.failed (after ${count} events)`,
        );
      case 'error':
        throw streamedOpenAiError(errorOfEvent(data), `responses stream error event (after ${count} events)`);
      default:
        break;
    }
  }
  throw new UpstreamFailure(
    'UPSTREAM_ERROR',
    `responses stream: ended before response.completed after ${count} events (${deltaChars} text chars)`,
  );
}

/**
 * The error object of an `error` event: documented flat (`{type: "error", code, message, param}`),
 * recorded nested (`{type: "error", error: {type, code, message, param}}`), or a bare `{error}`.
 */
function errorOfEvent(data: Obj): unknown {
  if (isObj(data.error)) return data.error;
  return { code: data.code, message: data.message };
}
