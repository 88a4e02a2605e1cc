import type { SimContext } from '../../sim-context.js';

/**
 * Google-only directives: `sandbox:aio` / `sandbox:noaio` (AI Overview), `sandbox:js` (script-rendered AI Mode),
 * `sandbox:products` / `sandbox:places` (a shopping unit / a local pack on the results page whatever the query).
 */
const GOOGLE_DIRECTIVES = /(?<!\s)\s*sandbox:(?:(?:no)?aio|js|products|places)\b/g;
const SCRIPT_RENDER = /sandbox:js\b/;

/**
 * What the generated page is about: the query without any directive, so `sandbox:js` changes the delivery, not the
 * answer.
 */
export function queryTopic(sim: SimContext, query: string): string {
  return sim.clean(query.replace(GOOGLE_DIRECTIVES, '')) || query;
}

/** `sandbox:js`: the answer arrives by script after the page loads, so only a browser sees it. */
export function wantsScriptRender(query: string): boolean {
  return SCRIPT_RENDER.test(query);
}
