import type { HttpResponse, HttpTransport } from '../../transport/http-transport.js';
import { openAiErrorInfo } from '../../engines/chat/openai-errors.js';
import type { TokenUsage } from './meter.js';
import { trimEndChars } from '../text/norm.js';

/**
 * One call to an OpenAI-compatible `/v1/chat/completions` endpoint with a JSON-schema response
 * format (`response_format: {type: "json_schema"}`), at temperature 0 (§0 determinism). The key is
 * sent in the Authorization header only; nothing this module returns or logs contains it.
 */
export interface ModelEndpoint {
  baseUrl: string;
  model: string;
  apiKey: string;
  headers: Record<string, string>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  schemaName: string;
  schema: Record<string, unknown>;
  maxOutputTokens: number;
}

export type ChatOutcome =
  | { kind: 'ok'; content: string; usage: TokenUsage | null }
  | { kind: 'model_error'; detail: string; usage: TokenUsage | null }
  | { kind: 'timeout'; detail: string };

/** `https://api.openai.com` and `https://host/v1` both work as the configured base. */
function completionsUrl(baseUrl: string): string {
  const base = trimEndChars(baseUrl, '/');
  return /\/v1$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

function usageOf(body: unknown): TokenUsage | null {
  const u = typeof body === 'object' && body !== null ? (body as { usage?: unknown }).usage : undefined;
  if (typeof u !== 'object' || u === null) return null;
  const o = u as Record<string, unknown>;
  const input = o.prompt_tokens;
  const output = o.completion_tokens;
  return typeof input === 'number' && typeof output === 'number' && input >= 0 && output >= 0
    ? { input, output }
    : null;
}

function contentOf(body: unknown): { content: string | null; refusal: boolean } {
  const choices = typeof body === 'object' && body !== null ? (body as { choices?: unknown }).choices : undefined;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = typeof first === 'object' && first !== null ? (first as { message?: unknown }).message : undefined;
  if (typeof message !== 'object' || message === null) return { content: null, refusal: false };
  const m = message as Record<string, unknown>;
  return {
    content: typeof m.content === 'string' ? m.content : null,
    refusal: typeof m.refusal === 'string' && m.refusal !== '',
  };
}

function parseJson(res: HttpResponse): unknown {
  try {
    return res.json();
  } catch {
    return null;
  }
}

export async function chatCompletion(
  http: HttpTransport,
  signal: AbortSignal,
  endpoint: ModelEndpoint,
  req: ChatRequest,
  timeoutMs: number,
): Promise<ChatOutcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const body = {
    model: endpoint.model,
    temperature: 0,
    max_tokens: req.maxOutputTokens,
    messages: req.messages,
    response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } },
  };
  let res: HttpResponse;
  try {
    res = await http.request({
      method: 'POST',
      url: completionsUrl(endpoint.baseUrl),
      headers: {
        ...endpoint.headers,
        // An empty key sends no Authorization header: a local server without authentication needs none.
        ...(endpoint.apiKey === '' ? {} : { authorization: `Bearer ${endpoint.apiKey}` }),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      followRedirects: false,
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (e) {
    if (signal.aborted) throw e; // the attempt itself is ending: the runner reports it
    if (timeout.aborted) return { kind: 'timeout', detail: `no answer within ${timeoutMs} ms` };
    return { kind: 'model_error', detail: 'network error reaching the model endpoint', usage: null };
  }
  const json = parseJson(res);
  if (res.status < 200 || res.status >= 300) {
    // Error code only: provider messages can quote a masked key.
    const info = openAiErrorInfo(json);
    return {
      kind: 'model_error',
      detail: `model endpoint answered HTTP ${res.status}${info.code ? ` (${info.code})` : ''}`,
      usage: null,
    };
  }
  const usage = usageOf(json);
  const { content, refusal } = contentOf(json);
  if (refusal) return { kind: 'model_error', detail: 'the model refused the request', usage };
  // A body without message content is malformed output: the caller's repair step handles it.
  return { kind: 'ok', content: content ?? '', usage };
}
