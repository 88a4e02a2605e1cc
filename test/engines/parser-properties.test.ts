import fs from 'node:fs';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';
import { parseResponsesPayload } from '../../src/engines/chat/openai-responses-parser.js';
import { parseChatGptPage } from '../../src/engines/chat/chatgpt-web-parser.js';
import { parseGemini } from '../../src/engines/chat/gemini-parser.js';
import { parseResponsesObject } from '../../src/engines/chat/openai-responses-parser.js';
import { parsePerplexityPage } from '../../src/engines/chat/perplexity-web-parser.js';
import { parseSonar } from '../../src/engines/chat/sonar-parser.js';
import { parseListing } from '../../src/engines/forum/listing-parser.js';
import { redditJson } from '../../src/engines/forum/reddit-status.js';
import { parseThread } from '../../src/engines/forum/thread-parser.js';
import { parseAiModePage } from '../../src/engines/search-a/aimode-parser.js';
import { parseResultsPage } from '../../src/engines/search-a/results-page.js';
import { parseAiBriefing } from '../../src/engines/search-b/ai-brief-parser.js';
import { parseAiTab } from '../../src/engines/search-b/ai-tab-parser.js';
import { parseBlogPost } from '../../src/engines/search-b/blog-post-parser.js';
import { parseWebResults } from '../../src/engines/search-b/web-results-parser.js';
import { foldCopilotEvents, type CopilotEvent } from '../../src/engines/search-c/copilot-events.js';
import { parseBingSerp } from '../../src/engines/search-c/bing-serp-parser.js';
import type { HttpResponse } from '../../src/transport/http-transport.js';
import { interpretPage } from '../../src/engines/web/page-reader.js';

/**
 * Every parser fed truncated, malformed, empty and oversized input (HTML and JSON)
 * either returns or throws an UpstreamFailure (a typed parse failure). Anything else escaping is a
 * bug of ours, which the attempt runner would report as an internal error.
 */

const fixture = (p: string) => fs.readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');

/** Runs `parse` and fails the property if it throws anything but an UpstreamFailure. */
function onlyTypedFailures(parse: () => unknown): void {
  try {
    parse();
  } catch (e) {
    if (e instanceof UpstreamFailure) return;
    throw new Error(`escaped: ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)}`);
  }
}

/** Text inputs around a real seed: empty, truncated, with garbage spliced in, random, or oversized. */
function mutatedText(seeds: readonly string[]): fc.Arbitrary<string> {
  const seed = fc.constantFrom(...seeds);
  return fc.oneof(
    fc.constant(''),
    fc.tuple(seed, fc.double({ min: 0, max: 1, noNaN: true })).map(([s, f]) => s.slice(0, Math.floor(s.length * f))),
    fc
      .tuple(seed, fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ unit: 'grapheme', maxLength: 40 }))
      .map(([s, f, g]) => {
        const at = Math.floor(s.length * f);
        return s.slice(0, at) + g + s.slice(at);
      }),
    fc
      .tuple(seed, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([s, a, b]) => {
        // A chunk cut out of the middle: unbalanced tags, half a JSON member.
        const [x, y] = [Math.floor(s.length * Math.min(a, b)), Math.floor(s.length * Math.max(a, b))];
        return s.slice(0, x) + s.slice(y);
      }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('<', '<html', '<html><body>', '{', '[', 'null', '{"a":', '\u0000\uFFFD', '<div>'.repeat(5000)),
  );
}

/** JSON values around a real seed: a member replaced by any JSON value, a member dropped, or any JSON at all. */
function mutatedJson(seeds: readonly unknown[]): fc.Arbitrary<unknown> {
  const seed = fc.constantFrom(...seeds);
  const replaced = fc.tuple(seed, fc.nat(), fc.jsonValue({ maxDepth: 3 }), fc.boolean()).map(([s, i, v, drop]) => {
    const copy = structuredClone(s);
    const paths = pathsOf(copy);
    const path = paths[i % Math.max(1, paths.length)];
    if (!path || path.length === 0) return v;
    const parent = path.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], copy) as Record<
      string,
      unknown
    >;
    const key = path[path.length - 1] as string;
    if (drop) delete parent[key];
    else parent[key] = v;
    // Through JSON and back, as a body arrives: a member dropped from an array becomes null.
    return JSON.parse(JSON.stringify(copy)) as unknown;
  });
  return fc.oneof(
    { weight: 4, arbitrary: replaced },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, {}, [], '', 0) },
  );
}

function pathsOf(v: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      const p = [...prefix, k];
      out.push(p);
      pathsOf((v as Record<string, unknown>)[k], p, out);
    }
  }
  return out;
}

/** A recorded answer as the transport hands it over. */
function response(status: number, contentType: string, text: string): HttpResponse {
  const body = Buffer.from(text, 'utf8');
  return {
    status,
    headers: { 'content-type': contentType },
    url: 'https://oauth.reddit.com/r/x/hot',
    body,
    text: () => text,
    json: () => JSON.parse(text) as unknown,
  };
}

const runs = (n: number) => ({ numRuns: n, seed: 24_2026 });
/** A body of several megabytes: the size the transport lets through. */
const oversized = (seed: string) => seed.repeat(Math.ceil(1_000_000 / Math.max(1, seed.length)));

describe('HTML parsers let only typed failures escape', () => {
  const google = [
    'search-a/serp-aio.html',
    'search-a/serp-no-aio.html',
    'search-a/consent-dialog.html',
    'search-a/no-results.html',
  ].map(fixture);
  const aimode = ['search-a/aimode-answer.html', 'search-a/aimode-table-list.html'].map(fixture);
  const naver = [
    'search-b/web-page1.html',
    'search-b/integrated-with-brief.html',
    'search-b/ai-tab.html',
    'search-b/blog-post.html',
  ].map(fixture);
  const bing = ['search-c/bing-serp-page1.html', 'search-c/bing-captcha.html'].map(fixture);
  const web = ['web/article.html', 'web/table-heavy.html', 'web/readability-hostile.html'].map(fixture);
  const chat = ['chat/chatgpt-web-answer.html', 'chat/perplexity-web-answer.html'].map(fixture);

  it('Google results page and AI Overview', () => {
    fc.assert(
      fc.property(mutatedText(google), fc.integer({ min: 100, max: 599 }), (html, status) => {
        onlyTypedFailures(() =>
          parseResultsPage({ html, status, finalUrl: 'https://www.google.com/search?q=x' }, { page: 1, readAio: true }),
        );
      }),
      runs(150),
    );
  });

  it('Google AI Mode', () => {
    fc.assert(
      fc.property(mutatedText([...aimode, ...google]), (html) => {
        onlyTypedFailures(() =>
          parseAiModePage({ html, status: 200, finalUrl: 'https://www.google.com/search?q=x&udm=50' }),
        );
      }),
      runs(100),
    );
  });

  it('Naver web results, AI briefing, AI tab and blog post', () => {
    fc.assert(
      fc.property(mutatedText(naver), (html) => {
        onlyTypedFailures(() => parseWebResults(html));
        onlyTypedFailures(() => parseAiBriefing(html));
        onlyTypedFailures(() => parseAiTab(html));
        onlyTypedFailures(() => parseBlogPost(html));
      }),
      runs(100),
    );
  });

  it('Bing results page', () => {
    fc.assert(
      fc.property(mutatedText(bing), fc.integer({ min: 1, max: 91 }), (html, first) => {
        onlyTypedFailures(() => parseBingSerp(html, first));
      }),
      runs(150),
    );
  });

  it('any web page (WEB_SCRAPE)', () => {
    fc.assert(
      fc.property(
        mutatedText(web),
        fc.constantFrom('text/html; charset=utf-8', 'text/html', '', 'application/xhtml+xml'),
        (html, type) => {
          const body = Buffer.from(html, 'utf8');
          onlyTypedFailures(() =>
            interpretPage({
              requestedUrl: 'https://example.com/a',
              finalUrl: 'https://example.com/a',
              status: 200,
              headers: { 'content-type': type },
              body,
            }),
          );
        },
      ),
      runs(40),
    );
  });

  it('the chat web UIs', () => {
    fc.assert(
      fc.property(mutatedText(chat), fc.boolean(), (html, complete) => {
        const page = { html, url: 'https://chatgpt.com/c/1', status: 200, complete };
        onlyTypedFailures(() => parseChatGptPage(page));
        onlyTypedFailures(() => parsePerplexityPage(page));
      }),
      runs(80),
    );
  });

  it('oversized pages', () => {
    // Real pages repeated to 1 MB, and a flat list of 10,000 links: cheerio's `find` on an element
    // with that many children is quadratic (domutils `removeSubsets`), so the flat list stays at a
    // size a test can afford; in the service the attempt's timeout bounds a parse (parse pool).
    const flat = '<li><a href="/x">x</a></li>'.repeat(10_000);
    for (const html of [oversized(google[0] ?? ''), oversized(naver[0] ?? ''), oversized(bing[0] ?? ''), flat]) {
      onlyTypedFailures(() =>
        parseResultsPage(
          { html, status: 200, finalUrl: 'https://www.google.com/search?q=x' },
          { page: 1, readAio: true },
        ),
      );
      onlyTypedFailures(() => parseBingSerp(html, 1));
      onlyTypedFailures(() => parseWebResults(html));
    }
    const article = (web[0] ?? '').repeat(Math.ceil(400_000 / Math.max(1, (web[0] ?? '').length)));
    onlyTypedFailures(() =>
      interpretPage({
        requestedUrl: 'https://e.com/a',
        finalUrl: 'https://e.com/a',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: Buffer.from(article),
      }),
    );
  }, 120_000);
});

describe('JSON parsers let only typed failures escape', () => {
  const json = (p: string) => JSON.parse(fixture(p)) as unknown;

  it('OpenAI Responses objects and payloads (JSON and event stream)', () => {
    const seeds = [
      'chat/openai-responses-happy.json',
      'chat/openai-responses-emoji-korean.json',
      'chat/openai-responses-incomplete.json',
    ].map(json);
    fc.assert(
      fc.property(mutatedJson(seeds), (body) => {
        onlyTypedFailures(() => parseResponsesObject(body));
        onlyTypedFailures(() => parseResponsesPayload('application/json', Buffer.from(JSON.stringify(body) ?? '')));
      }),
      runs(200),
    );
    const streams = [
      'chat/openai-stream-happy.sse',
      'chat/openai-stream-emoji-korean.sse',
      'chat/openai-stream-failed.sse',
    ].map(fixture);
    fc.assert(
      fc.property(
        mutatedText([...streams, ...seeds.map((s) => JSON.stringify(s))]),
        fc.constantFrom('text/event-stream', 'application/json', undefined),
        (text, type) => {
          onlyTypedFailures(() => parseResponsesPayload(type, Buffer.from(text, 'utf8')));
        },
      ),
      runs(200),
    );
  });

  it('Perplexity Sonar and Gemini bodies', () => {
    const sonar = [
      {
        id: 'x',
        model: 'sonar',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Answer [1] and [2].' }, finish_reason: 'stop' }],
        citations: ['https://a.example/1', 'https://b.example/2'],
        search_results: [{ title: 'A', url: 'https://a.example/1' }],
      },
    ];
    fc.assert(
      fc.property(mutatedJson(sonar), (body) => onlyTypedFailures(() => parseSonar(body))),
      runs(200),
    );
    const gemini = ['chat/gemini-happy.json', 'chat/gemini-korean-bytes.json', 'chat/gemini-utf16-offsets.json'].map(
      json,
    );
    fc.assert(
      fc.property(mutatedJson(gemini), (body) => onlyTypedFailures(() => parseGemini(body))),
      runs(200),
    );
  });

  it('Reddit listings, threads and answers', () => {
    const listings = ['forum/search-listing.json', 'forum/subreddit-search.json', 'forum/user-posts.json'].map(json);
    fc.assert(
      fc.property(mutatedJson(listings), (body) => onlyTypedFailures(() => parseListing(body, 'search'))),
      runs(200),
    );
    const threads = ['forum/post-with-comments.json', 'forum/deleted-comments.json', 'forum/link-post.json'].map(json);
    fc.assert(
      fc.property(mutatedJson(threads), (body) => onlyTypedFailures(() => parseThread(body))),
      runs(200),
    );
    const texts = [...listings, ...threads].map((b) => JSON.stringify(b));
    fc.assert(
      fc.property(
        mutatedText(texts),
        fc.constantFrom(200, 403, 404, 429, 500),
        fc.constantFrom('application/json', 'text/html'),
        (text, status, type) => {
          onlyTypedFailures(() => redditJson(response(status, type, text), 'anonymous'));
        },
      ),
      runs(200),
    );
  });

  it('Copilot event streams', () => {
    const events = fixture('search-c/copilot-happy.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CopilotEvent);
    fc.assert(
      fc.property(fc.array(mutatedJson(events), { maxLength: 20 }), (list) => {
        onlyTypedFailures(() =>
          foldCopilotEvents(
            list.filter((e): e is CopilotEvent => e !== null && typeof e === 'object' && !Array.isArray(e)),
          ),
        );
      }),
      runs(150),
    );
  });
});
