import { addParserTable } from '../../engines/parse-pool/added-tables.js';
import type { PARSERS } from './parse-table.js';

/**
 * Adds the source-influence steps (`parse-table.ts`) to the parse pool's table: the pool's layer is below this one and
 * never imports it. The module's address and an import of it are handed over, neither run here, so loading this file
 * loads none of the analysis; the composition root loads it before any pool starts a thread, each thread then loads
 * the table by its address, and a parse on the event loop through the import.
 */
type SourceInfluenceParsers = typeof PARSERS;

declare module '../../engines/parse-pool/parsers.js' {
  interface ParserRegistry extends SourceInfluenceParsers {}
}

/** From the sources (tsx, tests) the table is the .ts beside this file; built, the .js. */
const fromSource = import.meta.url.endsWith('.ts');
addParserTable(
  new URL(fromSource ? './parse-table.ts' : './parse-table.js', import.meta.url).href,
  () => import('./parse-table.js'),
);
