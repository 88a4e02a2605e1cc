import { engineAnswerSchema } from './engine-answer.js';
import { promptResearchResultSchema } from './prompt-research-result.js';
import { sourceInfluenceResultSchema } from './source-influence-result.js';

/**
 * The schemas every route may refer to by `$id`: Fastify holds them as shared schemas (`app.addSchema`) and the
 * OpenAPI document lists them under `components.schemas` by that name.
 */
export const SHARED_SCHEMAS = [sourceInfluenceResultSchema, promptResearchResultSchema, engineAnswerSchema] as const;

/**
 * A completed task's `response`: the analysis result of SOURCE_INFLUENCE and PROMPT_RESEARCH tasks, every other
 * engine's answer (`text`, `markdown`, `sources` and its own members). The service writes the stored result into
 * the answer as text (task-view.ts), so this schema describes it and never serialises it.
 */
export const taskResponseSchema = {
  anyOf: [
    { $ref: `${sourceInfluenceResultSchema.$id}#` },
    { $ref: `${promptResearchResultSchema.$id}#` },
    { $ref: `${engineAnswerSchema.$id}#` },
  ],
} as const;
