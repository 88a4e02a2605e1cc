import fs from 'node:fs';

const FIXTURES = new URL('../../test/fixtures/real/', import.meta.url);

/** A URL as the corpora compare them: no scheme, no `www.`, no fragment, no trailing slash, lower case. */
export const urlKey = (u: string) =>
  u
    .toLowerCase()
    .split('#')[0]
    ?.replace(/\/+$/, '')
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '') ?? '';

/** The URL keys of the pages of the stored corpora `names` (test/fixtures/real/<name>/expected.json). */
export function storedCorpusUrls(names: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const name of names) {
    const rows = JSON.parse(fs.readFileSync(new URL(`${name}/expected.json`, FIXTURES), 'utf8')) as Array<{
      url: string;
    }>;
    for (const r of rows) keys.add(urlKey(r.url));
  }
  return keys;
}
