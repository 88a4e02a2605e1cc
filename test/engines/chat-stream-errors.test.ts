/**
 * An error inside an OpenAI Responses stream ends the attempt as the same error does as a JSON body
 * (docs/engines.md#openai-responses). Inputs are real: every OpenAI-shaped error body of the chat
 * corpus (test/fixtures/real/chat/errors, with the status each was recorded with, from cases.json),
 * re-sent in each form a stream carries an error in; and SwiftAgent's recorded `insufficient_quota`
 * stream with the 429 body its own tests pair it with.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPermanent, type UpstreamFailure } from '../../src/domain/engine-errors.js';
import { assertOpenAiOk } from '../../src/engines/chat/openai-errors.js';
import { parseResponsesPayload } from '../../src/engines/chat/openai-responses-parser.js';
import type { HttpResponse } from '../../src/transport/http-transport.js';

const DIR = new URL('../fixtures/real/chat/', import.meta.url);
const read = (file: string) => fs.readFileSync(new URL(file, DIR));

interface Case {
  id: string;
  engine: string;
  file: string;
  status: number;
  contentType: string;
  headers?: Record<string, string>;
  bodyTwin?: string;
}
const { cases } = JSON.parse(read('cases.json').toString('utf8')) as { cases: Case[] };

/** The corpus' error bodies in the OpenAI shape (OpenAI and Perplexity), as recorded. */
const bodies = cases.filter(
  (c) => c.status >= 400 && (c.engine === 'CHATBOT_A' || c.engine === 'ANSWER_ENGINE_A') && c.file.endsWith('.json'),
);

/**
 * The one body whose kind only its HTTP status tells (a 429 with no code, `type: "server_error"`): a stream has
 * no such status, so the same object streamed is a server fault. Both are retried.
 */
const STATUS_ONLY = new Set(['err-openai-429-model-overloaded']);

function httpAnswer(c: Case): HttpResponse {
  const body = read(c.file);
  return {
    status: c.status,
    headers: { 'content-type': c.contentType, ...c.headers },
    url: 'https://api.example.test/v1/responses',
    body,
    text: () => body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')) as unknown,
  };
}

function thrown(fn: () => unknown): UpstreamFailure {
  try {
    fn();
  } catch (e) {
    return e as UpstreamFailure;
  }
  throw new Error('nothing was thrown');
}

const created = { type: 'response.created', sequence_number: 0, response: { id: 'resp_x', status: 'in_progress' } };

/** The stream forms an error object arrives in, each after a `response.created`. */
function streamForms(error: Record<string, unknown>): Record<string, string> {
  const frame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const head = frame('response.created', created);
  const forms: Record<string, string> = {};
  // The documented flat event has `code` and `message` only (its `type` is "error"): a body whose code is not a
  // string (Perplexity's numeric one) names its error by `type`, which this form cannot carry.
  if (typeof error.code === 'string') {
    const flat = { type: 'error', sequence_number: 1, code: error.code, message: error.message, param: null };
    forms['error event, flat (documented)'] = head + frame('error', flat);
  }
  return {
    ...forms,
    'error event, nested (recorded)': head + frame('error', { type: 'error', sequence_number: 1, error }),
    'response.failed':
      head + frame('response.failed', { type: 'response.failed', response: { status: 'failed', error } }),
    'bare {"error"} data line': `${head}data: ${JSON.stringify({ error })}\n\n`,
  };
}

describe('streamed OpenAI errors are classified like their JSON bodies', () => {
  it('uses every OpenAI-shaped error body of the corpus', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(10);
  });

  for (const c of bodies) {
    it(`${c.id} (${c.status}) streamed in each form`, () => {
      const bodyFailure = thrown(() => assertOpenAiOk(httpAnswer(c), c.engine));
      const error = (JSON.parse(read(c.file).toString('utf8')) as { error: Record<string, unknown> }).error;
      for (const [form, sse] of Object.entries(streamForms(error))) {
        const streamed = thrown(() => parseResponsesPayload('text/event-stream', Buffer.from(sse)));
        if (STATUS_ONLY.has(c.id)) {
          expect([bodyFailure.kind, streamed.kind], form).toEqual(['RATE_LIMITED', 'UPSTREAM_ERROR']);
          expect(isPermanent(streamed.kind)).toBe(false);
          continue;
        }
        expect(streamed.kind, `${form}: ${streamed.message}`).toBe(bodyFailure.kind);
        expect(streamed.clientMessage, form).toBe(bodyFailure.clientMessage);
        // The same scrubbed code and message as the body's detail, never the raw provider message.
        const tail = bodyFailure.message.slice(`${c.engine} answered ${c.status}`.length).replace(/ \(.*\)$/, '');
        expect(streamed.message, form).toContain(tail.trim());
        expect(streamed.message, form).not.toMatch(/sk-[A-Za-z0-9]{6,}/);
      }
    });
  }
});

describe('recorded error streams against their JSON-body twins (cases.json bodyTwin)', () => {
  const streams = cases.filter((c) => c.bodyTwin !== undefined);

  it('has recorded streams for a permanent refusal, a rate limit and a prompt too long', () => {
    expect(streams.length).toBeGreaterThanOrEqual(3);
  });

  for (const c of streams) {
    it(`${c.id} ends as ${c.bodyTwin}`, () => {
      const twin = cases.find((x) => x.id === c.bodyTwin);
      if (!twin) throw new Error(`${c.bodyTwin} is not in cases.json`);
      const fromBody = thrown(() => assertOpenAiOk(httpAnswer(twin), twin.engine));
      const streamed = thrown(() => parseResponsesPayload(c.contentType, read(c.file)));
      expect(streamed.kind, streamed.message).toBe(fromBody.kind);
      expect(streamed.clientMessage).toBe(fromBody.clientMessage);
    });
  }
});

describe("SwiftAgent's recorded insufficient_quota stream and its 429 body", () => {
  const stream = read('errors/openai-stream-error-insufficient-quota-swiftagent.sse');
  const body: Case = {
    id: 'swiftagent-429',
    engine: 'CHATBOT_A',
    file: 'errors/openai-429-insufficient-quota-swiftagent.json',
    status: 429,
    contentType: 'application/json',
  };

  it('the streamed error event is a permanent refusal, as the 429 body is', () => {
    const streamed = thrown(() => parseResponsesPayload('text/event-stream; charset=utf-8', stream));
    const fromBody = thrown(() => assertOpenAiOk(httpAnswer(body), 'CHATBOT_A'));
    expect(fromBody.kind).toBe('PROVIDER_REFUSED');
    expect(streamed.kind).toBe('PROVIDER_REFUSED');
    expect(isPermanent(streamed.kind)).toBe(true);
    expect(streamed.message).toMatch(
      /error event \(after 3 events\) insufficient_quota: You exceeded your current quota/,
    );
    expect(streamed.retryAfterMs).toBeUndefined();
  });

  it("the recording's closing response.failed alone (its failed response object, too) is the same refusal", () => {
    // The recording ends without the blank line that dispatches its last event, so a reader that follows
    // the SSE rules never sees it; it is re-framed here to check the response.failed path on real data.
    const text = stream.toString('utf8');
    const lastData = text.slice(text.lastIndexOf('data: ') + 'data: '.length);
    const failedEvent = JSON.parse(lastData) as { type: string; response: { status: string } };
    expect(failedEvent.type).toBe('response.failed');
    const framed = `event: response.failed\ndata: ${lastData}\n\n`;
    const streamed = thrown(() => parseResponsesPayload('text/event-stream', Buffer.from(framed)));
    expect(streamed.kind).toBe('PROVIDER_REFUSED');
    expect(streamed.message).toMatch(/response\.failed .*insufficient_quota/);
    const asJson = thrown(() =>
      parseResponsesPayload('application/json', Buffer.from(JSON.stringify(failedEvent.response))),
    );
    expect(asJson.kind).toBe('PROVIDER_REFUSED');
  });
});
