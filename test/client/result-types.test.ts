import { describe, expectTypeOf, it } from 'vitest';
import type { PromptResearchResult, SourceInfluenceResult } from '../../packages/client/src/types.js';
import type { PromptResearchResult as BuiltResearch } from '../../src/analysis/prompt-research/result-types.js';
import type { SourceInfluenceResult as BuiltInfluence } from '../../src/analysis/source-influence/result-types.js';

/**
 * The analysis results have two descriptions: the TypeScript types their builders return (src/analysis/…/
 * result-types.ts) and the JSON schemas the OpenAPI document publishes (src/http/schemas/…-result.ts), from which
 * openapi-typescript makes the client's types. These assertions are checked by the compiler (`npm run typecheck`,
 * part of `npm test`): a member missing from one side, optional on one side only, or of another type fails it.
 * test/client/types.test.ts keeps the client's types equal to the document the service serves, and
 * test/contract/analysis-results.test.ts validates real results against the published schemas.
 */
describe('the published result schemas and the types the builders return', () => {
  it('SOURCE_INFLUENCE: SourceInfluenceResult', () => {
    expectTypeOf<SourceInfluenceResult>().toEqualTypeOf<BuiltInfluence>();
  });

  it('PROMPT_RESEARCH: PromptResearchResult', () => {
    expectTypeOf<PromptResearchResult>().toEqualTypeOf<BuiltResearch>();
  });
});
