/**
 * Token metering and the interpretation budget of docs/analysis.md#s2-14. Every model call is
 * counted by purpose, with the provider's own usage when it reports one and an estimate otherwise;
 * a call is made only if its reservation (estimated input plus its `max_tokens`) still fits.
 */
export type ModelPurpose =
  | 'model_check'
  | 'requirements'
  | 'requirement_coverage'
  | 'brand_decisions'
  | 'source_classification';

/** Fixed report order of the purposes (pipeline order), so `calls` never depends on timing. */
export const PURPOSE_ORDER: readonly ModelPurpose[] = [
  'model_check',
  'requirements',
  'requirement_coverage',
  'brand_decisions',
  'source_classification',
];

export interface TokenUsage {
  input: number;
  output: number;
}

export interface PurposeCalls {
  purpose: ModelPurpose;
  model: string;
  count: number;
  input: number;
  output: number;
}

export interface ModelTokensReport {
  input: number;
  output: number;
  estimated: boolean;
  calls: PurposeCalls[];
}

/** est(text) = ceil(utf8Bytes / 3): an over-estimate of tokens for English and Korean (§2.14). */
export function estimateTokens(text: string | null | undefined): number {
  return Math.ceil(Buffer.byteLength(text ?? '', 'utf8') / 3);
}

export class TokenMeter {
  private readonly byPurpose = new Map<ModelPurpose, PurposeCalls>();
  private used = 0;
  private estimated = false;

  constructor(
    readonly tokenLimit: number,
    private readonly model: string,
  ) {}

  get tokensUsed(): number {
    return this.used;
  }

  /** Whether a call that may use `tokens` more still stays within the limit. */
  fits(tokens: number): boolean {
    return this.used + tokens <= this.tokenLimit;
  }

  /** Records one call (also failed ones: tokens a provider consumed are billed to us). */
  record(purpose: ModelPurpose, usage: TokenUsage | null, estimate: TokenUsage): void {
    const u = usage ?? estimate;
    if (!usage && (estimate.input > 0 || estimate.output > 0)) this.estimated = true;
    const row = this.byPurpose.get(purpose) ?? { purpose, model: this.model, count: 0, input: 0, output: 0 };
    row.count++;
    row.input += u.input;
    row.output += u.output;
    this.byPurpose.set(purpose, row);
    this.used += u.input + u.output;
  }

  report(): ModelTokensReport {
    const calls = PURPOSE_ORDER.map((p) => this.byPurpose.get(p))
      .filter((c): c is PurposeCalls => c !== undefined)
      .map((c) => ({ ...c }));
    return {
      input: calls.reduce((a, c) => a + c.input, 0),
      output: calls.reduce((a, c) => a + c.output, 0),
      estimated: this.estimated,
      calls,
    };
  }
}

/** The report of a task that used no model. */
export function emptyModelTokens(): ModelTokensReport {
  return { input: 0, output: 0, estimated: false, calls: [] };
}
