/**
 * The answer signals at the edges of each provider's shape (docs/contract.md#answer-signals): unknown stays null,
 * "did not" is false or empty, and a cited page is never also a retrieved one.
 */
import { describe, expect, it } from 'vitest';
import { parseResponsesObject } from '../../src/engines/chat/openai-responses-parser.js';
import { parseSonar } from '../../src/engines/chat/sonar-parser.js';
import { buildGeminiResult, parseGemini } from '../../src/engines/chat/gemini-parser.js';

const sonar = (extra: Record<string, unknown>) =>
  parseSonar({ choices: [{ message: { content: 'Paris is the capital [1].' } }], ...extra });

describe('Perplexity Sonar', () => {
  it('searched when citations are listed, even with an empty search_results', () => {
    const r = sonar({ search_results: [], citations: ['https://a.example/', 'https://b.example/'] });
    expect(r.signals).toEqual({
      searchTriggered: true,
      retrievedSources: [{ position: 1, url: 'https://b.example/', title: null, query: null }],
    });
  });
  it('did not search when both lists are empty; unknown when neither is there', () => {
    expect(sonar({ search_results: [], citations: [] }).signals).toEqual({
      searchTriggered: false,
      retrievedSources: [],
    });
    expect(sonar({}).signals).toEqual({});
  });
});

describe('OpenAI Responses', () => {
  const message = {
    type: 'message',
    content: [
      {
        type: 'output_text',
        text: 'Paris is the capital.',
        annotations: [{ type: 'url_citation', start_index: 0, end_index: 21, url: 'https://a.example/', title: 'A' }],
      },
    ],
  };
  const body = (search: Record<string, unknown>) => ({
    status: 'completed',
    tools: [{ type: 'web_search' }],
    output: [{ type: 'web_search_call', status: 'completed', action: { type: 'search', ...search } }, message],
  });

  it('leaves what it read unknown when no action lists its pages', () => {
    const r = parseResponsesObject(body({ query: 'capital of France' }));
    expect(r.signals).toEqual({ searchQueries: ['capital of France'], searchTriggered: true });
  });
  it('lists the pages a search read, less the cited ones, with the query that found them', () => {
    const r = parseResponsesObject(
      body({
        query: 'capital of France',
        queries: ['capital of France', 'Paris capital history'],
        sources: [
          { type: 'url', url: 'https://a.example/' },
          { type: 'url', url: 'https://b.example/?utm_source=openai' },
        ],
      }),
    );
    expect(r.signals).toEqual({
      searchQueries: ['capital of France', 'Paris capital history'],
      searchTriggered: true,
      retrievedSources: [{ position: 1, url: 'https://b.example/', title: null, query: 'capital of France' }],
    });
  });
  it('did not search: the tool was offered and no call was made', () => {
    const r = parseResponsesObject({ status: 'completed', tools: [{ type: 'web_search' }], output: [message] });
    expect(r.signals).toEqual({ searchQueries: [], searchTriggered: false, retrievedSources: [] });
  });
});

describe('Gemini grounding', () => {
  it('keeps a chunk cited by a support it could not place among the sources', () => {
    const parsed = parseGemini({
      candidates: [
        {
          content: { parts: [{ text: 'Paris is the capital. It is on the Seine.' }] },
          finishReason: 'STOP',
          groundingMetadata: {
            webSearchQueries: ['capital of France'],
            groundingChunks: [
              { web: { uri: 'https://a.example/', title: 'a.example' } },
              { web: { uri: 'https://b.example/', title: 'b.example' } },
              { web: { uri: 'https://c.example/', title: 'c.example' } },
            ],
            groundingSupports: [
              { segment: { endIndex: 21, text: 'Paris is the capital.' }, groundingChunkIndices: [0] },
              // This segment's text is nowhere in the answer: it cannot be placed, but chunk 1 is still cited.
              { segment: { startIndex: 500, endIndex: 520, text: 'not in the answer' }, groundingChunkIndices: [1] },
            ],
          },
        },
      ],
    });
    expect(parsed.unplaced).toEqual([1]);
    const direct = (u: string) => ({ url: u, resolution: 'direct' as const });
    const r = buildGeminiResult(
      parsed,
      new Map([
        [0, direct('https://a.example/')],
        [1, direct('https://b.example/')],
        [2, direct('https://c.example/')],
      ]),
    );
    expect(r.sources.map((s) => s.url)).toEqual(['https://a.example/', 'https://b.example/']);
    expect(r.signals).toEqual({
      searchQueries: ['capital of France'],
      searchTriggered: true,
      retrievedSources: [{ position: 1, url: 'https://c.example/', title: 'c.example', query: null }],
    });
  });
});
