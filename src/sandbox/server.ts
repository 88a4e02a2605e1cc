import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock.js';
import { trackLoad } from './load-stats.js';
import { SimContext } from './sim-context.js';
import { registerAnswerEngineA } from './routes/perplexity.js';
import { registerChatbotA } from './routes/openai.js';
import { registerAssistantA } from './routes/gemini.js';
import { registerBing } from './routes/bing.js';
import { registerCopilot } from './routes/copilot.js';
import { registerWeb } from './routes/web.js';
import { registerReddit } from './routes/reddit.js';
import { registerNaverBlog, registerNaverSearch } from './routes/naver.js';
import { registerSearchEngineA } from './routes/google.js';
import { registerGoogleScriptRoutes } from './routes/google/script-pages.js';
import { registerNaverScriptRoutes } from './routes/naver/script-pages.js';
import { registerGoogleSuggest } from './routes/suggest.js';
import { registerNaverAc } from './routes/naver-ac.js';
import { registerModel } from './routes/model.js';
import { registerNaverSearchad } from './routes/naver-searchad.js';
import { registerChatGptWeb } from './routes/chatgpt.js';
import { registerPerplexityWeb } from './routes/perplexity-web.js';

/** A simulated upstream family: registers its routes under its prefix. */
type SimRoutes = (app: FastifyInstance, sim: SimContext) => void;

const FAMILIES: ReadonlyArray<[prefix: string, routes: SimRoutes]> = [
  ['/perplexity', registerAnswerEngineA],
  ['/openai', registerChatbotA],
  ['/gemini', registerAssistantA],
  ['/bing', registerBing],
  ['/copilot', registerCopilot],
  ['/web', registerWeb],
  ['/reddit', registerReddit],
  ['/naver', registerNaverSearch],
  // Answer streams of the script-rendered pages (`sandbox:js`), fetched by the page's own script.
  ['/naver', registerNaverScriptRoutes],
  ['/naver-blog', registerNaverBlog],
  ['/google', registerSearchEngineA],
  ['/google', registerGoogleScriptRoutes],
  ['/google-suggest', registerGoogleSuggest],
  ['/naver-ac', registerNaverAc],
  ['/model', registerModel],
  ['/naver-searchad', registerNaverSearchad],
  // The chat engines' web UIs (their `transport: "browser"` mode).
  ['/chatgpt', registerChatGptWeb],
  ['/perplexity-web', registerPerplexityWeb],
];

export interface Simulator {
  url: string;
  close(): Promise<void>;
}

/**
 * The sandbox: local HTTP upstreams that answer in the real wire formats (docs/engines.md), with the
 * directives of docs/contract.md#sandbox-directives. The real adapters run against it unchanged. Its days (which brands
 * the engines recommend, landscape/) follow `clock`: the service's own when it runs in the service's process.
 */
export async function startSimulator(opts: { host?: string; port?: number; clock?: Clock } = {}): Promise<Simulator> {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  // Upstreams are called with many content types; keep bodies as text and let routes parse them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const sim = new SimContext(opts.clock);
  trackLoad(app);
  for (const [prefix, routes] of FAMILIES) {
    await app.register(async (scope) => routes(scope, sim), { prefix });
  }
  const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  return {
    url: address.replace('localhost', '127.0.0.1'),
    close: () => app.close(),
  };
}
