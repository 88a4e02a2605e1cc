import type { ServiceConfig } from '../config/engine-config.js';
import type { TaskType } from '../domain/task-types.js';

/** Where each engine's upstream lives inside the simulator (path prefix of the sandbox server). */
export const SANDBOX_PREFIX: Readonly<Record<TaskType, string>> = Object.freeze({
  CHATBOT_A: '/openai',
  ANSWER_ENGINE_A: '/perplexity',
  ASSISTANT_A: '/gemini',
  AIMODE: '/google',
  SEARCH_A: '/google',
  SEARCH_A_SERP: '/google',
  SEARCH_B_AI_BRIEF: '/naver',
  SEARCH_B_AI_TAB: '/naver',
  SEARCH_B_SERP: '/naver',
  SEARCH_C_SEARCH: '/bing',
  SEARCH_C_ASSISTANT: '/copilot',
  FORUM: '/reddit',
  WEB_SCRAPE: '/web',
  SOURCE_INFLUENCE: '/web',
  PROMPT_RESEARCH: '/google-suggest',
});

/** Secondary hosts some engines use, by option name. */
const SANDBOX_OPTION_PREFIX: Readonly<Record<string, string>> = Object.freeze({
  blogBaseUrl: '/naver-blog',
  naverBaseUrl: '/naver-ac',
  modelBaseUrl: '/model',
  searchadBaseUrl: '/naver-searchad',
});

/** Secondary hosts whose option name several engines share (the chat engines' web UIs), by engine. */
const SANDBOX_ENGINE_OPTION_PREFIX: Readonly<Partial<Record<TaskType, Readonly<Record<string, string>>>>> =
  Object.freeze({
    CHATBOT_A: { webBaseUrl: '/chatgpt' },
    ANSWER_ENGINE_A: { webBaseUrl: '/perplexity-web' },
  });

/**
 * The model id engines with a `modelBaseUrl` send to the simulator, and so report: the simulator's name, never a
 * vendor's model (a simulated judgement must not pass for a real model's).
 */
const SANDBOX_MODEL_NAME = 'aeq-sandbox-model';

/** Points every engine's upstream (and secondary hosts) at the simulator. */
export function routeToSandbox(config: ServiceConfig, sandboxUrl: string): void {
  for (const [t, e] of Object.entries(config.engines) as Array<[TaskType, ServiceConfig['engines'][TaskType]]>) {
    e.upstream.baseUrl = sandboxUrl + SANDBOX_PREFIX[t];
    for (const [opt, prefix] of Object.entries(SANDBOX_OPTION_PREFIX)) {
      if (opt in e.upstream.options) e.upstream.options[opt] = sandboxUrl + prefix;
    }
    for (const [opt, prefix] of Object.entries(SANDBOX_ENGINE_OPTION_PREFIX[t] ?? {})) {
      if (opt in e.upstream.options) e.upstream.options[opt] = sandboxUrl + prefix;
    }
    if ('modelBaseUrl' in e.upstream.options) e.upstream.options.model = SANDBOX_MODEL_NAME;
  }
}
