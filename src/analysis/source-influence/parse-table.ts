import type { SourceInfluenceConfig } from '../config.js';
import { analyzeSourceInfluence } from './analyze.js';
import { analyzeCore, portableCore } from './core.js';
import type { FetchRecord, SourceInfluenceInput } from './types.js';

/**
 * The source-influence steps the parse pool runs (added to its table by `parse-tasks.ts`). Each is a pure function of
 * plain data, so it runs the same in a thread and inline.
 */
export const PARSERS = {
  /**
   * SOURCE_INFLUENCE without an interpretation model: the whole analysis (segmenting the client's
   * answer, aligning it with the pages, the extended analysis), a pure function of its input. Off
   * the event loop, a long or hostile answer holds a parse thread, and only until the deadline.
   */
  'sourceInfluence.analyze': (i: {
    input: SourceInfluenceInput;
    records: ReadonlyArray<FetchRecord | null>;
    cfg: SourceInfluenceConfig;
    simulated: boolean;
  }) => analyzeSourceInfluence(i.input, i.records, i.cfg, { simulated: i.simulated }),
  /**
   * SOURCE_INFLUENCE with a model (whose calls go out from the main thread):
   * the lexical core (segmentation, passages, alignment), without its class instances.
   */
  'sourceInfluence.core': (i: {
    input: SourceInfluenceInput;
    records: ReadonlyArray<FetchRecord | null>;
    cfg: SourceInfluenceConfig;
  }) => portableCore(analyzeCore(i.input, i.records, i.cfg)),
};
