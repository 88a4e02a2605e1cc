import { PURPOSE_ORDER } from '../../analysis/model/meter.js';
import { bool, int, list, object, enumOf, str } from './json-schema.js';

/** The interpretation model's tokens of one analysis task, by purpose (docs/analysis.md#s2-14). */
export const modelTokensSchema = object(
  {
    input: int,
    output: int,
    estimated: { ...bool, description: 'some call reported no usage, so its tokens are estimated' },
    calls: list(object({ purpose: enumOf(PURPOSE_ORDER), model: str, count: int, input: int, output: int })),
  },
  { description: 'model tokens by purpose, in pipeline order; zeros without a model' },
);
