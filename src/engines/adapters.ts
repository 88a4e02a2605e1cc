import { answerEngineA } from './chat/answer-engine-a.js';
import { EngineRegistry } from './registry.js';

/** Every adapter the service ships, by canonical task type. */
export function defaultRegistry(): EngineRegistry {
  return new EngineRegistry().register(answerEngineA);
}
