import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { landscapeOf } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean } from '../text-gen.js';
import { escapeHtml } from '../../text/html-escape.js';
import { fakeProducts, sendSse, sseFrame } from './app-stream.js';

const SESSION_COOKIE = '__Secure-next-auth.session-token';

/** A value for an inline script: JSON with `<` escaped so no `</script>` can end it early. */
function scriptJson(v: unknown): string {
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
function esc(s) { return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
function setAt(root, path, op, v) {
  var keys = path.split('/').slice(1), o = root;
  for (var i = 0; i < keys.length - 1; i++) { if (o[keys[i]] == null) o[keys[i]] = {}; o = o[keys[i]]; }
  var k = keys[keys.length - 1];
  if (op === 'append') o[k] = (o[k] || '') + v; else o[k] = v;
}
function toHtml(msg) {
  var text = msg.content.parts.join('');
  var refs = (msg.metadata && msg.metadata.content_references) || [];
  refs.forEach(function (r) {
    var links = r.type === 'grouped_webpages' ? r.items.map(function (it) {
      return ' \\u0001' + it.url + '\\u0002' + it.attribution + '\\u0003'; }).join('') : '';
    text = text.split(r.matched_text).join(links);
  });
  text = text.replace(/\\ue200[^\\ue201]*\\ue201?/g, '');
  var html = '', list = false;
  text.split('\\n').forEach(function (line) {
    var l = esc(line).replace(/\\u0001([^\\u0002]*)\\u0002([^\\u0003]*)\\u0003/g,
      '<a href="$1" target="_blank" rel="noopener">$2</a>');
    var item = /^- (.*)$/.exec(l);
    if (!item && list) { html += '</ul>'; list = false; }
    if (item) { if (!list) { html += '<ul>'; list = true; } html += '<li>' + item[1] + '</li>'; }
    else if (/^### /.test(l)) html += '<h3>' + l.slice(4) + '</h3>';
    else if (l.trim()) html += '<p>' + l + '</p>';
  });
  return html + (list ? '</ul>' : '');
}
function productsHtml(msg) {
  var refs = (msg.metadata && msg.metadata.content_references) || [];
  return refs.filter(function (r) { return r.type === 'products'; }).map(function (r) {
    return r.products.map(function (p) { return '<a class="product" href="' + esc(p.url) + '">' + esc(p.title) +
      ' ' + esc(p.price) + '</a>'; }).join(''); }).join('');
}
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
  fetch('backend-api/conversation', { method: 'POST', headers: { 'content-type': 'application/json',
    accept: 'text/event-stream' }, body: JSON.stringify({ action: 'next', prompt: prompt,
    history_and_training_disabled: temporary, supported_encodings: ['v1'] }) })
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
      var reader = res.body.getReader(), decoder = new TextDecoder(), buf = '', roots = {}, ch = 0;
      var sticky = { p: '', o: 'add' }, turn = null;
      function show(msg) {
        if (!msg || msg.author.role !== 'assistant' || msg.content.content_type !== 'text') return;
        if (!turn) {
          turn = document.createElement('div');
          turn.setAttribute('data-message-author-role', 'assistant');
          turn.setAttribute('data-message-id', msg.id);
          turn.innerHTML = '<div class="markdown prose"></div><div data-testid="products"></div>';
          thread.appendChild(turn);
        }
        turn.querySelector('.markdown').innerHTML = toHtml(msg);
        turn.querySelector('[data-testid="products"]').innerHTML = productsHtml(msg);
      }
      function onEvent(block) {
        var data = block.split('\\n').filter(function (l) { return l.indexOf('data: ') === 0; })
          .map(function (l) { return l.slice(6); }).join('\\n');
        if (!data || data === '[DONE]' || data.charAt(0) !== '{') return;
        var d = JSON.parse(data);
        if (d.type && !('v' in d)) return;
        if (typeof d.c === 'number') ch = d.c;
        var p = typeof d.p === 'string' ? d.p : sticky.p, o = typeof d.o === 'string' ? d.o : sticky.o;
        sticky = { p: p, o: o };
        if (p === '' && o === 'add') roots[ch] = d.v;
        else if (o === 'patch') d.v.forEach(function (x) { setAt(roots[ch], x.p, x.o, x.v); });
        else setAt(roots[ch], p, o, d.v);
        show(roots[ch] && roots[ch].message);
      }
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) return;
          buf += decoder.decode(r.value, { stream: true });
          var at;
          while ((at = buf.indexOf('\\n\\n')) >= 0) { onEvent(buf.slice(0, at)); buf = buf.slice(at + 2); }
          return pump();
        });
      }
      return pump();
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
    const topic = sim.clean(prompt);
    const brands = d.empty
      ? null
      : landscapeOf(sim, {
          engine: 'CHATBOT_A',
          country: requestCountry(req),
          topic,
          korean: isKorean(topic),
          shifts: d.shifts,
        });
    const frames = conversationStream(sim, {
      messageId,
      topic,
      empty: d.empty,
      search: !d.nosearch,
      products: !d.noproducts && !!brands?.sentence,
      brandSentence: brands?.sentence ?? null,
      cut: d.brokenstream,
    });
    return sendSse(reply, frames, 60);
  });
}

/** What one simulated answer holds. */
interface SimTurn {
  messageId: string;
  topic: string;
  empty: boolean;
  search: boolean;
  products: boolean;
  brandSentence: string | null;
  /** `sandbox:brokenstream`: the stream stops after the text, before the answer is finished. */
  cut: boolean;
}

const CITE_OPEN = '\ue200';
const CITE_SEP = '\ue202';
const CITE_CLOSE = '\ue201';

/**
 * The answer as chatgpt.com streams it (docs/engines.md#chatgpt-app-stream): `delta_encoding` v1, the user's message,
 * the search tool's message (its queries and the results it listed), then the assistant message started empty and
 * its Markdown appended piece by piece (the first delta names the path, the next repeat it), its content references
 * (each citation mark's span, the cited pages, the product cards), and a last `patch` that sets its status;
 * `message_stream_complete` and `[DONE]` end it. Three paragraphs citing publishers (one twice) as before, two more
 * results listed but not cited, and two product cards for a shopping prompt.
 */
function conversationStream(sim: SimContext, t: SimTurn): string[] {
  const conversationId = `sim-conv-${t.messageId.slice(0, 12)}`;
  const frames = [sseFrame('"v1"', 'delta_encoding')];
  const delta = (v: unknown) => frames.push(sseFrame(v, 'delta'));
  delta({
    p: '',
    o: 'add',
    v: {
      message: {
        id: `${t.messageId}-u`,
        author: { role: 'user' },
        content: { content_type: 'text', parts: [t.topic] },
        status: 'finished_successfully',
        metadata: {},
      },
      conversation_id: conversationId,
    },
    c: 0,
  });
  const listed = t.search ? fakeCitations(sim, t.topic, 5, 'CHATBOT_A') : [];
  if (t.search) {
    delta({
      v: {
        message: {
          id: `${t.messageId}-t`,
          author: { role: 'tool', name: 'web.run' },
          content: { content_type: 'text', parts: [''] },
          status: 'finished_successfully',
          recipient: 'all',
          metadata: {
            search_model_queries: { type: 'search_model_queries', queries: [t.topic, `${t.topic} reviews`] },
            search_result_groups: listed.map((c, i) => ({
              type: 'search_result_group',
              domain: new URL(c.url).hostname,
              entries: [
                {
                  type: 'search_result',
                  url: c.url,
                  title: c.title,
                  snippet: c.title,
                  ref_id: { turn_index: 0, ref_type: 'search', ref_index: i },
                },
              ],
            })),
          },
        },
        conversation_id: conversationId,
      },
      c: 1,
    });
  }
  delta({
    v: {
      message: {
        id: t.messageId,
        author: { role: 'assistant' },
        content: { content_type: 'text', parts: [''] },
        status: 'in_progress',
        recipient: 'all',
        channel: 'final',
        metadata: {},
      },
      conversation_id: conversationId,
    },
    c: 2,
  });
  const { text, references } = t.empty ? { text: '', references: [] } : answerOf(sim, t, listed);
  const pieces = text.match(/[^\n]*\n*/g)?.filter((x) => x !== '') ?? [];
  pieces.forEach((piece, i) => {
    delta(i === 0 ? { p: '/message/content/parts/0', o: 'append', v: piece } : { v: piece });
  });
  delta({ p: '/message/metadata/content_references', o: 'replace', v: references });
  if (t.cut) return frames;
  delta({
    p: '',
    o: 'patch',
    v: [
      { p: '/message/status', o: 'replace', v: 'finished_successfully' },
      { p: '/message/end_turn', o: 'replace', v: true },
    ],
  });
  frames.push(sseFrame({ type: 'message_stream_complete', conversation_id: conversationId }));
  frames.push(sseFrame('[DONE]'));
  return frames;
}

/** The answer's Markdown with the app's citation marks, and the references that place them (UTF-16 spans). */
function answerOf(
  sim: SimContext,
  t: SimTurn,
  listed: ReturnType<typeof fakeCitations>,
): { text: string; references: unknown[] } {
  const [s0, s1, s2] = fakeSentences(sim, t.topic, 3);
  const references: unknown[] = [];
  let text = '';
  const cite = (...idx: number[]) => {
    if (!t.search) return '';
    const mark = `${CITE_OPEN}cite${idx.map((i) => `${CITE_SEP}turn0search${i}`).join('')}${CITE_CLOSE}`;
    references.push({
      matched_text: mark,
      start_idx: text.length,
      end_idx: text.length + mark.length,
      type: 'grouped_webpages',
      items: idx.map((i) => {
        const c = listed[i] as { url: string; title: string };
        return { title: c.title, url: `${c.url}?utm_source=chatgpt.com`, attribution: new URL(c.url).hostname };
      }),
    });
    return mark;
  };
  const add = (s: string) => {
    text += s;
  };
  add(`${s0} `);
  add(cite(0));
  add('\n\n### Details\n\n- ');
  add(`${s1} `);
  add(cite(1));
  add('\n- ');
  add(`${s2} `);
  add(cite(2, 0));
  if (t.brandSentence) add(`\n\n${t.brandSentence}`);
  if (t.products) {
    const mark = `${CITE_OPEN}products${CITE_SEP}turn0product0${CITE_CLOSE}`;
    add('\n\n');
    references.push({
      matched_text: mark,
      start_idx: text.length,
      end_idx: text.length + mark.length,
      type: 'products',
      products: fakeProducts(sim, t.topic),
    });
    add(mark);
  }
  return { text, references };
}

/**
 * The session cookie's value (the pool account's secret), or null without one. An OpenAI API key (`sk-…`) is no
 * session of chatgpt.com: it gets the login page, as the real site would.
 */
function sessionOf(cookieHeader: string | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value && !value.startsWith('sk-') ? value : null;
    }
  }
  return null;
}
