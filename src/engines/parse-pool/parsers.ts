import { extractHtml } from '../common/page-extract.js';
import type { EngineResult } from '../engine-result.js';
import { parseChatGptApp, type ChatGptAppCapture } from '../chat/chatgpt-web-parser.js';
import { parseResponsesPayload } from '../chat/openai-responses-parser.js';
import { parsePerplexityApp } from '../chat/perplexity-web-parser.js';
import { parseListing } from '../forum/listing-parser.js';
import { redditJson } from '../forum/reddit-status.js';
import { parseThread } from '../forum/thread-parser.js';
import { parseAiModePage } from '../search-a/aimode-parser.js';
import type { HtmlPage } from '../common/html-page.js';
import { parseResultsPage } from '../search-a/results-page.js';
import { parseAiBriefing } from '../search-b/ai-brief-parser.js';
import { parseAiTab } from '../search-b/ai-tab-parser.js';
import { parseBlogPost } from '../search-b/blog-post-parser.js';
import { parseWebResults } from '../search-b/web-results-parser.js';
import { parseBingSerp } from '../search-c/bing-serp-parser.js';
import { decodedPage, type PageBytes } from '../web/page-fetch.js';
import { interpretPage } from '../web/page-reader.js';
import { asBuffer, responseOf, type ResponseSnapshot } from './bytes.js';

/** A fetched page whose body crosses the thread boundary (where a Buffer arrives as a Uint8Array). */
export type RawWebPage = Omit<PageBytes, 'body'> & { body: Uint8Array };

/**
 * Every CPU-heavy step an adapter hands to the parse pool, by name: DOM parsing (cheerio, jsdom),
 * Readability, Markdown conversion, decompression and large JSON. Each is a pure function whose
 * input and output are structured-cloneable (plain data, no class instances or functions), so
 * it runs the same in a worker thread and inline. Adapters fetch on the event loop and call these
 * through `AttemptContext.parse`; the worker entry (`worker.ts`) imports this table.
 */
export const PARSERS = {
  /** WEB_SCRAPE: decompress, decode, classify (blocks, walls, HTTP faults) and extract the main content. */
  'web.page': (page: RawWebPage): EngineResult => interpretPage(decodedPage({ ...page, body: asBuffer(page.body) })),
  /** SEARCH_A and SEARCH_A_SERP: a Google results page (organic results, AI Overview). */
  'google.results': (i: { page: HtmlPage; opts: { page: number; readAio: boolean } }) =>
    parseResultsPage(i.page, i.opts),
  /** AIMODE. */
  'google.aiMode': (page: HtmlPage) => parseAiModePage(page),
  'naver.webResults': (html: string) => parseWebResults(html),
  'naver.aiBriefing': (html: string) => parseAiBriefing(html),
  'naver.aiTab': (html: string) => parseAiTab(html),
  'naver.blogPost': (html: string) => parseBlogPost(html),
  'bing.serp': (i: { html: string; first: number }) => parseBingSerp(i.html, i.first),
  /** FORUM: Reddit's answer classified (block page, status, JSON) and read as a thread or a listing. */
  'forum.answer': (i: {
    response: ResponseSnapshot;
    access: 'oauth' | 'anonymous';
    shape: 'thread' | 'listing';
    what: string;
  }): EngineResult => {
    const body = redditJson(responseOf(i.response), i.access);
    return i.shape === 'thread' ? parseThread(body) : parseListing(body, i.what);
  },
  /** CHATBOT_A over the API: a Responses event stream (or JSON body) can run to megabytes. */
  'chat.openaiResponses': (i: { contentType: string | undefined; body: Uint8Array }) =>
    parseResponsesPayload(i.contentType, asBuffer(i.body)),
  /** The app modes: the conversation stream the page received (up to megabytes of JSON deltas), else the page. */
  'chat.chatgptApp': (i: ChatGptAppCapture) => parseChatGptApp(i),
  'chat.perplexityApp': (i: ChatGptAppCapture) => parsePerplexityApp(i),
  /** SOURCE_INFLUENCE: main text and metadata of a cited page (jsdom + Readability). */
  'sourceInfluence.page': (i: { html: string; url: string; minCharsEn: number; minCharsKo: number }) =>
    extractHtml(i.html, i.url, i.minCharsEn, i.minCharsKo),
};

/** Any table of parse functions (the worker can be given another, in tests). */
export type ParserTable = Record<string, (input: never) => unknown>;
type EngineParsers = typeof PARSERS;

/**
 * Every parse the pool runs, by name: this layer's table, and the tables of the layers above it (the analysis), which
 * add their entries to this interface by module augmentation and their module to the pool with `addParserTable`
 * (added-tables.ts), so that this layer never imports theirs.
 */
export interface ParserRegistry extends EngineParsers {}
export type Parsers = ParserRegistry;
export type ParserName = keyof Parsers;
type ParseFn<T, N extends keyof T> = T[N] extends (input: infer I) => infer O ? { input: I; output: O } : never;
export type ParserInput<T, N extends keyof T> = ParseFn<T, N>['input'];
export type ParserOutput<T, N extends keyof T> = Awaited<ParseFn<T, N>['output']>;

/** Runs one registered parse; what `AttemptContext.parse` offers, bound to the attempt's signal. */
export type Parse = <N extends ParserName>(
  name: N,
  input: ParserInput<Parsers, N>,
) => Promise<ParserOutput<Parsers, N>>;
