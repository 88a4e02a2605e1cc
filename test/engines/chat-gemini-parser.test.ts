import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertGeminiOk } from '../../src/engines/chat/assistant-a.js';
import { buildGeminiResult, parseGemini, type ResolvedChunk } from '../../src/engines/chat/gemini-parser.js';
import { resolveGroundingChunks } from '../../src/engines/chat/grounding-redirects.js';
import { markdownLinkRanges } from '../../src/engines/chat/text-offsets.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { failureOf, fixtureJson } from '../fixtures/chat/load.js';

const redirect = (url: string): ResolvedChunk => ({ url, resolution: 'redirect', status: 302 });

describe('Gemini grounding parser', () => {
  it('places [n] after each supported segment (missing startIndex = 0)', () => {
    const parsed = parseGemini(fixtureJson('gemini-happy.json'));
    const r = buildGeminiResult(
      parsed,
      new Map([
        [0, redirect('https://www.toureiffel.paris/en/the-monument')],
        [1, redirect('https://en.wikipedia.org/wiki/Eiffel_Tower')],
      ]),
    );
    expect(r.markdown).toBe('The Eiffel Tower is 330 m tall.[1][2] It was completed in 1889.[2]');
    expect(r.text).toBe('The Eiffel Tower is 330 m tall. It was completed in 1889.');
    expect(r.sources).toEqual([
      { position: 1, url: 'https://www.toureiffel.paris/en/the-monument', label: 'toureiffel.paris' },
      { position: 2, url: 'https://en.wikipedia.org/wiki/Eiffel_Tower', label: 'wikipedia.org' },
    ]);
    const raw = r.raw as {
      groundingChunks: Array<{ uri: string; url: string }>;
      offsetUnit: string;
      response: { candidates: unknown[] };
    };
    expect(raw.offsetUnit).toBe('utf8_byte');
    expect(raw.groundingChunks[0]?.uri).toMatch(
      /^https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\//,
    );
    expect(raw.groundingChunks[0]?.url).toBe('https://www.toureiffel.paris/en/the-monument');
    expect(JSON.stringify(raw.response)).toContain('searchEntryPoint');
  });

  it('reads segment offsets as UTF-8 bytes in Korean text and numbers sources by first use', () => {
    const body = fixtureJson('gemini-korean-bytes.json');
    const text = '에펠탑은 높이가 330m이다. 1889년에 완공되었다.';
    expect(Buffer.from(text).subarray(35, 62).toString()).toBe('1889년에 완공되었다.');
    expect(text.slice(17, 30)).toBe('1889년에 완공되었다.');

    const parsed = parseGemini(body);
    expect(parsed.placements.map((p) => p.tier)).toEqual(['byte-offset', 'byte-offset']);
    const r = buildGeminiResult(
      parsed,
      new Map([
        [0, redirect('https://www.toureiffel.paris/ko')],
        [1, redirect('https://ko.wikipedia.org/wiki/에펠탑')],
        [2, redirect('https://namu.wiki/w/에펠탑')],
      ]),
    );
    // Chunk 1 is used first, so it is [1]; chunk 2 grounds nothing: read, not cited, so it is a retrieved source.
    expect(r.markdown).toBe('에펠탑은 높이가 330m이다.[1] 1889년에 완공되었다.[1][2]');
    expect(r.sources.map((s) => [s.position, s.label])).toEqual([
      [1, 'ko.wikipedia.org'],
      [2, 'toureiffel.paris'],
    ]);
    expect(r.signals?.retrievedSources).toEqual([
      { position: 1, url: 'https://namu.wiki/w/%EC%97%90%ED%8E%A0%ED%83%91', title: 'namu.wiki', query: null },
    ]);
  });

  it('falls back to the segment text when the offsets do not match it', () => {
    const parsed = parseGemini(fixtureJson('gemini-utf16-offsets.json'));
    expect(parsed.placements.map((p) => p.tier)).toEqual(['segment-text', 'segment-text']);
    const r = buildGeminiResult(
      parsed,
      new Map([
        [0, redirect('https://a.example/')],
        [1, redirect('https://b.example/')],
      ]),
    );
    expect(r.markdown).toBe('에펠탑은 높이가 330m이다.[1] 1889년에 완공되었다.[2]');
  });

  it('de-duplicates chunks that resolve to the same publisher URL', () => {
    const parsed = parseGemini(fixtureJson('gemini-happy.json'));
    const same = redirect('https://www.toureiffel.paris/en?utm_source=x');
    const r = buildGeminiResult(
      parsed,
      new Map([
        [0, same],
        [1, same],
      ]),
    );
    expect(r.sources).toEqual([{ position: 1, url: 'https://www.toureiffel.paris/en', label: 'toureiffel.paris' }]);
    expect(r.markdown).toBe('The Eiffel Tower is 330 m tall.[1] It was completed in 1889.[1]');
  });

  it('skips thought parts and places markers in the answer part', () => {
    const parsed = parseGemini(fixtureJson('gemini-thought-parts.json'));
    const r = buildGeminiResult(
      parsed,
      new Map([
        [0, redirect('https://a.example/')],
        [1, redirect('https://b.example/')],
      ]),
    );
    expect(r.markdown).toBe("**Short answer:** 330 m.[1] The tower opened in 1889 🎉 for the World's Fair.[1][2]");
    expect(r.text).toBe("Short answer: 330 m. The tower opened in 1889 🎉 for the World's Fair.");
    expect(r.markdown).not.toMatch(/Considering/);
  });

  it('no groundingMetadata is a valid answer with zero sources', () => {
    const r = buildGeminiResult(parseGemini(fixtureJson('gemini-no-grounding.json')), new Map());
    expect(r.sources).toEqual([]);
    expect(r.markdown).toBe('Two plus two is **4**.');
    expect(r.text).toBe('Two plus two is 4.');
  });

  it('SAFETY or OTHER with no text is NO_ANSWER; no candidates is LAYOUT_CHANGED', () => {
    expect(failureOf(() => parseGemini(fixtureJson('gemini-safety.json')), 'NO_ANSWER').message).toMatch(/SAFETY/);
    expect(failureOf(() => parseGemini(fixtureJson('gemini-empty-other.json')), 'NO_ANSWER').message).toMatch(/OTHER/);
    failureOf(() => parseGemini(fixtureJson('gemini-no-candidates.json')), 'LAYOUT_CHANGED');
    failureOf(() => parseGemini([]), 'LAYOUT_CHANGED');
  });

  // Shapes of FirebaseExtended/vertexai-sdk-test-data googleai/unary-failure-*.json (test/fixtures/real/chat).
  it('a SAFETY stop with the text written so far is NO_ANSWER, not a truncated answer', () => {
    const body = {
      candidates: [
        {
          content: { parts: [{ text: 'Safety error incoming in 5, 4, 3, 2...' }], role: 'model' },
          finishReason: 'SAFETY',
        },
      ],
    };
    expect(failureOf(() => parseGemini(body), 'NO_ANSWER').message).toMatch(/stopped by SAFETY/);
    const recitation = {
      candidates: [{ content: { parts: [{ text: 'The quoted lyrics go' }] }, finishReason: 'RECITATION' }],
    };
    failureOf(() => parseGemini(recitation), 'NO_ANSWER');
    // A length stop keeps its text: the answer is cut short, not refused.
    const long = {
      candidates: [
        { content: { parts: [{ text: 'A long answer that ran out of tokens' }] }, finishReason: 'MAX_TOKENS' },
      ],
    };
    expect(buildGeminiResult(parseGemini(long), new Map()).text).toBe('A long answer that ran out of tokens');
  });

  it('a segment ending inside a Markdown link gets its marker after the link (code points, not UTF-16)', () => {
    const text = '🚀 Ruby 4.0.6 is current: [Downloads](https://www.ruby-lang.org/en/downloads/) and more.';
    const cut = text.indexOf('/en/downloads');
    const seg = text.slice(0, cut);
    const body = {
      candidates: [
        {
          content: { parts: [{ text }] },
          finishReason: 'STOP',
          groundingMetadata: {
            groundingChunks: [{ web: { uri: 'https://www.ruby-lang.org/en/downloads/', title: 'ruby-lang.org' } }],
            groundingSupports: [
              { segment: { endIndex: Buffer.byteLength(seg), text: seg }, groundingChunkIndices: [0] },
            ],
          },
        },
      ],
    };
    const r = buildGeminiResult(
      parseGemini(body),
      new Map([[0, { url: 'https://www.ruby-lang.org/en/downloads/', resolution: 'direct' as const }]]),
    );
    expect(r.markdown).toBe(
      '🚀 Ruby 4.0.6 is current: [Downloads](https://www.ruby-lang.org/en/downloads/)[1] and more.',
    );
    expect(markdownLinkRanges(Array.from('😀 ([a](https://x.test/b_(c))) [d](e)'))).toEqual([
      [2, 29],
      [30, 36],
    ]);
  });

  it('empty candidates with prompt feedback but no blockReason is NO_ANSWER', () => {
    const body = {
      candidates: [],
      promptFeedback: { blockReasonMessage: 'Message' },
      modelVersion: 'gemini-2.0-flash',
    };
    expect(failureOf(() => parseGemini(body), 'NO_ANSWER').message).toMatch(/no blockReason: Message/);
  });
});

describe('Gemini HTTP errors', () => {
  const res = (status: number, error: unknown) => {
    const body = Buffer.from(JSON.stringify({ error }));
    return {
      status,
      headers: {},
      url: 'https://g.test',
      body,
      text: () => body.toString(),
      json: () => JSON.parse(body.toString()) as unknown,
    };
  };
  it('maps RESOURCE_EXHAUSTED, bad keys and server errors', () => {
    failureOf(
      () => assertGeminiOk(res(429, { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota' })),
      'RATE_LIMITED',
    );
    failureOf(
      () => assertGeminiOk(res(403, { code: 403, status: 'PERMISSION_DENIED', message: 'denied' })),
      'PROVIDER_REFUSED',
    );
    const bad = res(400, {
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'API key not valid. AIzaSyD-abcdefghijklmnop',
      details: [{ reason: 'API_KEY_INVALID' }],
    });
    expect(failureOf(() => assertGeminiOk(bad), 'PROVIDER_REFUSED').message).not.toMatch(/AIza/);
    failureOf(
      () => assertGeminiOk(res(503, { code: 503, status: 'UNAVAILABLE', message: 'overloaded' })),
      'UPSTREAM_ERROR',
    );
  });
});

describe('grounding redirect resolution against the sandbox', () => {
  let sim: Simulator;
  const agent = new Agent();
  const http = new UndiciTransport('test-exit', agent, false);
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
    await agent.close();
  });

  it('reads Location without following; falls back to https://<title> and says so', async () => {
    const res = await http.request({
      method: 'POST',
      url: `${sim.url}/gemini/v1beta/models/gemini-2.5-flash:generateContent`,
      headers: { 'x-goog-api-key': 'gemini-test-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'eiffel tower height' }] }],
        tools: [{ google_search: {} }],
      }),
    });
    expect(res.status).toBe(200);
    const parsed = parseGemini(res.json());
    // Three cited pages and one the search returned that no support cites.
    expect(parsed.chunks.length).toBe(4);
    const expired = { index: 4, uri: `${sim.url}/gemini/grounding-api-redirect/expired-token`, title: 'example.org' };
    const noTitle = { index: 5, uri: `${sim.url}/gemini/grounding-api-redirect/gone`, title: 'Some Site' };
    const direct = { index: 6, uri: 'https://publisher.example/page', title: null };
    const resolved = await resolveGroundingChunks(
      http,
      [...parsed.chunks, expired, noTitle, direct],
      AbortSignal.timeout(5000),
      `${sim.url}/gemini`,
    );
    for (const c of parsed.chunks) {
      const r = resolved.get(c.index);
      expect(r?.resolution).toBe('redirect');
      expect(r?.status).toBe(302);
      expect(r?.url).toMatch(
        /^https:\/\/(?:[a-z.]+\.[a-z]+\/eiffel-tower-height-\d|consulted\.example\.net\/[0-9a-f]+)$/,
      );
      expect(new URL(r?.url as string).hostname).toBe(c.title);
    }
    expect(resolved.get(4)).toEqual({ url: 'https://example.org', resolution: 'title-fallback', status: 404 });
    expect(resolved.get(5)).toEqual({ url: noTitle.uri, resolution: 'unresolved', status: 404 });
    expect(resolved.get(6)).toEqual({ url: 'https://publisher.example/page', resolution: 'direct' });
  });
});
