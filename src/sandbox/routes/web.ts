import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { fakeSentences, isKorean } from '../text-gen.js';
import { escapeHtml } from '../../text/html-escape.js';

/**
 * Arbitrary web pages for WEB_SCRAPE and page readers (docs/contract.md#sandbox-scope): the transport sends
 * `https://host/path?q` here as `/web/https/host/path?q`. Any URL answers a deterministic article
 * derived from its path; `sandbox:*` directives may sit in the path or the query.
 */
export function registerWeb(app: FastifyInstance, sim: SimContext): void {
  app.get('/:scheme/:host/*', async (req, reply) => {
    const { scheme, host } = req.params as { scheme: string; host: string };
    const rest = req.url.slice(req.url.indexOf(`/${scheme}/${host}`) + scheme.length + host.length + 2) || '/';
    const pageUrl = `${scheme}://${host}${rest.startsWith('/') ? rest : `/${rest}`}`;
    const decoded = safeDecode(pageUrl);
    const d = await sim.gate(`web:${decoded}`, decoded, reply, serverError);
    if (!d) return reply;
    if (d.captcha) return cloudflareChallenge(reply, host);
    if (d.empty) return notFound(reply);
    const html = articlePage(sim, pageUrl, decoded);
    return reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'max-age=300')
      .send(html);
  });
}

const serverError = (reply: FastifyReply) =>
  reply
    .code(503)
    .header('content-type', 'text/html; charset=utf-8')
    .send(
      '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body>' +
        '<h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>',
    );

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .header('content-type', 'text/html; charset=utf-8')
    .send(
      '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>' +
        '<h1>Page not found</h1><p>The page you requested does not exist.</p></body></html>',
    );
}

/** Cloudflare's managed-challenge interstitial as real sites serve it (docs/engines.md#block-signatures). */
function cloudflareChallenge(reply: FastifyReply, host: string): FastifyReply {
  const ray = '8f1a2b3c4d5e6f70';
  return reply
    .code(403)
    .header('content-type', 'text/html; charset=UTF-8')
    .header('server', 'cloudflare')
    .header('cf-ray', `${ray}-ICN`)
    .header('cf-mitigated', 'challenge')
    .header('cache-control', 'private, max-age=0, no-store, no-cache, must-revalidate')
    .send(
      `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>` +
        `<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">` +
        `<meta name="robots" content="noindex,nofollow"></head>` +
        `<body class="no-js"><div class="main-wrapper" role="main">` +
        `<div class="main-content"><h1 class="zone-name-title h1">${escapeHtml(host)}</h1>` +
        `<noscript><div class="h2"><span id="challenge-error-text">Enable ` +
        `JavaScript and cookies to continue</span></div></noscript></div></div>` +
        `<script>(function(){window._cf_chl_opt={cvId: '3',cZone: "${escapeHtml(host)}",` +
        `cType: 'managed',cRay: '${ray}'};` +
        `var cpo=document.createElement('script');` +
        `cpo.src='/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=${ray}';` +
        `document.getElementsByTagName('head')[0].appendChild(cpo);}());</script></body></html>`,
    );
}

/** A news-style article page: head metadata, a lead image, relative images with srcset, a list. */
function articlePage(sim: SimContext, pageUrl: string, decoded: string): string {
  const u = parseUrl(decoded.replace(/(?<!\s)\s*sandbox:[\w=]+/g, '')) ?? new URL(pageUrl);
  const topic = topicOf(u);
  const ko = isKorean(topic);
  const h = sim.hash(pageUrl);
  const sentences = fakeSentences(sim, topic, 15);
  const paragraphs = [0, 1, 2, 3].map((i) => sentences.slice(i * 3, i * 3 + 3).join(' '));
  const slug = u.pathname.split('/').filter(Boolean).pop() ?? 'index';
  const author = ['Alex Morgan', 'Sam Lee', 'Jordan Kim', 'Riley Chen'][h % 4] as string;
  const day = String((h % 28) + 1).padStart(2, '0');
  const imgBase = `/images/${encodeURIComponent(slug)}`;
  const bullets = sentences.slice(12, 15);
  return (
    `<!DOCTYPE html>
<html lang="${ko ? 'ko' : 'en'}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(topic)} | ${escapeHtml(u.hostname)}</title>
<meta name="description" content="${escapeHtml(paragraphs[0]?.slice(0, 150) ?? topic)}">
<meta name="author" content="${author}">
<meta property="og:title" content="${escapeHtml(topic)}">
<meta property="og:image" content="${imgBase}-lead.jpg">
<meta property="article:published_time" content="2026-01-${day}T09:00:00Z">
<link rel="canonical" href="${escapeHtml(u.origin + u.pathname)}">
<script>window.analytics = { page: ${h} };</script>
</head>
<body>
<header><nav><a href="/">Home</a> <a href="/news/">News</a> <a href="/about/">About</a></nav></header>
<main>
<article>
<h1>${escapeHtml(topic)}</h1>
<p class="byline">By ${author}</p>
<p>${escapeHtml(paragraphs[0] ?? '')}</p>
<figure><img src="${imgBase}-640.jpg" srcset="${imgBase}-640.jpg 640w, ${imgBase}-1280.jpg 1280w" ` +
    `alt="${escapeHtml(topic)}" width="640" height="360"><figcaption>${escapeHtml(topic)}</figcaption></figure>
<p>${escapeHtml(paragraphs[1] ?? '')}</p>
<h2>${ko ? '핵심 정리' : 'Key points'}</h2>
<ul>${bullets.map((b) => `<li>${escapeHtml(b)}</li>`).join('')}</ul>
<p>${escapeHtml(paragraphs[2] ?? '')} ` +
    `<a href="/related/${encodeURIComponent(slug)}">${ko ? '관련 기사' : 'Related reading'}</a>.</p>
<p>${escapeHtml(paragraphs[3] ?? '')}</p>
<img src="/pixel.gif" width="1" height="1" alt="">
</article>
</main>
<footer><p>&copy; 2026 ${escapeHtml(u.hostname)}</p></footer>
</body>
</html>`
  );
}

/** "/guides/trail-running" -> "Trail running"; the host stands in for the home page. */
function topicOf(u: URL): string {
  const last = u.pathname.split('/').filter(Boolean).pop();
  const words = safeDecode(last ?? '')
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_+]+/g, ' ')
    .trim();
  const topic = words || u.hostname.replace(/^www\./, '');
  return topic.charAt(0).toUpperCase() + topic.slice(1);
}

function parseUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
