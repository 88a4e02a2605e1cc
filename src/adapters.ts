import { createPromptResearchAdapter } from './analysis/prompt-research/adapter.js';
import { createSourceInfluenceAdapter } from './analysis/source-influence/adapter.js';
import { answerEngineA } from './engines/chat/answer-engine-a.js';
import { assistantA } from './engines/chat/assistant-a.js';
import { chatbotA } from './engines/chat/chatbot-a.js';
import { EngineRegistry } from './engines/registry.js';
import { aiMode } from './engines/search-a/aimode.js';
import { searchA } from './engines/search-a/search-a.js';
import { searchASerp } from './engines/search-a/search-a-serp.js';
import { searchBAiBrief } from './engines/search-b/ai-brief-adapter.js';
import { searchBAiTab } from './engines/search-b/ai-tab-adapter.js';
import { searchBSerp } from './engines/search-b/serp-adapter.js';
import { searchCAssistant } from './engines/search-c/search-c-assistant.js';
import { searchCSearch } from './engines/search-c/search-c-search.js';
import { webScrape } from './engines/web/web-scrape.js';
import { forum } from './engines/forum/forum.js';

/**
 * Every adapter the service ships, by canonical task type. The engines and the analyses are joined
 * here, beside app.ts, because the engines layer sits below the analyses (docs/architecture.md).
 */
export function defaultRegistry(): EngineRegistry {
  return new EngineRegistry()
    .register(answerEngineA)
    .register(chatbotA)
    .register(assistantA)
    .register(searchCSearch)
    .register(searchCAssistant)
    .register(webScrape)
    .register(forum)
    .register(searchA)
    .register(searchASerp)
    .register(aiMode)
    .register(searchBAiBrief)
    .register(searchBAiTab)
    .register(searchBSerp)
    .register(createSourceInfluenceAdapter())
    .register(createPromptResearchAdapter());
}
