import { describe, expect, it } from 'vitest';
import { parseChatGptPage } from '../../src/engines/chat/chatgpt-web-parser.js';
import { maskTokens } from '../../src/engines/chat/turn-markup.js';
import { parsePerplexityPage } from '../../src/engines/chat/perplexity-web-parser.js';
import { fixtureBytes } from '../fixtures/chat/load.js';
import { failureOf } from '../helpers/failures.js';

const page = (name: string, url: string, complete = true) => ({
  html: fixtureBytes(name).toString('utf8'),
  url,
  status: 200,
  complete,
});
const CHAT = 'https://chatgpt.com/';

/** The web-mode parsers over saved rendered pages (the DOM as the browser transport returns it). */
describe('ChatGPT web parser', () => {
  it('reads the last assistant turn: Markdown, text, external sources deduplicated without utm_*', () => {
    const r = parseChatGptPage(page('chatgpt-web-answer.html', CHAT));
    expect(r.sources).toEqual([
      { position: 1, url: 'https://example.com/ebikes?id=4', label: 'example.com' },
      { position: 2, url: 'https://example.org/motors', label: 'example.org' },
    ]);
    expect(r.markdown).toMatch(/^- Mid-drive motors climb better\./m);
    expect(r.markdown).not.toMatch(/utm_source|\/c\/other-chat/);
    expect(r.text).toMatch(/^E-bikes differ mostly in motor and battery\. example\.com/);
  });

  it('keeps the answer turn only, scrubbed of the account, its tokens and other conversations', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLWFiYyJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const bootstrap = JSON.stringify({
      props: { session: { user: { email: 'kim.pool@corp.example', name: 'Kim Poolaccount', id: 'user-8f2e' } } },
      accessToken: jwt,
    });
    const html = `<html><head><script id="__NEXT_DATA__" type="application/json">${bootstrap}</script></head><body>
<nav><ol><li><a href="/c/1">Merger memo for Halvorsen</a></li></ol><span>kim.pool@corp.example</span></nav>
<main><div data-message-author-role="assistant" data-message-id="msg-7c1d"><div class="markdown" data-start="3">
<p>Hello Kim Poolaccount, the best pick is <a href="https://example.com/kb?utm_source=chatgpt.com" data-x="1">this one</a>.</p>
<img alt="Kim Poolaccount" src="https://cdn.example/avatar.png"><p>Write to kim.pool@corp.example; token ${jwt}</p>
<script>window.__s = "${jwt}"</script><p>Session sess_${'A1b2C3d4'.repeat(6)} ends.</p></div></div>
<div id="prompt-textarea"></div></main></body></html>`;
    const r = parseChatGptPage({ html, url: 'https://chatgpt.com/c/abc', status: 200, complete: true });
    const raw = r.raw as Record<string, unknown>;
    const turn = String(raw.turnHtml);
    expect(turn).toContain('<a href="https://example.com/kb?utm_source=chatgpt.com">this one</a>');
    for (const leak of ['kim.pool@corp.example', 'Kim Poolaccount', jwt, 'eyJzdWIiOiJ1c2VyLWFiYyJ9', 'Halvorsen'])
      expect(JSON.stringify(r)).not.toContain(leak);
    expect(turn).not.toMatch(/data-message-id|data-start|data-x|<img|<script|avatar|A1b2C3d4A1b2C3d4/);
    expect(turn).toMatch(/\[account\]|\[email\]/);
    expect(raw.html).toBeUndefined();
  });

  it('masks addresses and tokens in one linear pass, also over 200 KB of pathological text', () => {
    expect(
      maskTokens('mail kim.pool@corp.example, key eyJa.eyJb.c and sess_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f'),
    ).toBe('mail [email], key [token] and [token]');
    // Words, slugs and source URLs stay as they are.
    const kept = 'https://example.com/best-trail-running-shoes-for-wide-feet-reviewed?utm_source=chatgpt.com';
    expect(maskTokens(kept)).toBe(kept);
    for (const shape of ['eyJ', 'a@', 'a.', '@.', 'a-', '0a']) {
      const text = shape.repeat(Math.ceil(200_000 / shape.length));
      const started = performance.now();
      maskTokens(text);
      // Generous: a quadratic scan of 200 KB takes minutes; the linear one takes milliseconds.
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it('classifies walls and absences', () => {
    expect(
      failureOf(() => parseChatGptPage(page('chatgpt-web-login.html', 'https://chatgpt.com/auth/login'))).kind,
    ).toBe('CONSENT_REQUIRED');
    expect(failureOf(() => parseChatGptPage(page('chatgpt-web-rate-limit.html', CHAT))).kind).toBe('RATE_LIMITED');
    expect(failureOf(() => parseChatGptPage(page('chatgpt-web-empty-turn.html', CHAT, false))).kind).toBe('NO_ANSWER');
    expect(failureOf(() => parseChatGptPage(page('chatgpt-web-drifted.html', CHAT))).kind).toBe('LAYOUT_CHANGED');
  });
});

describe('Perplexity web parser', () => {
  it('falls back to the prose container and numbers sources by first citation', () => {
    const r = parsePerplexityPage(page('perplexity-web-answer.html', 'https://www.perplexity.ai/search?q=descale'));
    expect(r.sources.map((s) => s.url)).toEqual(['https://example.org/b', 'https://example.net/a']);
    expect(r.text).toMatch(/^Use vinegar and water\.2/);
  });

  it('a page without an answer container is LAYOUT_CHANGED', () => {
    expect(
      failureOf(() => parsePerplexityPage(page('chatgpt-web-drifted.html', 'https://www.perplexity.ai/search?q=x')))
        .kind,
    ).toBe('LAYOUT_CHANGED');
  });
});
