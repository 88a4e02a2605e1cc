import { describe, expect, it } from 'vitest';
import { askedOf, safeHref } from '../../web/dashboard/src/format.js';

/** The dashboard's own rules on text from outside: links only to http(s) pages, a task's question in a line. */
describe('dashboard formatting', () => {
  it('links only http(s) URLs: a source of any other scheme is shown, never followed', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:x',
      'data:text/html,<b>',
      'vbscript:x',
    ])
      expect(safeHref(bad), bad).toBeUndefined();
    expect(safeHref('not a url')).toBeUndefined();
    expect(safeHref(undefined)).toBeUndefined();
  });

  it('says what a listed task asked, whatever its engine calls it, or its id', () => {
    expect(askedOf({ task: { id: 't1' }, request: { payload: { prompt: 'best  shoes\nfor running' } } })).toBe(
      'best shoes for running',
    );
    expect(askedOf({ task: { id: 't2' }, request: { payload: { url: 'https://example.com/x' } } })).toBe(
      'https://example.com/x',
    );
    expect(askedOf({ task: { id: 't3' }, request: { payload: {} } })).toBe('t3');
    expect(askedOf({ task: { id: 't4' }, request: { payload: { seed: 'x'.repeat(200) } } }, 10)).toBe(
      `${'x'.repeat(9)}…`,
    );
  });
});
