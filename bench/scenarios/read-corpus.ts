import fs from 'node:fs';
import zlib from 'node:zlib';
import type { RawWebPage } from '../../src/engines/parse-pool/parsers.js';

/** The page-read scenario's input: the web corpus (test/fixtures/real/web, PROVENANCE.md there). */
const CORPUS_DIR = new URL('../../test/fixtures/real/web/', import.meta.url);

interface CorpusEntry {
  id: string;
  file: string;
  charset: string;
}

/**
 * Every page of the corpus as the transport hands it to WEB_SCRAPE: the saved bytes as sent with
 * `Content-Encoding: gzip` (the files are stored gzipped, as most servers send pages), so that both
 * sides of the scenario start from the same compressed bytes and both decompress and decode them.
 */
export function corpusPages(dir: URL = CORPUS_DIR): RawWebPage[] {
  const entries = JSON.parse(fs.readFileSync(new URL('expected.json', dir), 'utf8')) as CorpusEntry[];
  return entries.map((e) => {
    const raw = fs.readFileSync(new URL(e.file, dir));
    const body = e.file.endsWith('.gz') ? raw : zlib.gzipSync(raw);
    const url = `https://pages.example/${e.id}`;
    return {
      requestedUrl: url,
      finalUrl: url,
      status: 200,
      headers: { 'content-type': `text/html; charset=${e.charset}`, 'content-encoding': 'gzip' },
      body,
    };
  });
}

/** What a child of the scenario says to the bench process (over the fork's IPC channel). */
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'next' }
  | { type: 'done'; index: number; ok: boolean; error?: string }
  | { type: 'finished'; seconds: number; pages: number; failed: number; maxRssMb: number; maxHeapMb: number };

/** What the bench process says to a child: start the timed run, the next page to read, or no more pages. */
export type ParentMessage = { type: 'go' } | { type: 'page'; index: number } | { type: 'end' };
