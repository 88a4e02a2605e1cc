import type { ValidateFunction } from 'ajv';
import type { HttpTransport } from '../../transport/http-transport.js';
import { chatCompletion, type ChatMessage, type ModelEndpoint } from './chat-client.js';
import { estimateTokens, TokenMeter, type ModelPurpose, type TokenUsage } from './meter.js';
import { PURPOSE_SCHEMAS, validatorFor, wireSchema } from './schemas.js';

/**
 * The model as the analysis sees it (§2.10, §2.11): one structured call per step, its JSON output
 * validated against the purpose's schema, one repair retry when it is not valid, every call metered
 * and kept inside the task's token budget. Calls run one at a time in pipeline order, so budget
 * decisions (and so results) never depend on timing. After a timeout the model is not asked again
 * in this task: the remaining steps report `timeout` instead of waiting once more.
 */
export type ModelFailureStatus = 'model_error' | 'timeout' | 'invalid_output' | 'budget_exceeded';

export type ModelResult<T> = { ok: true; value: T } | { ok: false; status: ModelFailureStatus; message: string };

export interface ModelSessionOptions {
  http: HttpTransport;
  signal: AbortSignal;
  endpoint: ModelEndpoint;
  timeoutMs: number;
  tokenLimit: number;
  maxOutputTokens: Readonly<Record<ModelPurpose, number>>;
}

const SYSTEM_RULES =
  'You are a careful annotator for an answer-analysis service. The user message is a JSON object. ' +
  'Reply with one JSON object that matches the response schema exactly and nothing else. ' +
  'Every "quote" you return must be copied character for character from the text it refers to.';

export class ModelSession {
  readonly meter: TokenMeter;
  private timedOut = false;

  constructor(private readonly opts: ModelSessionOptions) {
    this.meter = new TokenMeter(opts.tokenLimit, opts.endpoint.model);
  }

  get model(): string {
    return this.opts.endpoint.model;
  }

  /** Asks for one JSON object of `purpose`'s schema; `instructions` says what to do with `input`. */
  async call<T>(purpose: ModelPurpose, instructions: string, input: unknown): Promise<ModelResult<T>> {
    const validate = validatorFor(purpose) as ValidateFunction<T>;
    const messages: ChatMessage[] = [
      { role: 'system', content: `${SYSTEM_RULES}\n\n${instructions}` },
      { role: 'user', content: JSON.stringify(input) },
    ];
    const first = await this.once(purpose, messages);
    if (!first.ok) return first;
    const checked = check(first.value, validate);
    if (checked.ok) return checked;
    // One repair retry: the model sees its own answer and what was wrong with it.
    const repair: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: first.value.slice(0, 20_000) },
      {
        role: 'user',
        content:
          `That reply is not valid (${checked.message}). Reply ` +
          `again with only the JSON object that matches the schema.`,
      },
    ];
    const second = await this.once(purpose, repair);
    if (!second.ok) return second;
    const again = check(second.value, validate);
    return again.ok
      ? again
      : {
          ok: false,
          status: 'invalid_output',
          message: `${purpose}: output still invalid after one repair (${again.message})`,
        };
  }

  private async once(purpose: ModelPurpose, messages: ChatMessage[]): Promise<ModelResult<string>> {
    if (this.timedOut)
      return {
        ok: false,
        status: 'timeout',
        message: `${purpose}: not asked after an earlier model timeout in this task`,
      };
    const maxOutput = this.opts.maxOutputTokens[purpose];
    const inputEstimate = messages.reduce((a, m) => a + estimateTokens(m.content), 0) + 20;
    if (!this.meter.fits(inputEstimate + maxOutput)) {
      return {
        ok: false,
        status: 'budget_exceeded',
        message:
          `${purpose}: the call would exceed the token budget ` +
          `(${this.meter.tokensUsed} of ${this.meter.tokenLimit} used)`,
      };
    }
    const out = await chatCompletion(
      this.opts.http,
      this.opts.signal,
      this.opts.endpoint,
      {
        messages,
        schemaName: purpose,
        schema: wireSchema(PURPOSE_SCHEMAS[purpose]) as Record<string, unknown>,
        maxOutputTokens: maxOutput,
      },
      this.opts.timeoutMs,
    );
    if (out.kind === 'timeout') {
      this.timedOut = true;
      this.meter.record(purpose, { input: 0, output: 0 }, { input: 0, output: 0 });
      return { ok: false, status: 'timeout', message: `${purpose}: ${out.detail}` };
    }
    const estimate: TokenUsage = { input: inputEstimate, output: out.kind === 'ok' ? estimateTokens(out.content) : 0 };
    // Without provider usage an answer is estimated (`estimated: true`); a failed call without usage consumed
    // nothing we can know.
    this.meter.record(purpose, out.usage, out.kind === 'ok' ? estimate : { input: 0, output: 0 });
    if (out.kind === 'model_error') return { ok: false, status: 'model_error', message: `${purpose}: ${out.detail}` };
    return { ok: true, value: out.content };
  }
}

function check<T>(content: string, validate: ValidateFunction<T>): ModelResult<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(content));
  } catch {
    return { ok: false, status: 'invalid_output', message: 'not JSON' };
  }
  if (!validate(parsed)) {
    const first = validate.errors?.[0];
    return {
      ok: false,
      status: 'invalid_output',
      message: `schema: ${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`.slice(0, 200),
    };
  }
  return { ok: true, value: parsed };
}

/**
 * Some compatible servers wrap JSON in a Markdown fence despite the response format: the text
 * between a first line of ```` ``` ```` or ```` ```json ```` and a last line of ```` ``` ````. Found by index,
 * not by a pattern, whose runs of whitespace and content could be split in quadratically many ways.
 */
function stripFence(s: string): string {
  const t = s.trim();
  const open = t.indexOf('\n');
  if (!t.startsWith('```') || !t.endsWith('\n```') || open < 0 || open >= t.length - 4) return s;
  const info = t.slice(3, open).trim();
  return info === '' || info === 'json' ? t.slice(open + 1, t.length - 4) : s;
}
