import { cheerio } from '../lazy-modules.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult } from '../engine-result.js';
import { letterCount } from '../common/engine-render.js';
import { answerOf, assertNotCloudflare, type RenderedChatPage } from './web-answer.js';
import { maskTokens, pageIdentity, scrubbedTurnMarkup, withoutIdentity } from './turn-markup.js';
import type { CapturedStream } from '../../transport/browser/browser-transport.js';
import { domResult, readCaptured, streamResult } from './app-stream.js';
import { readChatGptStream } from './chatgpt-app-stream.js';

/** ChatGPT's UI (docs/engines.md#chatgpt-web): composer, the assistant turns, and the banners that stop a turn. */
export const CHATGPT_COMPOSER = '#prompt-textarea';
export const CHATGPT_ANSWER = '[data-message-author-role="assistant"] .markdown';
/** Error banners: the rate limit ("Too many requests in 1 hour") and generic failures. */
export const CHATGPT_ALERTS = '[role="alert"], [class*="text-token-text-error"]';
/** A login page: the app redirects there when the session cookie is missing or expired. */
export const CHATGPT_LOGIN = ['[data-testid="login-button"]', 'form[action*="/auth/login"]', 'a[href*="/auth/login"]'];

/**
 * Reads the last assistant turn of a rendered ChatGPT conversation. Walls first: Cloudflare's
 * challenge (UPSTREAM_BLOCKED), the rate-limit banner (RATE_LIMITED), a login page without the
 * composer (CONSENT_REQUIRED: the account's session is not accepted). An assistant turn that stayed
 * empty is NO_ANSWER; no turn at all while the composer is there means the answer never came.
 */
export function parseChatGptPage(page: RenderedChatPage): EngineResult {
  const $ = cheerio().load(page.html);
  assertNotCloudflare($, 'CHATBOT_A web');
  // The page belongs to a pool account shared by all tenants (docs/security.md#shared-browser-accounts): its
  // identity is taken out of everything that leaves, the banner of a failure included.
  const identity = pageIdentity($);
  const alert = withoutIdentity(maskTokens($(CHATGPT_ALERTS).text().replace(/\s+/g, ' ').trim()), identity);
  if (/too many requests|rate limit/i.test(alert))
    throw new UpstreamFailure('RATE_LIMITED', 'CHATBOT_A web: "Too many requests" banner');
  const hasComposer = $(CHATGPT_COMPOSER).length > 0;
  if (!hasComposer && (isLoginUrl(page.url) || CHATGPT_LOGIN.some((sel) => $(sel).length > 0))) {
    throw new UpstreamFailure('CONSENT_REQUIRED', 'CHATBOT_A web: login page (the account session was not accepted)');
  }
  const box = $(CHATGPT_ANSWER).last();
  if (box.length === 0) {
    if (alert) throw new UpstreamFailure('UPSTREAM_ERROR', `CHATBOT_A web: error banner: ${alert.slice(0, 120)}`);
    if (hasComposer && !page.complete)
      throw new UpstreamFailure('TIMEOUT', 'CHATBOT_A web: no assistant turn before the render budget ran out');
    throw new UpstreamFailure('LAYOUT_CHANGED', 'CHATBOT_A web: no assistant turn and no composer on the page');
  }
  const answer = answerOf($, box, page.url);
  if (letterCount(answer.text) === 0)
    throw new UpstreamFailure('NO_ANSWER', 'CHATBOT_A web: the assistant turn stayed empty');
  // Only this turn's scrubbed markup is kept, and the account's identity is taken out of the answer too.
  const visible = identity.filter((v) => v.length >= MIN_IDENTITY_IN_TEXT);
  return {
    text: withoutIdentity(answer.text, visible),
    markdown: withoutIdentity(answer.markdown, visible),
    sources: answer.sources,
    raw: {
      status: page.status,
      finalUrl: maskTokens(page.url),
      complete: page.complete,
      turnHtml: scrubbedTurnMarkup($, box, identity),
    },
  };
}

/**
 * Identity strings shorter than this stay in the answer's text (a first name such as "Ann" is also an
 * ordinary word); `raw` loses them all.
 */
const MIN_IDENTITY_IN_TEXT = 6;

function isLoginUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return /(^|\.)auth\.openai\.com$/.test(u.hostname) || /\/(auth\/)?log-?in\b/.test(u.pathname);
  } catch {
    return false;
  }
}

/** What the ChatGPT app mode hands the parser: the page as rendered and the conversation stream it received. */
export interface ChatGptAppCapture {
  page: RenderedChatPage;
  stream: CapturedStream | null;
}

/**
 * The app mode's answer (docs/engines.md#app-streams): from the conversation stream when it holds a finished answer
 * (`capture: "stream"`), else from the page (`capture: "dom"`), whose walls and banners keep their failure kinds. The
 * account's identity, read from the page, is taken out of the stream's answer as out of the page's.
 */
export function parseChatGptApp(i: ChatGptAppCapture): EngineResult {
  const read = readCaptured(i.stream, readChatGptStream);
  if (typeof read === 'string') return domResult(parseChatGptPage(i.page), read);
  const identity = pageIdentity(cheerio().load(i.page.html)).filter((v) => v.length >= MIN_IDENTITY_IN_TEXT);
  return streamResult(
    { ...read, text: withoutIdentity(read.text, identity), markdown: withoutIdentity(read.markdown, identity) },
    { status: i.page.status, finalUrl: maskTokens(i.page.url), complete: i.page.complete },
  );
}
