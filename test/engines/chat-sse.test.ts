import { describe, expect, it } from 'vitest';
import { parseResponsesPayload } from '../../src/engines/chat/openai-responses-parser.js';
import { parseResponsesObject } from '../../src/engines/chat/openai-responses-parser.js';
import { finalFromStream } from '../../src/engines/chat/openai-stream.js';
import { SseDecoder, decodeSse, type SseEvent } from '../../src/engines/chat/sse-decoder.js';
import { failureOf, fixtureBytes, fixtureJson } from '../fixtures/chat/load.js';

/** Feeds a body in pieces of `size` bytes, splitting lines, CRLF pairs and UTF-8 characters. */
function decodeInPieces(body: Buffer, size: number): SseEvent[] {
  const d = new SseDecoder();
  const out: SseEvent[] = [];
  for (let i = 0; i < body.length; i += size) out.push(...d.pushBytes(body.subarray(i, i + size)));
  out.push(...d.end());
  return out;
}

describe('SSE decoder', () => {
  it('joins data lines, ignores comments, names events and dispatches at blank lines', () => {
    const events = decodeSse([': hello\n\nevent: a\ndata: one\ndata: two\n\ndata:three\nid: 7\n\n']);
    expect(events).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: 'message', data: 'three', id: '7' },
    ]);
  });

  it('buffers across chunks, including a CRLF split between chunks', () => {
    const d = new SseDecoder();
    expect(d.push('event: x\r')).toEqual([]);
    expect(d.push('\ndata: {"a"')).toEqual([]);
    expect(d.push(':1}\r')).toEqual([]);
    expect(d.push('\n\r\n')).toEqual([{ event: 'x', data: '{"a":1}' }]);
  });

  it('drops an event the stream did not terminate', () => {
    expect(decodeSse(['data: complete\n\ndata: half'])).toEqual([{ event: 'message', data: 'complete' }]);
  });

  it('decodes the same events whatever the chunk size (multi-byte text, CRLF transcript)', () => {
    for (const name of ['openai-stream-happy.sse', 'openai-stream-emoji-korean.sse']) {
      const body = fixtureBytes(name);
      const whole = decodeSse([body]);
      expect(whole.length).toBeGreaterThan(10);
      for (const size of [1, 3, 7, 64]) expect(decodeInPieces(body, size)).toEqual(whole);
    }
  });
});

describe('Responses API stream', () => {
  it('builds the result from response.completed, the same as the JSON body', () => {
    const r = parseResponsesPayload('text/event-stream; charset=utf-8', fixtureBytes('openai-stream-happy.sse'));
    const json = parseResponsesObject(fixtureJson('openai-responses-happy.json'));
    expect(r.markdown).toBe(json.markdown);
    expect(r.text).toBe(json.text);
    expect(r.sources).toEqual(json.sources);
    const raw = r.raw as {
      transport: string;
      stream: { annotationEvents: number; eventTypes: Record<string, number> };
      response: { id: string };
    };
    expect(raw.transport).toBe('sse');
    expect(raw.response.id).toBe('resp_68a1c0ffee');
    expect(raw.stream.annotationEvents).toBe(4);
    expect(raw.stream.eventTypes['response.completed']).toBe(1);
  });

  it('keeps code-point offsets through a CRLF stream fed byte by byte', () => {
    const { final, diagnostics } = finalFromStream(decodeInPieces(fixtureBytes('openai-stream-emoji-korean.sse'), 1));
    expect(parseResponsesObject(final, diagnostics).markdown).toBe(
      '🗼 에펠탑은 높이가 330m입니다.[1] 😀👍 1889년에 완공되었습니다.[1][2] 🇫🇷 파리의 상징입니다.[2]',
    );
  });

  it('a stream cut before response.completed is UPSTREAM_ERROR, not a partial answer', () => {
    const f = failureOf(
      () => parseResponsesPayload('text/event-stream', fixtureBytes('openai-stream-cut.sse')),
      'UPSTREAM_ERROR',
    );
    expect(f.message).toMatch(/before response\.completed/);
  });

  it('response.failed and error events are UPSTREAM_ERROR', () => {
    const failed = failureOf(
      () => parseResponsesPayload('text/event-stream', fixtureBytes('openai-stream-failed.sse')),
      'UPSTREAM_ERROR',
    );
    expect(failed.message).toMatch(/response\.failed \(after \d+ events\) server_error/);
    const error = failureOf(
      () => parseResponsesPayload('text/event-stream', fixtureBytes('openai-stream-error.sse')),
      'UPSTREAM_ERROR',
    );
    expect(error.message).toMatch(/error event/);
  });

  it('malformed event JSON is UPSTREAM_ERROR', () => {
    failureOf(() => finalFromStream(decodeSse(['event: response.created\ndata: {not json\n\n'])), 'UPSTREAM_ERROR');
  });
});
