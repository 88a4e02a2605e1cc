import { described, int, list, nullable, num, object, str, strings } from './json-schema.js';

/**
 * The `response` of a completed engine task (every task type but the analyses), published in the OpenAPI document as
 * the component `EngineAnswer`: `text`, `markdown`, `sources`, the answer signals of the engines that write an answer
 * (docs/contract.md#answer-signals; null where the engine cannot see one), and each engine's own members. The
 * types are `EngineResult` and `AnswerSignals` in src/engines/engine-result.ts.
 */
const nullableStr = nullable(str);
const nullableNum = nullable(num);

const retrievedSource = object({ position: int, url: str, title: nullableStr, query: nullableStr });
const product = object({
  position: int,
  title: str,
  url: nullableStr,
  price: described(nullableStr, 'as shown'),
  currency: nullableStr,
  merchant: nullableStr,
  rating: nullableNum,
});
const ad = object({ position: int, title: str, url: nullableStr });
const place = object({ position: int, name: str, url: nullableStr, address: nullableStr, rating: nullableNum });
const region = object({
  requested: described(nullableStr, "the task's country (ISO 3166-1 alpha-2), null when the client named none"),
  exit: described(str, 'the country of the exit address the upstream was called through'),
  engine: nullable(
    object({
      country: nullableStr,
      language: nullableStr,
      signal: described(str, 'which of its own signals the engine said it in'),
    }),
    'where the engine itself says it served the answer for; null when it says nothing',
  ),
});

export const engineAnswerSchema = {
  $id: 'EngineAnswer',
  type: 'object',
  description:
    "An engine's answer. The answer signals are present on engines that write an answer and null where the engine " +
    "cannot see them (docs/contract.md#answer-signals); other members are the engine's own",
  required: ['text', 'sources'],
  additionalProperties: true,
  properties: {
    text: str,
    markdown: described(str, 'absent when include.markdown is false'),
    sources: list(object({ position: int, url: str, label: str }), 'the cited sources, numbered as the markers'),
    searchQueries: nullable(strings, 'the searches the engine ran, in order'),
    searchTriggered: nullable({ type: 'boolean' }, 'whether the engine searched the web for this answer'),
    retrievedSources: nullable(list(retrievedSource), 'pages the engine read but did not cite'),
    products: nullable(list(product), 'product and shopping cards'),
    ads: nullable(list(ad), 'sponsored units'),
    places: nullable(list(place), 'local cards'),
    region: described(region, 'the region asked for and the one served (docs/contract.md#region)'),
    capture: described(
      { type: 'string', enum: ['stream', 'dom'] },
      "app surface only (docs/contract.md#surfaces): read from the app's own stream, or from the page when the " +
        'stream could not be read',
    ),
  },
} as const;
