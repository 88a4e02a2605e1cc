import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acceptLanguage,
  browserRegion,
  desktopUserAgent,
  desktopUserAgentMetadata,
  regionLocale,
  USER_AGENTS,
} from '../../src/transport/identity.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('browser identity (src/transport/identity.ts)', () => {
  it('every fixed desktop user agent claims the same Chrome version', () => {
    const chrome = /Chrome\/(\d+)\.0\.0\.0 Safari\/537\.36/.exec(USER_AGENTS.desktopChrome)?.[1];
    expect(chrome).toMatch(/^\d{3}$/);
    expect(USER_AGENTS.desktopChrome).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\)/);
    expect(USER_AGENTS.desktopEdge).toBe(`${USER_AGENTS.desktopChrome} Edg/${chrome}.0.0.0`);
    expect(USER_AGENTS.mobileSafari).toMatch(/iPhone.*Mobile\/\w+ Safari/);
  });

  it('the headless browser claims a desktop Chrome of its own major version, with matching client hints', () => {
    expect(desktopUserAgent('131.0.6778.33')).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    );
    const hints = desktopUserAgentMetadata('131.0.6778.33');
    expect(hints.brands.map((b) => `${b.brand}/${b.version}`)).toEqual([
      'Chromium/131',
      'Google Chrome/131',
      'Not?A_Brand/99',
    ]);
    expect(hints.fullVersion).toBe('131.0.6778.33');
  });

  it('region languages: locale per country, Accept-Language with or without English after it', () => {
    expect(regionLocale('kr')).toEqual({ country: 'KR', language: 'ko', locale: 'ko-KR' });
    expect(regionLocale('KE')).toEqual({ country: 'KE', language: 'en', locale: 'en-KE' });
    expect(regionLocale('not a country').country).toBe('US');
    expect(acceptLanguage('ko-KR')).toBe('ko-KR,ko;q=0.9');
    expect(acceptLanguage('ko-KR', true)).toBe('ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.6');
    expect(acceptLanguage('en-GB', true)).toBe('en-GB,en;q=0.9');
    expect(browserRegion('JP')).toEqual({
      locale: 'ja-JP',
      timezoneId: 'Asia/Tokyo',
      acceptLanguage: 'ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.6',
    });
    expect(browserRegion('KE').timezoneId).toBe('UTC');
  });

  it('no other service module writes a browser user agent of its own', () => {
    const identity = path.join(SRC, 'transport', 'identity.ts');
    const offenders = sourceFiles(SRC)
      .filter((f) => f !== identity && !f.startsWith(path.join(SRC, 'sandbox')))
      .filter((f) => /Mozilla\/5\.0|AppleWebKit\//.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});
