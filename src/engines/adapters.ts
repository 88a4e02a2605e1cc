import { createPromptResearchAdapter } from '../analysis/prompt-research/adapter.js';
import { createSourceInfluenceAdapter } from '../analysis/source-influence/adapter.js';
import { answerEngineA } from './chat/answer-engine-a.js';
import { assistantA } from './chat/assistant-a.js';
import { chatbotA } from './chat/chatbot-a.js';
import { EngineRegistry } from './registry.js';
import { aiMode } from './search-a/aimode.js';
import { searchA } from './search-a/search-a.js';
import { searchASerp } from './search-a/search-a-serp.js';
import { searchBAiBrief } from './search-b/ai-brief-adapter.js';
import { searchBAiTab } from './search-b/ai-tab-adapter.js';
import { searchBSerp } from './search-b/serp-adapter.js';
import { searchCAssistant } from './search-c/search-c-assistant.js';
import { searchCSearch } from './search-c/search-c-search.js';
import { webScrape } from './web/web-scrape.js';
import { forum } from './forum/forum.js';

/** Every adapter the service ships, by canonical task type. */
export function defaultRegistry(): EngineRegistry {
  return new EngineRegistry().register(answerEngineA).register(chatbotA).register(assistantA).register(searchCSearch).register(searchCAssistant).register(webScrape).register(forum).register(searchA).register(searchASerp).register(aiMode).register(searchBAiBrief).register(searchBAiTab).register(searchBSerp).register(createSourceInfluenceAdapter()).register(createPromptResearchAdapter());
}
