import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import type { PageProbe } from '../../transport/browser/browser-transport.js';
import { appHeaders, browserOf, letterCount, renderBudgetMs, stableMsOf } from '../common/engine-render.js';
import { APP_STREAM_GRACE_MS, APP_STREAM_MAX_BYTES, unlessStreamed } from './app-stream.js';
import { CHATGPT_ALERTS, CHATGPT_ANSWER, CHATGPT_COMPOSER, CHATGPT_LOGIN } from './chatgpt-web-parser.js';
import { redactSecrets } from './secret-redaction.js';
import { CLOUDFLARE_MARKERS } from './web-answer.js';

/** The session cookie of chatgpt.com; the attempt's account's secret is its value. */
const SESSION_COOKIE = '__Secure-next-auth.session-token';
/** docs/engines.md#chatgpt-web: the answer is complete once its text has not changed for ~2.5 s. */
const DEFAULT_STABLE_MS = 2500;
const WALLS = [...CLOUDFLARE_MARKERS, ...CHATGPT_LOGIN, CHATGPT_ALERTS];

/**
 * The conversation endpoint the app streams its answer from (`/backend-api/conversation`, lately
 * `/backend-api/f/conversation`): the path ends so, the list (`/conversations`) and `/conversation/prepare` do not.
 */
const CONVERSATION_PATH = '/conversation';

/**
 * CHATBOT_A app surface (`surface: "app"`, docs/engines.md#chatgpt-web): the ChatGPT UI with the account's session in
 * a temporary chat, the prompt typed into the composer; the answer read from the conversation stream the page
 * receives, or from the last assistant turn once stable when the stream cannot be read.
 */
export async function runChatGptWeb(ctx: AttemptContext): Promise<EngineResult> {
  // Only an `app` session is ever a cookie: an API key sent as one would reach the app's page and every resource it
  // loads (the runner leases no other kind for this surface; this keeps it so whatever leased it).
  const secret = ctx.account?.kind === 'app' ? ctx.account.secret : undefined;
  if (!secret)
    throw new UpstreamFailure('AUTH_FAILED', 'CHATBOT_A web mode needs a leased app-session account (kind "app")');
  const { upstream } = ctx.config;
  const base = String(upstream.options.webBaseUrl ?? 'https://chatgpt.com').replace(/(?<!\/)\/+$/, '');
  const headers = appHeaders(ctx.config);
  headers.cookie = `${SESSION_COOKIE}=${secret}`;
  // A temporary chat: the account's history and memory neither keep this tenant's prompt nor feed
  // its answer with the prompts of the tenants who used the account before.
  const page = await browserOf(ctx).render(`${base}/?temporary-chat=true`, {
    waitFor: [CHATGPT_COMPOSER, ...WALLS],
    skipActionsIf: WALLS,
    actions: [{ fill: CHATGPT_COMPOSER, text: promptOf(ctx.payload) }, { press: 'Enter' }],
    until: answerOrWall,
    stableSelector: CHATGPT_ANSWER,
    stableMs: stableMsOf(ctx.config, DEFAULT_STABLE_MS),
    timeoutMs: renderBudgetMs(ctx.config),
    headers,
    capture: { pathEndsWith: CONVERSATION_PATH, maxBytes: APP_STREAM_MAX_BYTES, graceMs: APP_STREAM_GRACE_MS },
  });
  const rendered = { html: page.html, url: page.url, status: page.status, complete: page.complete };
  const parsed = await ctx.parse('chat.chatgptApp', { page: rendered, stream: page.captured ?? null });
  const result = unlessStreamed(parsed, page.complete, 'CHATBOT_A web');
  // Never the page itself: it is the pool account's (identity, tokens, other tenants' chats). The parser
  // keeps the answer turn's scrubbed markup only (docs/security.md#shared-browser-accounts).
  const raw = { ...(result.raw as Record<string, unknown>), transport: 'browser', render: page.timings };
  return redactSecrets({ ...result, raw }, [secret]);
}

/** The turn counts once it has text; a wall or a banner ends the wait at once (the parser classifies it). */
async function answerOrWall(p: PageProbe): Promise<boolean> {
  const answer = await p.read(CHATGPT_ANSWER);
  if (answer && letterCount(answer.text) > 0) return true;
  for (const sel of WALLS) if (await p.exists(sel)) return true;
  return !(await p.exists(CHATGPT_COMPOSER));
}
