import { createRequire } from 'node:module';
import type TurndownService from 'turndown';

const require = createRequire(import.meta.url);

/** A module loaded on the first call, synchronously (these packages ship CommonJS builds). */
function onFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

/**
 * Heavy libraries load on first use rather than at start-up: jsdom takes about 70 MB of memory,
 * cheerio about 30 MB and turndown (with its DOM, domino) about 9 MB, which an API process, or a
 * worker whose engines never parse a page, would otherwise carry for nothing (docs/benchmarks.md,
 * growth). playwright-core (about 90 MB) loads the same way, in src/transport/browser/playwright.ts.
 */
export const jsdom = onFirstUse<typeof import('jsdom')>('jsdom');
export const readability = onFirstUse<typeof import('@mozilla/readability')>('@mozilla/readability');
export const cheerio = onFirstUse<typeof import('cheerio')>('cheerio');
/** Turndown's CommonJS build exports the class itself. */
export const turndown = onFirstUse<typeof TurndownService>('turndown');
export const turndownGfm = onFirstUse<typeof import('turndown-plugin-gfm')>('turndown-plugin-gfm');
