import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { landscapeOf } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean } from '../text-gen.js';
import { escapeHtml } from '../../text/html-escape.js';

const SESSION_COOKIE = '__Secure-next-auth.session-token';

/** A value for an inline script: JSON with `<` escaped so no `</script>` can end it early. */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c');
}

/** Cloudflare's managed challenge, as it stands in front of chatgpt.com and perplexity.ai. */
export const CLOUDFLARE_CHALLENGE =
  `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>` +
  `<meta http-equiv="refresh" content="390"></head>
<body><div class="main-wrapper" role="main"><div class="main-content">` +
  `<h1>Verifying you are human. This may take a few seconds.</h1>
<div id="challenge-running">Checking if the site connection is secure</div>` +
  `<form id="challenge-form" action="/cdn-cgi/challenge-platform/h/g/orchestrate" method="POST"></form></div></div>
<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>`;

const LOGIN_PAGE =
  `<!DOCTYPE html><html><head><title>ChatGPT</title></head><body><main><h1>Welcome back</h1>
<button data-testid="login-button">Log in</button>` +
  `<button data-testid="signup-button">Sign up for free</button></main></body></html>`;

/**
 * The logged-in app shell, as chatgpt.com serves it to a pool account: the account's bootstrap data
 * (e-mail, name, a session access token) in an inline JSON script, its profile button, and the
 * history sidebar with the titles of the account's earlier conversations — the tenants who used the
 * account before. The composer: Enter posts the prompt to the conversation endpoint (with
 * `history_and_training_disabled` when the page was opened as `?temporary-chat=true`) and streams the
 * answer chunk by chunk into the assistant turn, as the real UI does. Walls the endpoint answers
 * replace the page (Cloudflare) or show as a banner (rate limit, errors).
 */
function appPage(who: PoolIdentity, history: readonly string[]): string {
  const bootstrap = {
    session: {
      user: { id: who.userId, name: who.name, email: who.email, image: `https://s.gravatar.com/avatar/${who.userId}` },
      accessToken: who.accessToken,
    },
  };
  const sidebar = history.map((t, i) => `<li><a href="/c/${i + 1}">${escapeHtml(t)}</a></li>`).join('');
  return (
    `<!DOCTYPE html><html><head><title>ChatGPT</title>
<script id="client-bootstrap" type="application/json">${scriptJson(bootstrap)}</script></head><body>
<nav aria-label="Chat history"><h2>Chats</h2><ol>${sidebar}</ol>
<div data-testid="accounts-profile-button"><img alt="${escapeHtml(who.name)}" src="https://s.gravatar.com/avatar/${who.userId}">` +
    `<span>${escapeHtml(who.name)}</span><span>${escapeHtml(who.email)}</span></div></nav>
<main><div id="thread"></div>
<form id="composer"><div contenteditable="true" id="prompt-textarea" class="ProseMirror"></div></form></main>
<script>
var box = document.getElementById('prompt-textarea');
var temporary = new URLSearchParams(location.search).get('temporary-chat') === 'true';
box.addEventListener('keydown', function (ev) {
  if (ev.key !== 'Enter' || ev.shiftKey) return;
  ev.preventDefault();
  var prompt = box.innerText.trim();
  box.innerText = '';
  var thread = document.getElementById('thread');
  var user = document.createElement('div');
  user.setAttribute('data-message-author-role', 'user');
  user.textContent = prompt;
  thread.appendChild(user);
  fetch('backend-api/conversation', { method: 'POST', headers: { 'content-type': ` +
    `'application/json' }, body: JSON.stringify({ prompt: prompt, history_and_training_disabled: temporary }) })
    .then(function (res) {
      if (res.status === 403) return res.text().then(function (html) { document.open(); ` +
    `document.write(html); document.close(); });
      if (!res.ok) {
        var alert = document.createElement('div');
        alert.setAttribute('role', 'alert');
        alert.textContent = res.status === 429 ? 'Too many requests in 1 hour. ` +
    `Try again later.' : 'Something went wrong while generating the response.';
        thread.appendChild(alert);
        return;
      }
      return res.json().then(function (body) {
        var turn = document.createElement('div');
        turn.setAttribute('data-message-author-role', 'assistant');
        turn.setAttribute('data-message-id', body.messageId);
        turn.innerHTML = '<div class="markdown prose"></div>';
        thread.appendChild(turn);
        var md = turn.querySelector('.markdown');
        body.chunks.forEach(function (chunk, i) { setTimeout(function ` +
    `() { md.insertAdjacentHTML('beforeend', chunk); }, 120 * (i + 1)); });
      });
    });
});
</script></body></html>`
  );
}

/** Who a pool account is on the simulated site: derived from its session secret, so tests can name it. */
export interface PoolIdentity {
  userId: string;
  name: string;
  email: string;
  /** A JWT-shaped access token, as the real bootstrap data carries one. */
  accessToken: string;
}

export function sandboxChatGptIdentity(sessionSecret: string): PoolIdentity {
  const h = createHash('sha256').update(sessionSecret).digest('hex');
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return {
    userId: `user-${h.slice(0, 24)}`,
    name: `Pool Member ${h.slice(0, 6)}`,
    email: `pool.${h.slice(0, 10)}@accounts.aeq-sandbox.test`,
    accessToken: `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ sub: h.slice(0, 24), email: h.slice(0, 10) })}.${h}`,
  };
}

/** What earlier users of every pool account asked: the history sidebar starts with these titles. */
export const SANDBOX_CHATGPT_HISTORY: readonly string[] = Object.freeze([
  'Severance terms for Dana Whitfield (draft)',
  'Q3 acquisition shortlist: Halvorsen Tools',
  'Rewrite my cover letter for the Lyra Labs role',
]);

const error5xx = (reply: FastifyReply) =>
  reply.code(500).type('application/json').send({ detail: 'Internal server error' });

/**
 * chatgpt.com (docs/engines.md#chatgpt-web): the app page behind the session cookie, its conversation
 * endpoint and the history list. Each account keeps its history: a conversation is added to it unless
 * it was a temporary chat, so a test can tell whether one tenant's prompt reached the next one's page.
 */
export function registerChatGptWeb(app: FastifyInstance, sim: SimContext): void {
  const histories = new Map<string, string[]>();
  const historyOf = (secret: string): string[] => {
    const h = histories.get(secret) ?? [...SANDBOX_CHATGPT_HISTORY];
    histories.set(secret, h);
    return h;
  };
  app.get('/', async (req, reply) => {
    const secret = sessionOf(req.headers.cookie);
    if (!secret) return reply.redirect('auth/login');
    const page = appPage(sandboxChatGptIdentity(secret), [...historyOf(secret)].reverse());
    return reply.type('text/html; charset=utf-8').send(page);
  });
  app.get('/auth/login', async (_req, reply) => reply.type('text/html; charset=utf-8').send(LOGIN_PAGE));
  app.get('/backend-api/conversations', async (req, reply) => {
    const secret = sessionOf(req.headers.cookie);
    if (!secret) return reply.code(401).send({ detail: 'Unauthorized' });
    return reply.send({ items: [...historyOf(secret)].reverse().map((title) => ({ title })) });
  });

  app.post('/backend-api/conversation', async (req, reply) => {
    const secret = sessionOf(req.headers.cookie);
    if (!secret) return reply.code(401).send({ detail: 'Unauthorized' });
    let prompt = '';
    let temporary = false;
    try {
      const body = JSON.parse(String(req.body)) as { prompt?: unknown; history_and_training_disabled?: unknown };
      prompt = typeof body.prompt === 'string' ? body.prompt : '';
      temporary = body.history_and_training_disabled === true;
    } catch {
      return reply.code(400).send({ detail: 'Invalid JSON' });
    }
    if (!temporary) historyOf(secret).push(prompt.slice(0, 80));
    const d = await sim.gate('chatgpt', prompt, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(403).type('text/html; charset=utf-8').send(CLOUDFLARE_CHALLENGE);
    const messageId = createHash('sha256').update(`${secret}\u0000${prompt}`).digest('hex').slice(0, 32);
    if (d.empty) return reply.send({ messageId, chunks: [] });
    const topic = sim.clean(prompt);
    const brands = landscapeOf(sim, {
      engine: 'CHATBOT_A',
      country: requestCountry(req),
      topic,
      korean: isKorean(topic),
      shifts: d.shifts,
    });
    const chunks = answerChunks(sim, topic);
    if (brands.sentence) chunks.push(`<p>${escapeHtml(brands.sentence)}</p>`);
    return reply.send({ messageId, chunks });
  });
}

/** The answer in the chunks it streams in: three paragraphs citing publishers (tracked, one twice). */
function answerChunks(sim: SimContext, topic: string): string[] {
  const [s0, s1, s2] = fakeSentences(sim, topic, 3).map(escapeHtml);
  const cites = fakeCitations(sim, topic, 3, 'CHATBOT_A').map((c) => ({
    href: escapeHtml(`${c.url}?utm_source=chatgpt.com`),
    host: escapeHtml(new URL(c.url).hostname),
  }));
  const link = (i: number) => {
    const c = cites[i];
    return c ? ` <a href="${c.href}" target="_blank" rel="noopener">${c.host}</a>` : '';
  };
  return [
    `<p>${s0}${link(0)}</p>`,
    `<h3>Details</h3>`,
    `<ul><li>${s1}${link(1)}</li><li>${s2}${link(2)}${link(0)}</li></ul>`,
  ];
}

/** The session cookie's value (the pool account's secret), or null without one. */
function sessionOf(cookieHeader: string | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
