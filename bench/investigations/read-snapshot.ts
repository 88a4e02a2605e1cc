import crypto from 'node:crypto';
import fs from 'node:fs';
import { PARSERS } from '../../src/engines/parse-pool/parsers.js';
import { corpusPages } from '../scenarios/read-corpus.js';

/**
 * `tsx bench/investigations/read-snapshot.ts OUT.json`: every page of the web corpus and of the held-out corpus read
 * as WEB_SCRAPE reads it (`web.page`, inline), each result (or failure) recorded as a SHA-256 of its JSON, with the
 * time each read took. Two snapshots from two trees show whether a change to how pages are read changed any output.
 */
const out = process.argv[2];
if (!out) throw new Error('usage: read-snapshot.ts OUT.json');
const dirs = ['../../test/fixtures/real/web/', '../../test/fixtures/real/web-heldout/'].map(
  (d) => new URL(d, import.meta.url),
);
const result: Record<string, string> = {};
let ms = 0;
for (const dir of dirs) {
  for (const page of corpusPages(dir)) {
    const t = performance.now();
    let value: string;
    try {
      value = JSON.stringify(PARSERS['web.page'](page));
    } catch (e) {
      value = `error: ${e instanceof Error ? e.message : String(e)}`;
    }
    ms += performance.now() - t;
    // jsdom releases a closed window from a timer: let it run between pages, as the parse pool's threads do.
    await new Promise((resolve) => setTimeout(resolve, 0));
    result[`${dir.pathname.split('/').at(-2)}/${page.finalUrl}`] = crypto
      .createHash('sha256')
      .update(value)
      .digest('hex');
  }
}
fs.writeFileSync(out, JSON.stringify(result, null, 1));
console.log(`${Object.keys(result).length} pages, ${Math.round(ms)} ms reading`);
