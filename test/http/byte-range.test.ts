import { describe, expect, it } from 'vitest';
import { byteRange } from '../../src/http/byte-range.js';

/** The single byte range of a download (RFC 9110, 14.1.2): each form, the end clamped, what is ignored, what is 416. */
describe('byteRange', () => {
  const size = 1000;

  it('no header, or one it does not serve, is the whole file', () => {
    for (const h of [undefined, '', 'items=0-5', 'bytes=', 'bytes=-', 'bytes=a-b', 'bytes=0-1,5-6', 'bytes=5-2'])
      expect(byteRange(h, size), String(h)).toEqual({ kind: 'full' });
    // Absurd positions are not a range of any file kept here.
    expect(byteRange('bytes=0-9999999999999999', size)).toEqual({ kind: 'full' });
  });

  it('first-last, first-, and a suffix', () => {
    expect(byteRange('bytes=0-0', size)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(byteRange('bytes=10-19', size)).toEqual({ kind: 'partial', start: 10, end: 19 });
    expect(byteRange('bytes=990-', size)).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(byteRange('bytes=-10', size)).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(byteRange(' BYTES = 1 - 2 ', size)).toEqual({ kind: 'partial', start: 1, end: 2 });
  });

  it('a last position past the end, or a suffix longer than the file, reads to the end', () => {
    expect(byteRange('bytes=995-5000', size)).toEqual({ kind: 'partial', start: 995, end: 999 });
    expect(byteRange('bytes=-5000', size)).toEqual({ kind: 'partial', start: 0, end: 999 });
  });

  it('a range that starts at or past the end, or an empty suffix, is unsatisfiable', () => {
    expect(byteRange('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=1000-1001', size)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
