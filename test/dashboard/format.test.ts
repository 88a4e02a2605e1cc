import { describe, expect, it } from 'vitest';
import { askedOf, safeHref, whenIn } from '../../web/dashboard/src/format.js';

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

  it("gives a schedule's next run in the schedule's own time zone, named", () => {
    const at = '2026-11-29T00:00:00.000Z';
    const seoul = whenIn(at, 'Asia/Seoul');
    expect(seoul.endsWith(' Asia/Seoul')).toBe(true);
    // Midnight UTC is 9 in the morning in Seoul, whatever the browser's own zone.
    expect(seoul).toMatch(/\b9:00\b/);
    expect(seoul).toMatch(/29/);
    expect(whenIn(at, 'America/New_York')).toMatch(/\b7:00\b.*America\/New_York$/);
    // Without a zone, or with one the browser does not know, the browser's time, unnamed.
    expect(whenIn(at, 'Not/AZone')).not.toContain('Not/AZone');
    expect(whenIn(null, 'Asia/Seoul')).toBe('—');
  });
});
