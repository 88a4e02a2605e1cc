import { describe, expect, it } from 'vitest';
import { responsesRequest } from '../../src/engines/chat/chatbot-a.js';
import { parseResponsesPayload } from '../../src/engines/chat/openai-responses-parser.js';
import { assertOpenAiOk } from '../../src/engines/chat/openai-errors.js';
import { coolsDownExit, isPermanent } from '../../src/domain/engine-errors.js';
import { parseResponsesObject, stripOpenAiTracking } from '../../src/engines/chat/openai-responses-parser.js';
import { sliceCodePoints } from '../../src/engines/chat/text-offsets.js';
import { failureOf, fixtureBytes, fixtureJson, responseFrom } from '../fixtures/chat/load.js';

describe('OpenAI Responses parser (final object)', () => {
  it('builds markdown with [n] at annotation ends and sources by first start_index', () => {
    const r = parseResponsesObject(fixtureJson('openai-responses-happy.json'));
    expect(r.sources).toEqual([
      { position: 1, url: 'https://docs.pydantic.dev/latest/', label: 'Pydantic' },
      { position: 2, url: 'https://github.com/pydantic/pydantic/releases', label: 'Releases · pydantic/pydantic' },
      { position: 3, url: 'https://docs.pydantic.dev/latest/migration/?lang=en', label: 'Migration Guide - Pydantic' },
    ]);
    expect(r.markdown).toBe(
      'Pydantic v2 was released in June 2023 and rewrote its validation core in Rust ([docs.pydantic.dev](https://docs.pydantic.dev/latest/))[1].' +
        ' Several methods were renamed, for example `parse_obj` became `model_validate` ([github.com](https://github.com/pydantic/pydantic/releases))[2].' +
        ' The **migration guide** lists every change ([docs.pydantic.dev](https://docs.pydantic.dev/latest/migration/?lang=en))[1][3].',
    );
    expect(r.text).toBe(
      'Pydantic v2 was released in June 2023 and rewrote its validation core in Rust (docs.pydantic.dev).' +
        ' Several methods were renamed, for example parse_obj became model_validate (github.com).' +
        ' The migration guide lists every change (docs.pydantic.dev).',
    );
    expect(r.text).not.toMatch(/\[\d\]|utm_source/);
  });

  it('keeps the whole response and the consulted sources in raw', () => {
    const body = fixtureJson('openai-responses-happy.json');
    const raw = parseResponsesObject(body, { transport: 'json' }).raw as Record<string, unknown>;
    expect(raw.response).toBe(body);
    expect(raw.offsetUnit).toBe('code_point');
    expect(raw.transport).toBe('json');
    expect(raw.consultedSources).toEqual([
      'https://docs.pydantic.dev/latest/',
      'https://github.com/pydantic/pydantic/releases',
      'https://docs.pydantic.dev/latest/migration/',
      'https://www.reddit.com/r/Python/comments/14abc/pydantic_v2/',
    ]);
  });

  it('counts annotation offsets in code points (emoji and Korean)', () => {
    const body = fixtureJson('openai-responses-emoji-korean.json') as {
      output: Array<{ content?: Array<{ text: string }> }>;
    };
    const text = body.output[1]?.content?.[0]?.text as string;
    // The fixture's second span is [20, 38) in code points; as UTF-16 units it would start inside "👍".
    expect(sliceCodePoints(text, 20, 38)).toBe('😀👍 1889년에 완공되었습니다.');
    expect(text.slice(20, 38)).not.toBe('😀👍 1889년에 완공되었습니다.');

    const r = parseResponsesObject(body);
    expect(r.markdown).toBe(
      '🗼 에펠탑은 높이가 330m입니다.[1] 😀👍 1889년에 완공되었습니다.[1][2] 🇫🇷 파리의 상징입니다.[2]',
    );
    expect(r.text).toBe(text);
    expect(r.sources.map((s) => [s.position, s.url, s.label])).toEqual([
      [1, 'https://www.toureiffel.paris/ko', '에펠탑 공식 사이트'],
      [2, 'https://ko.wikipedia.org/wiki/%EC%97%90%ED%8E%A0%ED%83%91', '에펠탑 - 위키백과'],
    ]);
    expect((r.raw as { warnings?: unknown }).warnings).toBeUndefined();
  });

  it('accepts an answer without citations as a valid answer with zero sources', () => {
    const r = parseResponsesObject(fixtureJson('openai-responses-no-citations.json'));
    expect(r.sources).toEqual([]);
    expect(r.markdown).toBe('Two plus two is **4**.');
    expect(r.text).toBe('Two plus two is 4.');
    expect((r.raw as { consultedSources: unknown }).consultedSources).toEqual([]);
  });

  it('returns the partial text of an incomplete response and says so in raw', () => {
    const r = parseResponsesObject(fixtureJson('openai-responses-incomplete.json'));
    expect(r.markdown).toBe(
      'Pydantic v2 rewrote its core in Rust ([docs.pydantic.dev](https://docs.pydantic.dev/latest/))[1] and',
    );
    expect(r.sources).toHaveLength(1);
    expect((r.raw as { incomplete: unknown }).incomplete).toBe('max_output_tokens');
  });

  it('an incomplete response that never reached a message is NO_ANSWER', () => {
    const f = failureOf(
      () => parseResponsesObject(fixtureJson('openai-responses-incomplete-no-message.json')),
      'NO_ANSWER',
    );
    expect(f.message).toMatch(/max_output_tokens/);
  });

  it('an empty output_text is NO_ANSWER, a drifted shape is LAYOUT_CHANGED', () => {
    failureOf(() => parseResponsesObject(fixtureJson('openai-responses-empty-text.json')), 'NO_ANSWER');
    failureOf(() => parseResponsesObject(fixtureJson('openai-responses-drifted.json')), 'LAYOUT_CHANGED');
    failureOf(() => parseResponsesObject('not an object'), 'LAYOUT_CHANGED');
  });

  it('parses a JSON body by content type with the same parser', () => {
    const viaPayload = parseResponsesPayload('application/json', fixtureBytes('openai-responses-happy.json'));
    const direct = parseResponsesObject(fixtureJson('openai-responses-happy.json'));
    expect(viaPayload.markdown).toBe(direct.markdown);
    expect(viaPayload.sources).toEqual(direct.sources);
    failureOf(() => parseResponsesPayload('application/json', Buffer.from('{"output": [')), 'UPSTREAM_ERROR');
  });

  it('strips utm_source=openai wherever it sits in a query', () => {
    expect(stripOpenAiTracking('[a](https://x.test/p?utm_source=openai)')).toBe('[a](https://x.test/p)');
    expect(stripOpenAiTracking('[a](https://x.test/p?utm_source=openai&k=1)')).toBe('[a](https://x.test/p?k=1)');
    expect(stripOpenAiTracking('[a](https://x.test/p?k=1&utm_source=openai)')).toBe('[a](https://x.test/p?k=1)');
    expect(stripOpenAiTracking('[a](https://x.test/p?k=1&utm_source=openai&j=2)')).toBe(
      '[a](https://x.test/p?k=1&j=2)',
    );
    // Followed by a marker, or ending a sentence in a bare URL; another value is left alone.
    expect(
      stripOpenAiTracking('see https://x.test/p?utm_source=openai[1] and https://x.test/q?utm_source=openai.'),
    ).toBe('see https://x.test/p[1] and https://x.test/q.');
    expect(stripOpenAiTracking('https://x.test/p?utm_source=openai.com')).toBe(
      'https://x.test/p?utm_source=openai.com',
    );
  });

  // A recorded answer whose cited span stopped inside the model's `([site](url))`: the marker went
  // into the URL, which then kept its tracking tag.
  const linkAnswer = (end: number) => ({
    status: 'completed',
    output: [
      {
        type: 'message',
        content: [
          {
            type: 'output_text',
            text: 'Tokyo has about 14 million people. ([en.wikipedia.org](https://en.wikipedia.org/wiki/Tokyo_(city)?utm_source=openai)) Next.',
            annotations: [
              {
                type: 'url_citation',
                start_index: 35,
                end_index: end,
                url: 'https://en.wikipedia.org/wiki/Tokyo_(city)?utm_source=openai',
                title: 'Tokyo',
              },
            ],
          },
        ],
      },
    ],
  });
  const linkEnd = 35 + '([en.wikipedia.org](https://en.wikipedia.org/wiki/Tokyo_(city)?utm_source=openai))'.length;
  const wantLinked =
    'Tokyo has about 14 million people. ([en.wikipedia.org](https://en.wikipedia.org/wiki/Tokyo_(city)))[1] Next.';

  it('a span ending at the link end puts the marker after it', () => {
    expect(parseResponsesObject(linkAnswer(linkEnd)).markdown).toBe(wantLinked);
  });

  it('a span ending inside the link (URL, label, before the closing parenthesis) moves the marker after it', () => {
    for (const end of [linkEnd - 2, linkEnd - 1, linkEnd - 10, 40]) {
      const r = parseResponsesObject(linkAnswer(end));
      expect(r.markdown, `end_index ${end}`).toBe(wantLinked);
      expect((r.raw as { warnings?: string[] }).warnings?.[0]).toMatch(/inside a Markdown link/);
    }
    expect(parseResponsesObject(linkAnswer(linkEnd - 2)).sources).toEqual([
      { position: 1, url: 'https://en.wikipedia.org/wiki/Tokyo_(city)', label: 'Tokyo' },
    ]);
  });
});

describe('OpenAI HTTP errors', () => {
  it('429 rate_limit_exceeded is RATE_LIMITED with the Retry-After hint', () => {
    const f = failureOf(
      () => assertOpenAiOk(responseFrom(429, 'openai-error-rate-limit.json', { 'retry-after': '2' }), 'CHATBOT_A'),
      'RATE_LIMITED',
    );
    expect(f.retryAfterMs).toBe(2000);
    expect(f.message).toMatch(/rate_limit_exceeded/);
  });

  it('429 insufficient_quota is PROVIDER_REFUSED (never retried) and says no retry helps', () => {
    const f = failureOf(
      () => assertOpenAiOk(responseFrom(429, 'openai-error-insufficient-quota.json'), 'CHATBOT_A'),
      'PROVIDER_REFUSED',
    );
    expect(f.message).toMatch(/insufficient_quota/);
    expect(f.message).toMatch(/no retry/);
    expect(isPermanent(f.kind)).toBe(true);
    expect(coolsDownExit(f.kind)).toBe(false);
  });

  it(
    '429 rate_limit_exceeded for one request over the per-minute ' +
      'token limit is BAD_PAYLOAD: no wait lets it through',
    () => {
      const tooLarge = inline(429, {
        error: {
          message:
            'Request too large for gpt-5-nano in organization org-X ' +
            'on tokens per min (TPM): Limit 200000, Requested 250013.',
          type: 'tokens',
          param: null,
          code: 'rate_limit_exceeded',
        },
      });
      const f = failureOf(() => assertOpenAiOk(tooLarge, 'CHATBOT_A'), 'BAD_PAYLOAD');
      expect(f.clientMessage).toMatch(/shorten/);
      expect(isPermanent(f.kind)).toBe(true);
      expect(coolsDownExit(f.kind)).toBe(false);
    },
  );

  it('401 is PROVIDER_REFUSED without quoting the masked key', () => {
    const f = failureOf(
      () => assertOpenAiOk(responseFrom(401, 'openai-error-401.json'), 'CHATBOT_A'),
      'PROVIDER_REFUSED',
    );
    expect(f.message).toMatch(/invalid_api_key/);
    expect(f.message).not.toMatch(/sk-|Xy9Z/);
  });

  it(
    'an unknown model is PROVIDER_REFUSED; ' +
      'a 403 for region or permission is AUTH_FAILED, which another exit may pass',
    () => {
      const model = inline(404, {
        error: {
          message: 'The model `gpt-9` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      });
      failureOf(() => assertOpenAiOk(model, 'CHATBOT_A'), 'PROVIDER_REFUSED');
      const region = inline(403, {
        error: {
          message: 'Country, region, or territory not supported',
          type: 'request_forbidden',
          param: null,
          code: 'unsupported_country_region_territory',
        },
      });
      failureOf(() => assertOpenAiOk(region, 'CHATBOT_A'), 'AUTH_FAILED');
    },
  );

  it('5xx and non-JSON bodies are UPSTREAM_ERROR', () => {
    failureOf(() => assertOpenAiOk(responseFrom(503, 'openai-stream-error.sse'), 'CHATBOT_A'), 'UPSTREAM_ERROR');
    expect(() => assertOpenAiOk(responseFrom(200, 'openai-responses-happy.json'), 'CHATBOT_A')).not.toThrow();
  });
});

/** An answer whose JSON body is given inline. */
function inline(status: number, body: unknown) {
  const bytes = Buffer.from(JSON.stringify(body));
  return {
    status,
    headers: { 'content-type': 'application/json' },
    url: 'https://api.example.test/v1/responses',
    body: bytes,
    text: () => bytes.toString('utf8'),
    json: () => body,
  };
}

describe('OpenAI request', () => {
  it('asks for web_search with the country, city and time zone, consulted sources and a stream', () => {
    const body = responsesRequest('what is new', 'KR', { model: 'gpt-test', searchContextSize: 'high' }, true);
    expect(body).toEqual({
      model: 'gpt-test',
      input: 'what is new',
      tools: [
        {
          type: 'web_search',
          search_context_size: 'high',
          user_location: { type: 'approximate', country: 'KR', city: 'Seoul', region: 'Seoul', timezone: 'Asia/Seoul' },
        },
      ],
      include: ['web_search_call.action.sources'],
      stream: true,
    });
    const unknown = responsesRequest('q', 'IS', {}, false) as { tools: Array<{ user_location: unknown }> };
    expect(unknown.tools[0]?.user_location).toEqual({ type: 'approximate', country: 'IS' });
  });
});
