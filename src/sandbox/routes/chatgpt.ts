import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { fakeCitations, fakeSentences } from '../text-gen.js';

const SESSION_COOKIE = '__Secure-next-auth.session-token';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

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
 * The app shell: a contenteditable composer; Enter posts the prompt to the conversation endpoint
 * and streams the answer chunk by chunk into the assistant turn, as the real UI does. Walls the
 * endpoint answers replace the page (Cloudflare) or show as a banner (rate limit, errors).
 */
const APP_PAGE =
  `<!DOCTYPE html><html><head><title>ChatGPT</title></head><body><main><div id="thread"></div>
<form id="composer"><div contenteditable="true" id="prompt-textarea" class="ProseMirror"></div></form></main>
<script>
var box = document.getElementById('prompt-textarea');
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
  `'application/json' }, body: JSON.stringify({ prompt: prompt }) })
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
        turn.innerHTML = '<div class="markdown prose"></div>';
        thread.appendChild(turn);
        var md = turn.querySelector('.markdown');
        body.chunks.forEach(function (chunk, i) { setTimeout(function ` +
  `() { md.insertAdjacentHTML('beforeend', chunk); }, 120 * (i + 1)); });
      });
    });
});
</script></body></html>`;

const error5xx = (reply: FastifyReply) =>
  reply.code(500).type('application/json').send({ detail: 'Internal server error' });

/** chatgpt.com (docs/engines.md#chatgpt-web): the app page behind the session cookie and its conversation endpoint. */
export function registerChatGptWeb(app: FastifyInstance, sim: SimContext): void {
  app.get('/', async (req, reply) => {
    if (!hasSession(req.headers.cookie)) return reply.redirect('auth/login');
    return reply.type('text/html; charset=utf-8').send(APP_PAGE);
  });
  app.get('/auth/login', async (_req, reply) => reply.type('text/html; charset=utf-8').send(LOGIN_PAGE));

  app.post('/backend-api/conversation', async (req, reply) => {
    if (!hasSession(req.headers.cookie)) return reply.code(401).send({ detail: 'Unauthorized' });
    let prompt = '';
    try {
      const body = JSON.parse(String(req.body)) as { prompt?: unknown };
      prompt = typeof body.prompt === 'string' ? body.prompt : '';
    } catch {
      return reply.code(400).send({ detail: 'Invalid JSON' });
    }
    const d = await sim.gate('chatgpt', prompt, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(403).type('text/html; charset=utf-8').send(CLOUDFLARE_CHALLENGE);
    if (d.empty) return reply.send({ chunks: [] });
    return reply.send({ chunks: answerChunks(sim, sim.clean(prompt)) });
  });
}

/** The answer in the chunks it streams in: three paragraphs citing publishers (tracked, one twice). */
function answerChunks(sim: SimContext, topic: string): string[] {
  const [s0, s1, s2] = fakeSentences(sim, topic, 3).map(escapeHtml);
  const cites = fakeCitations(sim, topic, 3).map((c) => ({
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

function hasSession(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => {
    const [name, value] = part.trim().split('=', 2);
    return name === SESSION_COOKIE && (value ?? '').length > 0;
  });
}
