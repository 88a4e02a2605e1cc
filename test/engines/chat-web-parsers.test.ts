import { describe, expect, it } from 'vitest';
import { parseChatGptPage } from '../../src/engines/chat/chatgpt-web-parser.js';
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
