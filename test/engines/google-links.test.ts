import { describe, expect, it } from 'vitest';
import { isHelpPointer, publisherUrl } from '../../src/engines/search-a/google-links.js';

const PAGE = 'https://www.google.com/search?q=google+maps&hl=en&gl=us';
/** The replay and sandbox servers serve the page from their own origin. */
const LOCAL_PAGE = 'http://127.0.0.1:4100/search?q=google+maps';

describe('Google links by what they are (docs/engines.md#google-organic-results)', () => {
  it.each([
    // Google's own pages that rank for queries about Google: results like any other page.
    ['https://support.google.com/maps/answer/144349?hl=en', 'https://support.google.com/maps/answer/144349?hl=en'],
    ['https://maps.google.com/', 'https://maps.google.com/'],
    ['https://www.google.com/maps', 'https://www.google.com/maps'],
    ['https://www.google.com/finance', 'https://www.google.com/finance'],
    ['https://www.google.com/intl/en/about/products', 'https://www.google.com/intl/en/about/products'],
    ['https://www.google.com/chrome/', 'https://www.google.com/chrome/'],
    ['https://policies.google.com/privacy?hl=en', 'https://policies.google.com/privacy?hl=en'],
    ['https://accounts.google.com/', 'https://accounts.google.com/'],
    ['https://myaccount.google.com/', 'https://myaccount.google.com/'],
    ['https://translate.google.com/', 'https://translate.google.com/'],
    ['https://developers.google.com/maps/documentation', 'https://developers.google.com/maps/documentation'],
    ['https://blog.google/products/maps/', 'https://blog.google/products/maps/'],
    ['https://mail.google.com/mail/', 'https://mail.google.com/mail/'],
    // Redirect wrappers with a target are that target.
    ['/url?q=https://www.google.com/finance&sa=U&ved=x', 'https://www.google.com/finance'],
    [
      'https://www.google.co.uk/url?url=https://support.google.com/mail/answer/56256&sa=t',
      'https://support.google.com/mail/answer/56256',
    ],
    [
      '/imgres?imgurl=https://x.example/a.png&imgrefurl=https://maps.google.com/about/',
      'https://maps.google.com/about/',
    ],
    [
      'https://translate.google.com/translate?u=https://cloud.google.com/use-cases/free-ai-tools&hl=pt-BR&sl=en&tl=pt-BR',
      'https://cloud.google.com/use-cases/free-ai-tools',
    ],
    ['https://example.org/guide?utm_source=x#:~:text=maps', 'https://example.org/guide'],
  ])('%s is a result: %s', (href, url) => {
    expect(publisherUrl(href, PAGE)).toBe(url);
  });

  it.each([
    // The results page itself, its tabs and tools, on any Google host or the page's origin.
    '/search?q=google+maps&tbm=isch',
    'https://www.google.com/search?q=gmail&udm=2',
    'https://www.google.de/search?q=gmail',
    'https://maps.google.com/maps?q=AI+Tools&output=search&source=lnms',
    'https://www.google.com/search?q=finance&source=lnt&tbs=qdr:d',
    // Redirect wrappers without an http target.
    '/url?sa=t&source=web',
    '/url?q=/search%3Fq%3Dgmail',
    '/imgres?imgurl=https://x.example/a.png',
    // Settings, the start page, the advanced form, the block page, ad clicks.
    '/preferences?hl=en',
    'https://www.google.com/setprefs?sig=x&prev=https://www.google.com/search',
    'https://www.google.com/advanced_search?q=gmail',
    'https://www.google.com/webhp?hl=en',
    'https://www.google.com/sorry/index?continue=x',
    'https://www.google.com/aclk?sa=l&ai=x&adurl=https://ads.example/',
    // Sign-in.
    'https://accounts.google.com/ServiceLogin?hl=en&continue=https://www.google.com/search',
    'https://accounts.google.com/v3/signin/identifier?continue=x',
    // The controls' help pointers (footer "Help", "Learn more" beside an AI answer).
    'https://support.google.com/websearch/?p=ws_results_help&hl=en&fg=1',
    'https://support.google.com/websearch?p=ai_overviews&hl=pt-BR',
    // The consent flow, the results cache, static files and ad hosts: never a page of their own.
    'https://consent.google.com/ml?continue=https://www.google.com/search',
    'https://webcache.googleusercontent.com/search?q=cache:abc:https://example.org/',
    'https://www.googleadservices.com/pagead/aclk?sa=L',
    // Relative links stay inside the search application (its verticals and tools).
    '/travel/flights?q=x',
    // Not http.
    'javascript:void(0)',
    '#',
  ])('%s is navigation', (href) => {
    expect(publisherUrl(href, PAGE)).toBeNull();
  });

  it("judges links on the page's own origin by path, as on Google's host", () => {
    expect(publisherUrl('http://127.0.0.1:4100/search?q=gmail&udm=2', LOCAL_PAGE)).toBeNull();
    expect(publisherUrl('/url?q=https://support.google.com/mail/answer/8494', LOCAL_PAGE)).toBe(
      'https://support.google.com/mail/answer/8494',
    );
    expect(publisherUrl('https://support.google.com/mail/answer/8494', LOCAL_PAGE)).toBe(
      'https://support.google.com/mail/answer/8494',
    );
  });

  it('tells a help pointer from a help article', () => {
    expect(isHelpPointer('https://support.google.com/websearch?p=ai_overviews')).toBe(true);
    expect(isHelpPointer('https://support.google.com/websearch/answer/16517651')).toBe(false);
    expect(isHelpPointer('https://example.org/?p=12')).toBe(false);
  });
});
