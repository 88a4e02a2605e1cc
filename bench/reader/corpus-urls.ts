import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CorpusPage } from './drop-trace-core.js';

const FIXTURES = new URL('../../test/fixtures/real/', import.meta.url);

/**
 * A corpus directory: `dir` when given (any directory laid out as the corpora are: `expected.json` and the gzipped
 * pages beside it), else the stored corpus `name` (test/fixtures/real/<name>/).
 */
export function corpusDir(name: string, dir?: string): URL {
  return dir ? pathToFileURL(`${path.resolve(dir)}/`) : new URL(`${name}/`, FIXTURES);
}

/** The pages a corpus directory lists in its `expected.json`. */
export function corpusPages(dir: URL): CorpusPage[] {
  return JSON.parse(fs.readFileSync(new URL('expected.json', dir), 'utf8')) as CorpusPage[];
}

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
