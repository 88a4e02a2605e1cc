import type { Language } from '../text/norm.js';
import { measuredIn } from './judge/learned.js';
import type { JudgeBasis, JudgeEvaluation } from './result-types.js';

/**
 * What is known about the accuracy of the judge behind a result (`summary.judgeEvaluation`). The lexical judge is
 * the code measured by `npm run eval:analysis` on the held-out evaluation sets, with its figures in
 * docs/analysis.md. A model is whatever the deployment configured: nothing measured it here (no model endpoint is
 * reachable where the figures are made), so a result any pair of which the model judged says `measured: false` and
 * how a deployment measures its own model on the same sets.
 */
const LEXICAL_EVALUATION_NOTE =
  'The lexical judge is measured on the held-out part of real labelled sets: docs/analysis.md, "Evaluation on ' +
  'held-out data" (npm run eval:analysis).';

const MODEL_UNMEASURED_NOTE =
  'The model judge has not been evaluated on the held-out sets in this deployment; run ' +
  'npm run eval:analysis -- --model-url URL --model NAME to measure it.';

const LANGUAGE_UNMEASURED_NOTE =
  'No real labelled set of this language with a licence that allows it was reachable: its pairs are judged by the ' +
  'judge trained on real English pairs, and its figures in this language are unmeasured (docs/analysis.md, "Real ' +
  'labelled sets").';

/**
 * `language`: the answer's; the lexical judge counts as measured only in a language it has real held-out figures in
 * (learned.ts measuredIn), or, for the thresholds, in English, where the previous release was measured.
 */
export function judgeEvaluation(
  judge: JudgeBasis,
  language: Language,
  method: 'learned' | 'thresholds',
): JudgeEvaluation {
  if (judge !== 'lexical') return { judge: 'model', measured: false, note: MODEL_UNMEASURED_NOTE };
  const measured = method === 'learned' ? measuredIn(language) : language === 'en';
  return { judge: 'lexical', measured, note: measured ? LEXICAL_EVALUATION_NOTE : LANGUAGE_UNMEASURED_NOTE };
}
