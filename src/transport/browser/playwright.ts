import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let loaded: typeof import('playwright-core') | undefined;

/**
 * playwright-core, loaded on the first call: it takes about 90 MB of memory, which an API process,
 * or a worker whose engines never drive a browser, would otherwise carry for nothing (the same rule
 * as the parsing libraries of src/engines/lazy-modules.ts).
 */
export function playwright(): typeof import('playwright-core') {
  loaded ??= require('playwright-core') as typeof import('playwright-core');
  return loaded;
}
