/**
 * The real answers the precision of §6.8 is measured on, read into the text a monitor run sees: sample A, the
 * recorded chat answers of test/fixtures/real/chat, through the service's own parsers; sample B, the Google AI
 * answers, Naver result pages and Bing result pages of test/fixtures/real; sample C, the other Bing result pages and
 * the recorded Reddit threads (provenance in each PROVENANCE.md).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { buildGeminiResult, parseGemini } from '../../src/engines/chat/gemini-parser.js';
import { parseResponsesPayload } from '../../src/engines/chat/openai-responses-parser.js';
import { parseSonar } from '../../src/engines/chat/sonar-parser.js';
import { serpResult } from '../../src/engines/search-b/serp-adapter.js';
import { parseWebResults } from '../../src/engines/search-b/web-results-parser.js';
import { parseThread } from '../../src/engines/forum/thread-parser.js';
import { parseBingSerp } from '../../src/engines/search-c/bing-serp-parser.js';

export interface CorpusAnswer {
  id: string;
  prompt: string;
  text: string;
  sources: Array<{ url: string }>;
}

interface ChatCase {
  id: string;
  engine: 'CHATBOT_A' | 'ANSWER_ENGINE_A' | 'ASSISTANT_A';
  file: string;
  contentType: string;
  payload: { prompt: string };
  expect: { text?: string; sources?: Array<{ url: string }> };
}

const CHAT = new URL('../fixtures/real/chat/', import.meta.url);

function chatText(c: ChatCase): string {
  const body = fs.readFileSync(new URL(c.file, CHAT));
  if (c.engine === 'CHATBOT_A') return parseResponsesPayload(c.contentType, body).text;
  const json: unknown = JSON.parse(body.toString('utf8'));
  if (c.engine === 'ANSWER_ENGINE_A') return parseSonar(json).text;
  return buildGeminiResult(parseGemini(json), new Map()).text;
}

/**
 * Sample A: every recorded chat answer with a text, in the order of cases.json. Fixed before the labels were
 * written (README.md beside the labels).
 */
export function chatAnswers(): CorpusAnswer[] {
  const { cases } = JSON.parse(fs.readFileSync(new URL('cases.json', CHAT), 'utf8')) as { cases: ChatCase[] };
  return cases
    .filter((c) => typeof c.expect.text === 'string')
    .map((c) => ({
      id: c.id,
      prompt: c.payload.prompt,
      text: chatText(c),
      sources: (c.expect.sources ?? []).map((s) => ({ url: s.url })),
    }));
}

const REAL = new URL('../fixtures/real/', import.meta.url);

function readPage(dir: string, file: string): string {
  const b = fs.readFileSync(new URL(`${dir}/${file}`, REAL));
  return (file.endsWith('.gz') ? zlib.gunzipSync(b) : b).toString('utf8');
}

interface GooglePage {
  id: string;
  query: string;
  aioverview: { text: string; sources: Array<{ url: string }> } | null;
  aimode?: { text: string; sources: Array<{ url: string }> };
}

interface SerpPage {
  id: string;
  file: string;
  query: string;
  page: number;
  expect: string;
}

/** How many Bing pages sample B takes: the first ones with results, in the order of expected.json. */
const BING_PAGES = 21;

/**
 * Sample B, fixed after the rules were tuned on sample A and labelled after that (README.md beside the labels):
 * the Google AI Overviews and AI Mode answer (their text as the corpus expects it), the Naver result pages with
 * results and the first 21 Bing pages with results, rendered as the adapters render them.
 */
export function serpAnswers(): CorpusAnswer[] {
  const google = JSON.parse(fs.readFileSync(new URL('google/expected.json', REAL), 'utf8')) as GooglePage[];
  const ai = google.flatMap((p) =>
    [p.aioverview, p.aimode].flatMap((a, k) =>
      a
        ? [{ id: `google-${k === 0 ? 'aio' : 'aimode'}-${p.id}`, prompt: p.query, text: a.text, sources: a.sources }]
        : [],
    ),
  );
  const naver = (JSON.parse(fs.readFileSync(new URL('naver/expected.json', REAL), 'utf8')) as SerpPage[])
    .filter((p) => p.expect === 'results')
    .map((p) => {
      const r = serpResult(parseWebResults(readPage('naver', p.file)).results, p.page, {});
      return { id: `naver-${p.id}`, prompt: p.query, text: r.text, sources: r.sources.map((s) => ({ url: s.url })) };
    });
  return [...ai, ...naver, ...bingPages().slice(0, BING_PAGES)];
}

/** The Bing pages with results, in the order of expected.json, rendered as SEARCH_C_SEARCH renders its text. */
function bingPages(): CorpusAnswer[] {
  return (JSON.parse(fs.readFileSync(new URL('bing/expected.json', REAL), 'utf8')) as SerpPage[])
    .filter((p) => p.expect === 'results')
    .map((p) => {
      const { results } = parseBingSerp(readPage('bing', p.file), (p.page - 1) * 10 + 1);
      // As src/engines/search-c/search-c-search.ts renders it.
      const text = results
        .map((r) => `${r.position}. ${r.title}\n   ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`)
        .join('\n\n');
      return { id: `bing-${p.id}`, prompt: p.query, text, sources: results.map((r) => ({ url: r.url })) };
    });
}

interface RedditCase {
  id: string;
  file: string;
  shape?: string;
  status: number;
  payload: { url?: string };
}

/**
 * Sample C, fixed after the second tuning (on samples A and B) and labelled after it: the Bing pages with results
 * that sample B left out, and the recorded Reddit threads (post and comments, as FORUM renders them).
 */
export function laterAnswers(): CorpusAnswer[] {
  const { cases } = JSON.parse(fs.readFileSync(new URL('reddit/cases.json', REAL), 'utf8')) as { cases: RedditCase[] };
  const threads = cases
    .filter((c) => c.shape === 'thread' && c.status === 200)
    .map((c) => {
      const r = parseThread(JSON.parse(readPage('reddit', c.file)) as unknown);
      return { id: `reddit-${c.id}`, prompt: c.payload.url ?? c.id, text: r.text, sources: r.sources };
    });
  return [
    ...bingPages().slice(BING_PAGES),
    ...threads.map((t) => ({ ...t, sources: t.sources.map((x) => ({ url: x.url })) })),
  ];
}
